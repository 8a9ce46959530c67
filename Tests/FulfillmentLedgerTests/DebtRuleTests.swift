import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Debt is owed by the player, not by a product: a grant that repaid debt records how much,
/// and a refund of it restores that debt whatever the refunded product's policy.
@Suite struct DebtRuleTests {
    /// The sample catalog with `gems_small` refunded under the floor policy.
    static func floorCatalog() throws -> ProductCatalog {
        let text = try String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)
        let floored = text.replacingOccurrences(
            of: #""rewards": { "currencies": [{ "id": "gems", "amount": 100 }] }"#,
            with: #""rewards": { "currencies": [{ "id": "gems", "amount": 100 }] }, "refundPolicy": "floor""#)
        precondition(floored != text, "the sample catalog changed; update this test")
        return try CatalogLoader.parse(Array(floored.utf8))
    }

    static func harness(_ kind: StoreKind) async throws -> LedgerHarness {
        let harness = try await LedgerHarness(kind)
        harness.ledger.replaceCatalog(try floorCatalog())
        return harness
    }

    static func refund(_ id: String, _ purchase: TransactionSubmission, at date: Date, quantity: Int? = nil)
        -> RevocationEvent
    {
        RevocationEvent(
            eventID: id, store: purchase.store, transactionID: purchase.transactionID,
            kind: quantity == nil ? .fullRefund : .partialRefund, quantity: quantity, eventDate: date)
    }

    /// The issue's reproduction: floor-policy packs bought after a clawback repay the debt;
    /// refunding them all brings the debt back instead of erasing it for free.
    @Test(arguments: StoreKind.allCases)
    func floorPacksThatRepaidDebtRestoreItWhenRefunded(kind: StoreKind) async throws {
        let harness = try await Self.harness(kind)
        let large = harness.testStore.purchase(storeProductID: "test.gems_large", playerID: "p1")
        _ = try await harness.ledger.fulfill(large)
        _ = try await harness.ledger.apply(.spend(1200, of: "gems", player: "p1", operationID: "spent"))
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.applyRevocation(Self.refund("r-large", large, at: harness.clock.now()))
        await #expect(try harness.ledger.player("p1").debts == ["gems": 1200])
        var packs: [TransactionSubmission] = []
        for _ in 0..<12 {
            let pack = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
            let record = try #require(try await harness.ledger.fulfill(pack).receipt?.record)
            #expect(record.grants == [GrantLine(kind: .currency, id: "gems", quantity: 100, debtRepaid: 100)])
            packs.append(pack)
        }
        await #expect(try harness.ledger.player("p1").debts.isEmpty)
        for (index, pack) in packs.enumerated() {
            harness.clock.advance(seconds: 1)
            let outcome = try await harness.ledger.applyRevocation(Self.refund("r\(index)", pack, at: harness.clock.now()))
            #expect(outcome.record?.effect == [GrantLine(kind: .currency, id: "gems", quantity: -100)])
        }
        let player = try await harness.ledger.player("p1")
        #expect(player.balances == ["gems": -1200] && player.debts == ["gems": 1200])
        #expect(player.flags.isEmpty, "nothing was floored: every pack only paid debt")
    }

    /// A floor refund takes what is left of the non-debt part, restores the debt part in full,
    /// and the flag says exactly what could not be taken back.
    @Test(arguments: StoreKind.allCases)
    func aFloorRefundRestoresTheDebtPartAndFlagsOnlyTheSpentRest(kind: StoreKind) async throws {
        let harness = try await Self.harness(kind)
        let large = harness.testStore.purchase(storeProductID: "test.gems_large", playerID: "p1")
        _ = try await harness.ledger.fulfill(large)
        _ = try await harness.ledger.apply(.spend(1150, of: "gems", player: "p1", operationID: "s1"))
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.applyRevocation(Self.refund("r-large", large, at: harness.clock.now()))
        await #expect(try harness.balance("p1", "gems") == -1150)
        _ = try await harness.ledger.apply(.grant(1100, of: "gems", player: "p1", operationID: "g1"))
        // Debt 50; the pack repays it and leaves 50; 20 of those are spent.
        let pack = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await harness.ledger.fulfill(pack)
        _ = try await harness.ledger.apply(.spend(20, of: "gems", player: "p1", operationID: "s2"))
        harness.clock.advance(seconds: 1)
        let outcome = try await harness.ledger.applyRevocation(Self.refund("r-pack", pack, at: harness.clock.now()))
        #expect(outcome.record?.effect == [GrantLine(kind: .currency, id: "gems", quantity: -80)])
        await #expect(try harness.balance("p1", "gems") == -50, "the 50 of debt the pack repaid is owed again")
        let flag = try await #require(try harness.ledger.player("p1").flags.first)
        #expect(flag.flag == "refundFloored" && flag.detail.contains("took 80 of 100 gems; the other 20"))
    }

    /// A partial refund restores the repaid debt in step with the units refunded.
    @Test(arguments: StoreKind.allCases)
    func partialRefundsRestoreTheRepaidDebtInStep(kind: StoreKind) async throws {
        let harness = try await Self.harness(kind)
        let large = harness.testStore.purchase(storeProductID: "test.gems_large", playerID: "p1")
        _ = try await harness.ledger.fulfill(large)
        _ = try await harness.ledger.apply(.spend(1200, of: "gems", player: "p1", operationID: "s1"))
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.applyRevocation(Self.refund("r-large", large, at: harness.clock.now()))
        _ = try await harness.ledger.apply(.grant(1000, of: "gems", player: "p1", operationID: "g1"))
        // Debt 200; three packs (300 gems) repay it and leave 100, which is spent.
        let packs = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1", quantity: 3)
        let record = try #require(try await harness.ledger.fulfill(packs).receipt?.record)
        #expect(record.grants.first?.debtRepaid == 200)
        _ = try await harness.ledger.apply(.spend(100, of: "gems", player: "p1", operationID: "s2"))
        var balances: [Int64] = []
        for unit in 1...3 {
            harness.clock.advance(seconds: 1)
            _ = try await harness.ledger.applyRevocation(Self.refund("p\(unit)", packs, at: harness.clock.now(), quantity: 1))
            await balances.append(try harness.balance("p1", "gems"))
        }
        // floor(200 x 1/3) = 66, then 133 - 66 = 67, then 200 - 133 = 67: 200 in all.
        #expect(balances == [-66, -133, -200])
    }

    /// Reset Game keeps debt: resetting must not erase what a clawback left owed.
    @Test(arguments: StoreKind.allCases)
    func aResetKeepsDebtAndClearsTheRest(kind: StoreKind) async throws {
        let harness = try await Self.harness(kind)
        let gems = harness.testStore.purchase(storeProductID: "test.gems_large", playerID: "p1")
        let coins = harness.testStore.purchase(storeProductID: "test.coins_pack", playerID: "p1")
        _ = try await harness.ledger.fulfill(gems)
        _ = try await harness.ledger.fulfill(coins)
        _ = try await harness.ledger.apply(.spend(1000, of: "gems", player: "p1", operationID: "s1"))
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.applyRevocation(Self.refund("r1", gems, at: harness.clock.now()))
        try await harness.ledger.resetPlayer("p1")
        await #expect(try harness.ledger.player("p1").balances == ["gems": -1000])
    }

    /// Decided: after refund, Reset Game, then reversal, the reset wins for progress. The
    /// reversal cancels the debt the refund left and gives entitlements back, but not the
    /// currency or items the reset has since cleared.
    @Test(arguments: StoreKind.allCases)
    func aReversalAfterAResetGivesBackOnlyDebtAndEntitlements(kind: StoreKind) async throws {
        let harness = try await Self.harness(kind)
        let gems = harness.testStore.purchase(storeProductID: "test.gems_large", playerID: "p1")
        let bundle = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        let pack = harness.testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        for purchase in [gems, bundle, pack] { _ = try await harness.ledger.fulfill(purchase) }
        _ = try await harness.ledger.apply(.spend(2600, of: "gems", player: "p1", operationID: "s1"))
        // 2,700 gems were granted and 2,600 spent: refunding the large chest leaves 1,100 owed.
        harness.clock.advance(seconds: 1)
        for (id, purchase) in [("r-gems", gems), ("r-bundle", bundle), ("r-pack", pack)] {
            _ = try await harness.ledger.applyRevocation(Self.refund(id, purchase, at: harness.clock.now()))
        }
        harness.clock.advance(seconds: 1)
        try await harness.ledger.resetPlayer("p1")
        harness.clock.advance(seconds: 1)
        for (id, purchase) in [("v-gems", gems), ("v-bundle", bundle), ("v-pack", pack)] {
            let reversal = RevocationEvent(
                eventID: id, store: .test, transactionID: purchase.transactionID, kind: .refundReversed,
                eventDate: harness.clock.now())
            _ = try await harness.ledger.applyRevocation(reversal)
        }
        let player = try await harness.ledger.player("p1")
        #expect(player.balances.isEmpty, "the debt the refunds left is cancelled, nothing more: \(player.balances)")
        #expect(player.inventory.isEmpty, "the reset cleared the bundle's items")
        #expect(player.entitlements.map(\.entitlementID) == ["remove_ads"])
        #expect(player.events.contains { $0.kind == .reversalAfterReset })
    }

    /// A refund that cannot take back items the player used flags them too.
    @Test(arguments: StoreKind.allCases)
    func itemShortfallsAreFlagged(kind: StoreKind) async throws {
        let harness = try await Self.harness(kind)
        let bundle = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        _ = try await harness.ledger.fulfill(bundle)
        _ = try await harness.ledger.apply(
            EconomyOperation(
                operationID: "use", playerID: "p1", direction: .spend, asset: .item, assetID: "revive_token", amount: 2))
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.applyRevocation(Self.refund("r1", bundle, at: harness.clock.now()))
        let flags = try await harness.ledger.player("p1").flags
        #expect(flags.contains { $0.detail.contains("took 1 of 3 revive_token") })
    }
}
