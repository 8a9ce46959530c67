import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Refunds, partial refunds, revokes and reversals: exactly once, in the right direction.
@Suite struct RefundTests {
    static func event(
        _ id: String, _ purchase: TransactionSubmission, _ kind: RevocationKind, at date: Date, quantity: Int? = nil
    ) -> RevocationEvent {
        RevocationEvent(
            eventID: id, store: purchase.store, transactionID: purchase.transactionID, kind: kind, quantity: quantity,
            eventDate: date)
    }

    @Test(arguments: StoreKind.allCases)
    func refundOfRemoveAdsAllowsAdsAgain(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        await #expect(try harness.ledger.adsAllowed("p1", consent: true))
        _ = try await harness.ledger.fulfill(purchase)
        let owned = try await harness.ledger.entitlements("p1")
        #expect(owned.statuses["remove_ads"] == .owned)
        await #expect(try !harness.ledger.adsAllowed("p1", consent: true))

        harness.clock.advance(seconds: 60)
        let outcome = try await harness.ledger.applyRevocation(Self.event("r1", purchase, .fullRefund, at: harness.clock.now()))
        #expect(outcome.record?.disposition == .applied)
        #expect(outcome.record?.effect == [GrantLine(kind: .entitlement, id: "remove_ads", quantity: -1)])
        let after = try await harness.ledger.entitlements("p1")
        #expect(after.statuses["remove_ads"] == .notOwned)
        #expect((after.version ?? 0) > (owned.version ?? 0))
        await #expect(try harness.ledger.adsAllowed("p1", consent: true))
        await #expect(try !harness.ledger.adsAllowed("p1", consent: false), "no consent, no ads")
        // A late replay of the purchase does not grant again.
        #expect(try await harness.ledger.fulfill(purchase).name == "alreadyFulfilled")
        await #expect(try harness.ledger.entitlements("p1").statuses["remove_ads"] == .notOwned)
    }

    @Test(arguments: StoreKind.allCases)
    func revokeRemovesTheEntitlementToo(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        _ = try await harness.ledger.fulfill(purchase)
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.applyRevocation(Self.event("fs-1", purchase, .revoke, at: harness.clock.now()))
        await #expect(try harness.ledger.entitlements("p1").owned.isEmpty)
        await #expect(try harness.ledger.adsAllowed("p1", consent: true))
    }

    @Test(arguments: StoreKind.allCases)
    func clawbackOfSpentCurrencyLeavesDebtThatTheNextPurchaseRepays(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let first = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await harness.ledger.fulfill(first)
        _ = try await harness.ledger.apply(.spend(80, of: "gems", player: "p1", operationID: "buy-tower"))
        harness.clock.advance(seconds: 1)
        let outcome = try await harness.ledger.applyRevocation(Self.event("r1", first, .fullRefund, at: harness.clock.now()))
        #expect(outcome.record?.effect == [GrantLine(kind: .currency, id: "gems", quantity: -100)])
        #expect(outcome.record?.debtCreated == ["gems": 80])
        var snapshot = try await harness.ledger.player("p1")
        #expect(snapshot.balances["gems"] == -80)
        #expect(snapshot.debts == ["gems": 80])
        #expect(snapshot.events.contains { $0.kind == .debtRecorded })
        guard case .rejected(.insufficientFunds, _) = try await harness.ledger.apply(.spend(1, of: "gems", player: "p1", operationID: "x"))
        else {
            Issue.record("a player in debt cannot spend")
            return
        }
        let second = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await harness.ledger.fulfill(second)
        snapshot = try await harness.ledger.player("p1")
        #expect(snapshot.balances["gems"] == 20, "the next purchase repays the 80 owed first")
        #expect(snapshot.debts.isEmpty)
        #expect(snapshot.events.contains { $0.kind == .debtRepaid })
    }

    @Test(arguments: StoreKind.allCases)
    func floorPolicyStopsAtZeroAndFlagsThePlayer(kind: StoreKind) async throws {
        let text = try String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8).replacingOccurrences(
            of: #""rewards": { "currencies": [{ "id": "coins", "amount": 5000 }] }"#,
            with: #""rewards": { "currencies": [{ "id": "coins", "amount": 5000 }] }, "refundPolicy": "floor""#)
        let harness = try await LedgerHarness(kind)
        harness.ledger.replaceCatalog(try CatalogLoader.parse(Array(text.utf8)))
        let purchase = harness.testStore.purchase(storeProductID: "test.coins_pack", playerID: "p1")
        _ = try await harness.ledger.fulfill(purchase)
        _ = try await harness.ledger.apply(.spend(4_000, of: "coins", player: "p1", operationID: "s1"))
        harness.clock.advance(seconds: 1)
        let outcome = try await harness.ledger.applyRevocation(Self.event("r1", purchase, .fullRefund, at: harness.clock.now()))
        #expect(outcome.record?.effect == [GrantLine(kind: .currency, id: "coins", quantity: -1_000)])
        let snapshot = try await harness.ledger.player("p1")
        #expect(snapshot.balances["coins"] == nil, "floored at zero")
        #expect(snapshot.flags.map(\.flag) == ["refundFloored"])
    }

    @Test(arguments: StoreKind.allCases)
    func reversalGivesBackExactlyWhatWasTaken(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let bundle = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        _ = try await harness.ledger.fulfill(bundle)
        let consumeToken = EconomyOperation(
            operationID: "revive-1", playerID: "p1", direction: .spend, asset: .item, assetID: "revive_token", amount: 1)
        _ = try await harness.ledger.apply(consumeToken)
        _ = try await harness.ledger.apply(.spend(450, of: "gems", player: "p1", operationID: "s1"))
        let beforeRefund = try await harness.progress("p1")
        harness.clock.advance(seconds: 1)
        let refund = try await harness.ledger.applyRevocation(Self.event("r1", bundle, .fullRefund, at: harness.clock.now()))
        #expect(Set(refund.record?.effect ?? []) == [
            GrantLine(kind: .currency, id: "gems", quantity: -500), GrantLine(kind: .currency, id: "coins", quantity: -10_000),
            GrantLine(kind: .item, id: "frost_tower", quantity: -1), GrantLine(kind: .item, id: "revive_token", quantity: -2),
        ])
        let refunded = try await harness.progress("p1")
        #expect(refunded.balances == ["gems": -450])
        #expect(refunded.inventory.isEmpty)
        harness.clock.advance(seconds: 1)
        let reversal = try await harness.ledger.applyRevocation(Self.event("v1", bundle, .refundReversed, at: harness.clock.now()))
        #expect(reversal.record?.disposition == .applied)
        await #expect(try harness.progress("p1") == beforeRefund)
        // A stale refund (older than the reversal) does not revoke again.
        let stale = try await harness.ledger.applyRevocation(
            Self.event("r0", bundle, .fullRefund, at: harness.clock.now().addingTimeInterval(-5)))
        #expect(stale.record?.disposition == .stale)
        await #expect(try harness.progress("p1") == beforeRefund)
    }

    @Test(arguments: StoreKind.allCases)
    func partialRefundsTakeUnitsUntilNothingIsLeft(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1", quantity: 3)
        _ = try await harness.ledger.fulfill(purchase)
        harness.clock.advance(seconds: 1)
        let first = try await harness.ledger.applyRevocation(
            Self.event("p-1", purchase, .partialRefund, at: harness.clock.now(), quantity: 1))
        #expect(first.record?.effect == [GrantLine(kind: .currency, id: "gems", quantity: -100)])
        harness.clock.advance(seconds: 1)
        let second = try await harness.ledger.applyRevocation(
            Self.event("p-2", purchase, .partialRefund, at: harness.clock.now(), quantity: 5))
        #expect(second.record?.effect == [GrantLine(kind: .currency, id: "gems", quantity: -200)])
        harness.clock.advance(seconds: 1)
        let third = try await harness.ledger.applyRevocation(Self.event("f-1", purchase, .fullRefund, at: harness.clock.now()))
        #expect(third.record?.disposition == .noChange)
        await #expect(try harness.balance("p1", "gems") == 0)
        let state = try await harness.ledger.store.read { reader throws(LedgerError) in try reader.refundState(purchase.key) }
        #expect(state?.status == .refunded && state?.refundedQuantity == 3)
        let invalid = try await harness.ledger.applyRevocation(Self.event("p-3", purchase, .partialRefund, at: harness.clock.now()))
        #expect(invalid.rejection?.reason == .invalidQuantity)
    }

    /// A consumable may grant an entitlement (the catalog linter only warns): a partial refund
    /// takes back its units' currency and leaves the entitlement, which goes only with the last unit.
    @Test(arguments: StoreKind.allCases)
    func aPartialRefundKeepsAConsumablesEntitlementUntilTheLastUnit(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        var json = String(decoding: try CatalogLoader.readBytes(path: LedgerHarness.catalogPath), as: UTF8.self)
        let lastProduct = try #require(json.range(of: "\n    }\n  ]", options: .backwards))
        json.replaceSubrange(
            lastProduct,
            with: """

                },
                {
                  "id": "ads_pass", "name": "Ads Pass", "kind": "consumable",
                  "storeProductIDs": { "test": "test.ads_pass" },
                  "rewards": { "currencies": [{ "id": "gems", "amount": 10 }], "entitlements": ["remove_ads"] }
                }
              ]
            """)
        _ = harness.ledger.replaceCatalog(try CatalogLoader.parse(Array(json.utf8)))
        let purchase = harness.testStore.purchase(storeProductID: "test.ads_pass", playerID: "p1", quantity: 2)
        #expect(try await harness.ledger.fulfill(purchase).name == "granted")
        harness.clock.advance(seconds: 1)
        let partial = try await harness.ledger.applyRevocation(
            Self.event("r1", purchase, .partialRefund, at: harness.clock.now(), quantity: 1))
        #expect(partial.record?.effect == [GrantLine(kind: .currency, id: "gems", quantity: -10)])
        await #expect(try harness.ledger.entitlements("p1").statuses["remove_ads"] == .owned)
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.applyRevocation(
            Self.event("r2", purchase, .partialRefund, at: harness.clock.now(), quantity: 1))
        await #expect(try harness.ledger.entitlements("p1").statuses["remove_ads"] == .notOwned)
        await #expect(try harness.balance("p1", "gems") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func eachEventAppliesOnceByID(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_large", playerID: "p1")
        _ = try await harness.ledger.fulfill(purchase)
        harness.clock.advance(seconds: 1)
        let event = Self.event("r1", purchase, .fullRefund, at: harness.clock.now())
        guard case .recorded = try await harness.ledger.applyRevocation(event) else {
            Issue.record("first delivery should be recorded")
            return
        }
        guard case .alreadyRecorded = try await harness.ledger.applyRevocation(event) else {
            Issue.record("second delivery should be alreadyRecorded")
            return
        }
        await #expect(try harness.balance("p1", "gems") == 0)
        var changed = event
        changed.kind = .revoke
        await #expect(try harness.ledger.applyRevocation(changed).rejection?.reason == .conflictEvent)
        var unsupported = Self.event("odd", purchase, "priceIncreaseConsent", at: harness.clock.now())
        unsupported.quantity = nil
        await #expect(try harness.ledger.applyRevocation(unsupported).rejection?.reason == .unsupportedEvent)
        let history = try await harness.ledger.store.read { reader throws(LedgerError) in
            try reader.events(transaction: purchase.key, limit: 100)
        }
        #expect(history.map(\.kind) == [.purchaseGranted, .refundApplied])
    }

    @Test(arguments: StoreKind.allCases)
    func refundUsesTheLedgerRecordNotTheCurrentCatalog(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await harness.ledger.fulfill(purchase)
        let text = try String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)
            .replacingOccurrences(of: #""amount": 100 }"#, with: #""amount": 999 }"#)
        harness.ledger.replaceCatalog(try CatalogLoader.parse(Array(text.utf8)))
        harness.clock.advance(seconds: 1)
        let outcome = try await harness.ledger.applyRevocation(Self.event("r1", purchase, .fullRefund, at: harness.clock.now()))
        #expect(outcome.record?.effect == [GrantLine(kind: .currency, id: "gems", quantity: -100)])
        await #expect(try harness.balance("p1", "gems") == 0)
    }
}
