import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Late and out-of-order deliveries never overwrite newer state.
@Suite struct RefundOrderingTests {
    enum Delivery: String, CaseIterable, CustomTestStringConvertible {
        case purchase, refund, reversal
        var testDescription: String { rawValue }
    }

    static func permutations(_ items: [Delivery]) -> [[Delivery]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    static let allOrders = permutations(Delivery.allCases).map { $0.map(\.rawValue).joined(separator: ",") }

    /// Delivers a purchase (store date t0), a refund (t0+10s) and its reversal (t0+20s)
    /// in the given order; the final state is the true one: owned, granted once.
    @Test(arguments: StoreKind.allCases, allOrders)
    func everyOrderOfPurchaseRefundAndReversalEndsOwned(kind: StoreKind, order: String) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        let bundle = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        let t0 = harness.clock.now()
        for delivery in order.split(separator: ",").compactMap({ Delivery(rawValue: String($0)) }) {
            harness.clock.advance(seconds: 1)
            for item in [purchase, bundle] {
                switch delivery {
                case .purchase:
                    _ = try await harness.ledger.fulfill(item)
                case .refund:
                    _ = try await harness.ledger.applyRevocation(
                        RevocationEvent(
                            eventID: "r-\(item.transactionID)", store: item.store, transactionID: item.transactionID,
                            kind: .fullRefund, eventDate: t0.addingTimeInterval(10)))
                case .reversal:
                    _ = try await harness.ledger.applyRevocation(
                        RevocationEvent(
                            eventID: "v-\(item.transactionID)", store: item.store, transactionID: item.transactionID,
                            kind: .refundReversed, eventDate: t0.addingTimeInterval(20)))
                }
            }
        }
        // A late replay of each purchase changes nothing.
        #expect(try await harness.ledger.fulfill(purchase).name == "alreadyFulfilled")
        await #expect(try harness.ledger.entitlements("p1").statuses["remove_ads"] == .owned)
        await #expect(try harness.progress("p1") == Progress(
            balances: ["gems": 500, "coins": 10_000], inventory: ["frost_tower": 1, "revive_token": 3],
            entitlements: ["remove_ads"], transactionCount: 2))
    }

    @Test(arguments: StoreKind.allCases, [true, false])
    func refundBeforeOrAfterThePurchaseEndsNotOwned(kind: StoreKind, refundFirst: Bool) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        let refund = RevocationEvent(
            eventID: "r1", store: purchase.store, transactionID: purchase.transactionID, kind: .fullRefund,
            eventDate: harness.clock.now().addingTimeInterval(5))
        if refundFirst {
            await #expect(try harness.ledger.applyRevocation(refund).record?.disposition == .awaitingPurchase)
        }
        _ = try await harness.ledger.fulfill(purchase)
        if !refundFirst { _ = try await harness.ledger.applyRevocation(refund) }
        await #expect(try harness.ledger.entitlements("p1").owned.isEmpty)
        #expect(try await harness.ledger.fulfill(purchase).name == "alreadyFulfilled")
        await #expect(try harness.ledger.entitlements("p1").owned.isEmpty)
        let stored = try await harness.ledger.store.read { reader throws(LedgerError) in try reader.revocationEvent(id: "r1") }
        #expect(stored?.disposition == .applied)
    }

    @Test(arguments: StoreKind.allCases)
    func entitlementVersionStrictlyIncreasesWithEveryChange(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        var versions = await [try harness.ledger.entitlements("p1").version ?? -1]
        _ = try await harness.ledger.fulfill(purchase)
        await versions.append(try harness.ledger.entitlements("p1").version ?? -1)
        _ = try await harness.ledger.fulfill(purchase)  // no change, no bump
        await #expect(try harness.ledger.entitlements("p1").version == versions.last)
        for (index, kind) in [RevocationKind.fullRefund, .refundReversed, .revoke].enumerated() {
            harness.clock.advance(seconds: 1)
            _ = try await harness.ledger.applyRevocation(
                RevocationEvent(
                    eventID: "e\(index)", store: purchase.store, transactionID: purchase.transactionID, kind: kind,
                    eventDate: harness.clock.now()))
            await versions.append(try harness.ledger.entitlements("p1").version ?? -1)
        }
        #expect(versions == versions.sorted() && Set(versions).count == versions.count, "\(versions)")
    }

    /// A reversal dated before the refund it would undo arrived late: it is stale and gives
    /// nothing back, so the newer refund stands.
    @Test(arguments: StoreKind.allCases)
    func aReversalOlderThanTheRefundIsStale(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let bundle = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        let t0 = harness.clock.now()
        _ = try await harness.ledger.fulfill(bundle)
        let refund = try await harness.ledger.applyRevocation(
            RevocationEvent(
                eventID: "r1", store: bundle.store, transactionID: bundle.transactionID, kind: .fullRefund,
                eventDate: t0.addingTimeInterval(10)))
        #expect(refund.record?.disposition == .applied)
        let refunded = try await harness.progress("p1")
        let late = try await harness.ledger.applyRevocation(
            RevocationEvent(
                eventID: "v0", store: bundle.store, transactionID: bundle.transactionID, kind: .refundReversed,
                eventDate: t0.addingTimeInterval(5)))
        #expect(late.record?.disposition == .stale)
        #expect(late.record?.effect.isEmpty == true)
        await #expect(try harness.progress("p1") == refunded)
    }

    /// A refund is given back once: a second reversal of it (another event ID, a later date)
    /// finds nothing left to give back.
    @Test(arguments: StoreKind.allCases)
    func aSecondReversalGivesNothingBack(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let bundle = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        _ = try await harness.ledger.fulfill(bundle)
        let granted = try await harness.progress("p1")
        for (id, kind) in [("r1", RevocationKind.fullRefund), ("v1", .refundReversed)] {
            harness.clock.advance(seconds: 1)
            let outcome = try await harness.ledger.applyRevocation(
                RevocationEvent(
                    eventID: id, store: bundle.store, transactionID: bundle.transactionID, kind: kind,
                    eventDate: harness.clock.now()))
            #expect(outcome.record?.disposition == .applied, "\(id)")
        }
        await #expect(try harness.progress("p1") == granted)
        harness.clock.advance(seconds: 1)
        let again = try await harness.ledger.applyRevocation(
            RevocationEvent(
                eventID: "v2", store: bundle.store, transactionID: bundle.transactionID, kind: .refundReversed,
                eventDate: harness.clock.now()))
        #expect(again.record?.disposition == .noChange)
        await #expect(try harness.progress("p1") == granted, "given back once, not twice")
    }
}
