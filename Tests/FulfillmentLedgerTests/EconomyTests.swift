import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// The game's own spends and grants share the balances purchases write.
@Suite struct EconomyTests {
    @Test(arguments: StoreKind.allCases)
    func spendBeyondTheBalanceFailsCleanly(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        _ = try await harness.ledger.fulfill(harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1"))
        let before = try await harness.progress("p1")
        let outcome = try await harness.ledger.apply(.spend(101, of: "gems", player: "p1", operationID: "op-1"))
        guard case .rejected(let reason, _) = outcome else {
            Issue.record("expected a rejection, got \(outcome)")
            return
        }
        #expect(reason == .insufficientFunds)
        await #expect(try harness.progress("p1") == before)
        // The same ID may be used again once the spend is affordable: nothing was stored.
        guard case .applied(let record) = try await harness.ledger.apply(.spend(40, of: "gems", player: "p1", operationID: "op-1"))
        else {
            Issue.record("the affordable spend should apply")
            return
        }
        #expect(record.balanceAfter == 60)
    }

    @Test(arguments: StoreKind.allCases)
    func operationsAreIdempotentByID(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let grant = EconomyOperation.grant(250, of: "coins", player: "p1", operationID: "quest-7")
        guard case .applied = try await harness.ledger.apply(grant) else {
            Issue.record("first grant should apply")
            return
        }
        guard case .alreadyApplied(let record) = try await harness.ledger.apply(grant) else {
            Issue.record("second grant should be alreadyApplied")
            return
        }
        #expect(record.balanceAfter == 250)
        await #expect(try harness.balance("p1", "coins") == 250)
        let conflicting = EconomyOperation.grant(999, of: "coins", player: "p1", operationID: "quest-7")
        guard case .rejected(.conflictOperation, _) = try await harness.ledger.apply(conflicting) else {
            Issue.record("reusing an ID with other parameters must be rejected")
            return
        }
        await #expect(try harness.balance("p1", "coins") == 250)
    }

    @Test(arguments: StoreKind.allCases)
    func invalidOperationsAreRejected(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let cases: [(EconomyOperation, OperationRejectionReason)] = [
            (.grant(0, of: "coins", player: "p1", operationID: "a"), .invalidAmount),
            (.grant(-5, of: "coins", player: "p1", operationID: "b"), .invalidAmount),
            (.grant(5, of: "diamonds", player: "p1", operationID: "c"), .unknownAsset),
            (
                EconomyOperation(
                    operationID: "d", playerID: "p1", direction: .grant, asset: .entitlement, assetID: "remove_ads",
                    amount: 1), .unknownAsset
            ),
            (
                EconomyOperation(
                    operationID: "e", playerID: "p1", direction: .spend, asset: .item, assetID: "frost_tower", amount: 1),
                .insufficientFunds
            ),
        ]
        for (operation, expected) in cases {
            guard case .rejected(let reason, _) = try await harness.ledger.apply(operation) else {
                Issue.record("\(operation) should be rejected")
                continue
            }
            #expect(reason == expected)
        }
        await #expect(try harness.progress("p1") == Progress(balances: [:], inventory: [:], entitlements: [], transactionCount: 0))
    }

    /// A retried operation applied before a catalog reload answers `alreadyApplied`, even
    /// though its asset has since left the catalog.
    @Test(arguments: StoreKind.allCases)
    func aReplayIsAnsweredBeforeAnyCatalogCheck(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        _ = try await harness.ledger.fulfill(harness.testStore.purchase(storeProductID: "test.coins_pack", playerID: "p1"))
        let spend = EconomyOperation.spend(100, of: "coins", player: "p1", operationID: "buy-tower")
        guard case .applied = try await harness.ledger.apply(spend) else {
            Issue.record("the first spend applies")
            return
        }
        let text = try String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)
        let withoutCoins = text.replacingOccurrences(
            of: #"    { "id": "coins", "name": "Coins", "description": "Soft currency, earned by defending the street." }"#,
            with: #"    { "id": "stars", "name": "Stars", "description": "Unused." }"#
        ).replacingOccurrences(of: #""id": "coins""#, with: #""id": "stars""#)
        harness.ledger.replaceCatalog(try CatalogLoader.parse(Array(withoutCoins.utf8)))
        guard case .alreadyApplied = try await harness.ledger.apply(spend) else {
            Issue.record("a replay is alreadyApplied before any catalog check")
            return
        }
        let fresh = EconomyOperation.spend(100, of: "coins", player: "p1", operationID: "another")
        guard case .rejected(.unknownAsset, _) = try await harness.ledger.apply(fresh) else {
            Issue.record("a new operation on an asset the catalog lost is refused")
            return
        }
    }

    /// An invalid player ID is refused, never reported `unknown` (a fail-open entitlement
    /// would then read as owned on a healthy ledger).
    @Test func invalidPlayerIDsAreRefusedNotUnknown() async throws {
        let harness = try await LedgerHarness(.memory)
        for playerID in ["", String(repeating: "p", count: 257)] {
            await #expect(throws: LedgerError.self) { try await harness.ledger.entitlementSnapshot(playerID) }
            await #expect(throws: LedgerError.self) { try await harness.ledger.adsAllowed(playerID, consent: true) }
        }
        await #expect(try harness.ledger.entitlementSnapshot("p1").statuses["remove_ads"] == .notOwned)
    }
}
