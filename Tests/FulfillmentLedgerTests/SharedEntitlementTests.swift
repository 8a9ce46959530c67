import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// An entitlement is held while at least one unrefunded, unrevoked purchase pays for it,
/// whichever product that purchase was: `remove_ads` alone and the Founder's Pack
/// (`remove_ads` + 1,000 gems) both pay for ad removal.
@Suite struct SharedEntitlementTests {
    static func event(
        _ id: String, _ purchase: TransactionSubmission, _ kind: RevocationKind, at date: Date
    ) -> RevocationEvent {
        RevocationEvent(eventID: id, store: purchase.store, transactionID: purchase.transactionID, kind: kind, eventDate: date)
    }

    static func status(_ harness: LedgerHarness, _ player: String = "p1") async throws -> EntitlementStatus? {
        try await harness.ledger.entitlements(player).statuses["remove_ads"]
    }

    /// The reproduction, in both orders: refunding either purchase leaves ad removal
    /// owned while the other still pays for it; refunding both takes it away.
    @Test(arguments: StoreKind.allCases, [false, true])
    func refundingOneOfTwoProductsKeepsTheSharedEntitlement(kind: StoreKind, packFirst: Bool) async throws {
        let harness = try await LedgerHarness(kind)
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        let pack = harness.testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        for purchase in packFirst ? [pack, ads] : [ads, pack] {
            #expect(try await harness.ledger.fulfill(purchase).name == "granted")
        }
        let paidBy = try await harness.ledger.entitlements("p1").paidBy["remove_ads"] ?? []
        #expect(Set(paidBy) == [ads.key, pack.key])
        let (first, second) = packFirst ? (pack, ads) : (ads, pack)
        harness.clock.advance(seconds: 60)
        let refund = try await harness.ledger.applyRevocation(Self.event("r1", first, .fullRefund, at: harness.clock.now()))
        #expect(refund.record?.disposition == .applied)
        #expect(refund.record?.effect.contains(GrantLine(kind: .entitlement, id: "remove_ads", quantity: 0)) == true)
        await #expect(try Self.status(harness) == .owned, "the other purchase still pays for it")
        await #expect(try harness.ledger.entitlements("p1").paidBy["remove_ads"] == [second.key])
        let kept = try await harness.ledger.player("p1").events.filter { $0.kind == .entitlementKept }
        #expect(kept.count == 1 && kept[0].detail.contains("\(second.key)"), "the hand-over is logged")
        await #expect(try !harness.ledger.adsAllowed("p1", consent: true))
        harness.clock.advance(seconds: 60)
        let last = try await harness.ledger.applyRevocation(Self.event("r2", second, .fullRefund, at: harness.clock.now()))
        #expect(last.record?.effect.contains(GrantLine(kind: .entitlement, id: "remove_ads", quantity: -1)) == true)
        await #expect(try Self.status(harness) == .notOwned)
        await #expect(try harness.balance("p1", "gems") == 0)
        await #expect(try harness.ledger.adsAllowed("p1", consent: true))
    }

    /// A restore after one refund gives nothing back and needs to: the entitlement never left.
    @Test(arguments: StoreKind.allCases)
    func aRestoreAfterOneRefundFindsTheEntitlementStillOwned(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        let pack = harness.testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        _ = try await harness.ledger.fulfill(ads)
        _ = try await harness.ledger.fulfill(pack)
        harness.clock.advance(seconds: 60)
        _ = try await harness.ledger.applyRevocation(Self.event("r1", ads, .fullRefund, at: harness.clock.now()))
        let report = try await harness.ledger.restore(
            playerID: "p1", query: .answered(store: .test, transactions: [pack]))
        #expect(report.outcomes[pack.key]?.name == "alreadyFulfilled")
        await #expect(try Self.status(harness) == .owned)
    }

    /// A reversal of the first refund brings the entitlement back even after the second
    /// purchase was refunded too; versions rise with every change.
    @Test(arguments: StoreKind.allCases)
    func aReversalResumesThePaymentAndVersionsRise(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        let pack = harness.testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        _ = try await harness.ledger.fulfill(ads)
        _ = try await harness.ledger.fulfill(pack)
        var versions = await [try harness.ledger.entitlements("p1").version ?? 0]
        for (index, step) in [(ads, RevocationKind.fullRefund), (pack, .fullRefund), (ads, .refundReversed)].enumerated() {
            harness.clock.advance(seconds: 60)
            _ = try await harness.ledger.applyRevocation(Self.event("e\(index)", step.0, step.1, at: harness.clock.now()))
            await versions.append(try harness.ledger.entitlements("p1").version ?? 0)
        }
        #expect(versions == versions.sorted() && Set(versions).count == versions.count, "\(versions)")
        await #expect(try Self.status(harness) == .owned)
        await #expect(try harness.ledger.entitlements("p1").paidBy["remove_ads"] == [ads.key])
        await #expect(try harness.balance("p1", "gems") == 0, "the pack's refund stands")
    }

    /// A transfer moves only the transferred purchase's payment: the old owner keeps what
    /// their other purchase pays for.
    @Test(arguments: StoreKind.allCases)
    func aTransferMovesOnlyThatPurchasesPayment(kind: StoreKind) async throws {
        var configuration = LedgerConfiguration.sandbox
        configuration.ownershipTransfer = .nonConsumablesOnRestore
        let clock = ManualClock()
        let platform = TestStore(clock: clock)
        // The harness owns the store (for PostgreSQL, its schema): it must outlive the test.
        let harness = try await LedgerHarness(kind)
        defer { withExtendedLifetime(harness) {} }
        let ledger = try Ledger(
            catalog: try LedgerHarness.sampleCatalog(), store: harness.ledger.store,
            verifier: platform.verifier, finisher: platform, clock: clock, configuration: configuration)
        let ads = platform.purchase(storeProductID: "test.remove_ads", playerID: "alice")
        let pack = platform.purchase(storeProductID: "test.founders_pack", playerID: "alice")
        _ = try await ledger.fulfill(ads)
        _ = try await ledger.fulfill(pack)
        let report = try await ledger.restore(playerID: "bob", query: .answered(store: .test, transactions: [pack]))
        #expect(report.transferred == [pack.key])
        await #expect(try ledger.entitlements("alice").statuses["remove_ads"] == .owned)
        await #expect(try ledger.entitlements("alice").paidBy["remove_ads"] == [ads.key])
        await #expect(try ledger.entitlements("bob").paidBy["remove_ads"] == [pack.key])
    }

    /// A purchase recorded before schema 5 left out an entitlement the player already owned;
    /// it is taken to pay for what its catalog product grants.
    @Test(arguments: StoreKind.allCases)
    func aPurchaseWrittenBeforeSchema5StillPaysForWhatItsProductGrants(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        _ = try await harness.ledger.fulfill(ads)
        let now = harness.clock.now()
        // The pack as the previous release recorded it: its grants omit the entitlement.
        let legacy = TransactionRecord(
            key: TransactionKey(store: .test, transactionID: "old-pack"), playerID: "p1", productID: "founders_pack",
            storeProductID: "test.founders_pack", productKind: .nonConsumable, quantity: 1, environment: .sandbox,
            purchaseDate: now, fulfilledAt: now, catalogVersion: "old",
            grants: [GrantLine(kind: .currency, id: "gems", quantity: 1000)], finishedAt: now, entitlementsListed: false)
        try await harness.ledger.store.write { writer throws(LedgerError) in try writer.insertTransaction(legacy) }
        harness.clock.advance(seconds: 60)
        _ = try await harness.ledger.applyRevocation(Self.event("r1", ads, .fullRefund, at: harness.clock.now()))
        await #expect(try Self.status(harness) == .owned)
        await #expect(try harness.ledger.entitlements("p1").paidBy["remove_ads"] == [legacy.key])
    }

    /// Owning an entitlement through one product is not owning another that grants more:
    /// the Founder's Pack still sells its gems to a player who bought Remove Ads, while Remove
    /// Ads, which grants nothing else, is owned through the pack.
    @Test(arguments: StoreKind.allCases)
    func eligibilityKnowsWhichProductIsOwned(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        _ = try await harness.ledger.fulfill(ads)
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "founders_pack") == .eligible)
        let pack = harness.testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        _ = try await harness.ledger.fulfill(pack)
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "founders_pack") == .alreadyOwned)
        harness.clock.advance(seconds: 60)
        _ = try await harness.ledger.applyRevocation(Self.event("r1", pack, .fullRefund, at: harness.clock.now()))
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "founders_pack") == .eligible)
        _ = try await harness.ledger.applyRevocation(Self.event("r2", ads, .fullRefund, at: harness.clock.now()))
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "remove_ads") == .eligible)
        let second = harness.testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        _ = try await harness.ledger.fulfill(second)
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "remove_ads") == .alreadyOwned)
    }
}
