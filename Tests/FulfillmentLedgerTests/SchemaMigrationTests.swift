import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteLedgerStore
import Testing
import TestStoreAdapter

/// A ledger written by the release before purchase keys (schema 4) opens, migrates in place
/// and loses nothing: every record, balance, item, entitlement, event, pending finish and
/// refund is still there, and a replay of every old transaction is `alreadyFulfilled`.
///
/// `Fixtures/ledger-schema-4.sqlite` was made by that release's `ledger` CLI with the sample
/// catalog of the time: `fulfill` of six test-store purchases (two with
/// `--fault afterCommit=error`, so their finishes are pending) and a pending payment, then
/// `revoke` of a full refund, a partial refund of 1 of 3 units, a refund of a transaction
/// not yet fulfilled (`v4-later`), and a reversal of the full refund.
@Suite struct SchemaMigrationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ledger-schema-4.sqlite")

    /// The old purchases: transaction ID, store product ID, player, quantity, purchase date.
    static let purchases: [(id: String, storeProductID: String, player: String, quantity: Int, date: String)] = [
        ("v4-gems-1", "test.gems_small", "alice", 1, "2026-11-02T10:00:00Z"),
        ("v4-gems-3", "test.gems_large", "alice", 3, "2026-11-02T11:00:00Z"),
        ("v4-ads", "test.remove_ads", "alice", 1, "2026-11-03T10:00:00Z"),
        ("v4-bundle", "test.starter_bundle", "bob", 1, "2026-11-03T11:00:00Z"),
        ("v4-weekly", "test.weekly_offer", "bob", 1, "2026-11-04T11:00:00Z"),
        ("v4-coins", "test.coins_pack", "carol", 1, "2026-11-04T12:00:00Z"),
    ]

    /// A copy of the fixture in a fresh folder, and a ledger over it (which migrates it).
    static func migratedLedger() throws -> (ledger: Ledger, clock: ManualClock, path: String) {
        let path = try LedgerHarness.temporaryDirectory().appendingPathComponent("old.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        let clock = ManualClock(start: TestStoreTransaction.parseDate("2026-11-10T00:00:00Z")!)
        let harness = try LedgerHarness(
            store: try SQLiteLedgerStore(path: path), clock: clock, testStore: TestStore(clock: clock), databasePath: path)
        return (harness.ledger, clock, path)
    }

    static func submission(_ purchase: (id: String, storeProductID: String, player: String, quantity: Int, date: String))
        -> TransactionSubmission
    {
        TestStoreTransaction(
            transactionID: purchase.id, storeProductID: purchase.storeProductID, playerID: purchase.player,
            quantity: purchase.quantity, purchaseDate: TestStoreTransaction.parseDate(purchase.date)!
        ).submission()
    }

    @Test func everyRowOfASchema4LedgerSurvivesTheMigration() async throws {
        let (ledger, _, _) = try Self.migratedLedger()
        let alice = try await ledger.player("alice")
        #expect(alice.balances == ["gems": 2500])
        #expect(alice.entitlements.map(\.entitlementID) == ["remove_ads"])
        #expect(Set(alice.history.map(\.key.transactionID)) == ["v4-gems-1", "v4-gems-3", "v4-ads"])
        let bob = try await ledger.player("bob")
        #expect(bob.balances == ["gems": 800, "coins": 10000])
        #expect(bob.inventory == ["frost_tower": 1, "revive_token": 3, "xp_booster": 2])
        await #expect(try ledger.player("carol").balances == ["coins": 5000])
        for purchase in Self.purchases {
            let key = TransactionKey(store: .test, transactionID: purchase.id)
            let record = try await ledger.store.read { reader throws(LedgerError) in try reader.transaction(key) }
            #expect(record?.playerID == purchase.player && record?.quantity == purchase.quantity, "\(purchase.id)")
            #expect(record?.storeTransactionID == purchase.id, "a delivery's ID is its key before migration 5")
        }
        let pending = try await ledger.store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 10) }
        #expect(Set(pending.map(\.key.transactionID)) == ["v4-weekly", "v4-coins"])
        var events: [LedgerEvent] = []
        for player in ["alice", "bob", "carol"] {
            await events += try ledger.store.read { reader throws(LedgerError) in try reader.events(playerID: player, limit: 100) }
        }
        #expect(events.count == 13, "every event of the old log")
        let (reversedState, partial, refund, early) = try await ledger.store.read { reader throws(LedgerError) in
            (
                try reader.refundState(TransactionKey(store: .test, transactionID: "v4-gems-1")),
                try reader.refundState(TransactionKey(store: .test, transactionID: "v4-gems-3")),
                try reader.revocationEvent(id: "v4-refund-1"), try reader.revocationEvent(id: "v4-early")
            )
        }
        #expect(reversedState?.status == .active)
        #expect(partial?.status == .partiallyRefunded && partial?.refundedQuantity == 1)
        #expect(refund?.reversed == true && refund?.purchase == TransactionKey(store: .test, transactionID: "v4-gems-1"))
        #expect(early?.disposition == .awaitingPurchase)
        await ledger.store.close()
    }

    @Test func everyOldTransactionReplaysAsAlreadyFulfilledAndPendingFinishesComplete() async throws {
        let (ledger, _, _) = try Self.migratedLedger()
        for purchase in Self.purchases {
            let outcome = try await ledger.fulfill(Self.submission(purchase))
            #expect(outcome.name == "alreadyFulfilled", "\(purchase.id): \(outcome)")
            #expect(outcome.receipt?.finished == true, "\(purchase.id)")
        }
        let pending = try await ledger.store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 10) }
        #expect(pending.isEmpty)
        await #expect(try ledger.player("alice").balances == ["gems": 2500], "no replay granted anything")
        let bundle = try await ledger.eligibility(playerID: "bob", productID: "starter_bundle")
        guard case .limitReached = bundle else {
            Issue.record("the old starter bundle still counts toward its lifetime limit: \(bundle)")
            return
        }
        await ledger.store.close()
    }

    @Test func aRefundThatWaitedInTheOldLedgerAppliesWhenItsPurchaseArrives() async throws {
        let (ledger, _, _) = try Self.migratedLedger()
        let later = TestStoreTransaction(
            transactionID: "v4-later", storeProductID: "test.gems_small", playerID: "dave",
            purchaseDate: TestStoreTransaction.parseDate("2026-11-05T09:00:00Z")!
        ).submission()
        #expect(try await ledger.fulfill(later).name == "granted")
        await #expect(try ledger.player("dave").balances.isEmpty, "the refund that arrived first took the grant back")
        let early = try await ledger.store.read { reader throws(LedgerError) in try reader.revocationEvent(id: "v4-early") }
        #expect(early?.disposition == .applied)
        await ledger.store.close()
    }
}
