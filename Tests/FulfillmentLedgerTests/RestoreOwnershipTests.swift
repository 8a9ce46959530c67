import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing
import TestStoreAdapter

/// Restore, ownership across accounts, unknown entitlement state and the finish deadline.
@Suite struct RestoreOwnershipTests {
    @Test(arguments: StoreKind.allCases)
    func restoreRecoversOwnershipOnANewDeviceAndNeverGrantsTwice(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        let gems = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await harness.ledger.fulfill(ads)
        // The gems purchase never reached the server (app killed); the store still lists it.
        for _ in 0..<2 {
            let report = try await harness.ledger.restore(playerID: "p1", query: .answered(store: .test, transactions: [ads, gems]))
            #expect(report.errors.isEmpty && report.queryError == nil)
            #expect(report.outcomes[ads.key]?.name == "alreadyFulfilled")
        }
        await #expect(try harness.balance("p1", "gems") == 100, "granted once over two restores")
        await #expect(try harness.ledger.entitlements("p1").statuses["remove_ads"] == .owned)
    }

    @Test(arguments: StoreKind.allCases)
    func emptyAndFailedQueriesAreDifferentAndRevokeNothing(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        _ = try await harness.ledger.fulfill(ads)
        let failed = try await harness.ledger.restore(
            playerID: "p1", query: .failed(.transactionSourceUnavailable("store unreachable")))
        #expect(failed.queryError == .transactionSourceUnavailable("store unreachable"))
        let empty = try await harness.ledger.restore(playerID: "p1", query: .answered(store: .test, transactions: []))
        #expect(empty.queryError == nil && empty.revoked.isEmpty)
        await #expect(try harness.ledger.entitlements("p1").statuses["remove_ads"] == .owned)
        let authoritative = try await harness.ledger.restore(playerID: "p1", query: .answered(store: .test, transactions: [], authoritativeAsOf: harness.clock.now()))
        #expect(authoritative.revoked == [ads.key])
        await #expect(try harness.ledger.entitlements("p1").statuses["remove_ads"] == .notOwned)
    }

    /// An authoritative list whose reconciliation failed part-way proves nothing about what it
    /// lacks: the restore revokes nothing and says why, so a retry can finish the job.
    @Test(arguments: StoreKind.allCases)
    func anAuthoritativeRestoreWithAFailedTransactionRevokesNothing(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        _ = try await harness.ledger.fulfill(ads)
        let gems = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        harness.clock.advance(seconds: 1)
        harness.testStore.failNext(.verify)
        let report = try await harness.ledger.restore(
            playerID: "p1", query: .answered(store: .test, transactions: [gems], authoritativeAsOf: harness.clock.now()))
        #expect(report.errors[gems.key] != nil)
        #expect(report.revoked.isEmpty)
        #expect(report.revocationSkipped != nil)
        await #expect(try harness.ledger.entitlements("p1").statuses["remove_ads"] == .owned)
    }

    @Test(arguments: StoreKind.allCases)
    func crossAccountReplayIsRejectedUnlessTransferIsAllowed(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let ads = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "alice")
        let gems = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "alice")
        _ = try await harness.ledger.fulfill(ads)
        _ = try await harness.ledger.fulfill(gems)
        var replay = ads
        replay.playerID = "bob"
        #expect(try await harness.ledger.fulfill(replay).rejection?.reason == .ownedByAnotherPlayer)
        let refused = try await harness.ledger.restore(playerID: "bob", query: .answered(store: .test, transactions: [ads]))
        #expect(refused.outcomes[ads.key]?.rejection?.reason == .ownedByAnotherPlayer)
        #expect(refused.transferred.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func transferPolicyMovesNonConsumablesOnlyOnRestore(kind: StoreKind) async throws {
        var configuration = LedgerConfiguration.sandbox
        configuration.ownershipTransfer = .nonConsumablesOnRestore
        let clock = ManualClock()
        let platform = TestStore(clock: clock)
        // On the engine under test; the harness lives to the end, since a PostgreSQL harness drops
        // its scratch schema when it goes.
        let backing = try await LedgerHarness(kind)
        let store = backing.ledger.store
        let ledger = try Ledger(
            catalog: try LedgerHarness.sampleCatalog(), store: store, verifier: platform.verifier, finisher: platform,
            clock: clock, configuration: configuration)
        let ads = platform.purchase(storeProductID: "test.remove_ads", playerID: "alice")
        let gems = platform.purchase(storeProductID: "test.gems_small", playerID: "alice")
        _ = try await ledger.fulfill(ads)
        _ = try await ledger.fulfill(gems)
        var direct = ads
        direct.playerID = "bob"
        #expect(try await ledger.fulfill(direct).rejection?.reason == .ownedByAnotherPlayer, "only an explicit restore moves")
        let report = try await ledger.restore(playerID: "bob", query: .answered(store: .test, transactions: [ads, gems]))
        #expect(report.transferred == [ads.key])
        #expect(report.outcomes[gems.key]?.rejection?.reason == .ownedByAnotherPlayer, "consumables never move")
        await #expect(try ledger.entitlements("bob").statuses["remove_ads"] == .owned)
        await #expect(try ledger.entitlements("alice").statuses["remove_ads"] == .notOwned)
        await #expect(try ledger.player("alice").events.first?.kind == .entitlementTransferred)
        await #expect(try ledger.player("bob").events.first?.kind == .entitlementTransferred)
        #expect(try await ledger.fulfill(direct).name == "alreadyFulfilled", "the record now belongs to bob")
        withExtendedLifetime(backing) {}
    }

    /// A store whose reads fail, as an unreadable ledger would.
    final class UnreadableStore: LedgerStore {
        static func open(_: Void) async -> UnreadableStore { UnreadableStore() }

        func read<T: Sendable>(
            _ body: @escaping @Sendable (LedgerReader) throws(LedgerError) -> T
        ) async throws(LedgerError) -> T {
            throw LedgerError.notALedger(location: "ledger.sqlite", detail: "file is not a database")
        }

        func write<T: Sendable>(
            _ durability: WriteDurability, _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
        ) async throws(LedgerError) -> T {
            throw LedgerError.notALedger(location: "ledger.sqlite", detail: "file is not a database")
        }
    }

    @Test func unreadableLedgerIsUnknownNeverEmpty() async throws {
        let catalogText = try String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8).replacingOccurrences(
            of: #""entitlements": [\#n    {"#,
            with: #""entitlements": [\#n    { "id": "vip_lounge" },\#n    {"#)
        let ledger = try Ledger(
            catalog: try CatalogLoader.parse(Array(catalogText.utf8)), store: UnreadableStore(),
            verifier: TestStoreVerifier(), finisher: TestStore(), configuration: .sandbox)
        await #expect(throws: LedgerError.self) { _ = try await ledger.entitlements("p1") }
        let snapshot = try await ledger.entitlementSnapshot("p1")
        #expect(!snapshot.isKnown && snapshot.version == nil)
        #expect(snapshot.statuses == ["remove_ads": .unknown, "vip_club": .unknown, "vip_plus": .unknown, "vip_lounge": .unknown])
        #expect(ledger.treatsAsOwned("remove_ads", in: snapshot), "remove_ads is declared failOpen")
        #expect(!ledger.treatsAsOwned("vip_lounge", in: snapshot), "fail closed by default")
        await #expect(try !ledger.adsAllowed("p1", consent: true), "never show ads while the state is unknown")
    }

    @Test(arguments: StoreKind.allCases)
    func overdueFinishesAreListedAfterTheWarningAge(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        harness.testStore.failNext(.finish)
        _ = try await harness.ledger.fulfill(purchase)
        harness.clock.advance(seconds: 23 * 3600)
        await #expect(try harness.ledger.overdueFinishes().isEmpty)
        harness.clock.advance(seconds: 2 * 3600)
        await #expect(try harness.ledger.overdueFinishes().map(\.key) == [purchase.key])
        await #expect(try harness.ledger.overdueFinishes(olderThanSeconds: 30 * 3600).isEmpty)
    }
}

/// Refunds and transfers never take away what another purchase pays for.
@Suite struct EntitlementOwnershipEdgeTests {
    static func refund(_ purchase: TransactionSubmission, id: String, at date: Date) -> RevocationEvent {
        RevocationEvent(
            eventID: id, store: purchase.store, transactionID: purchase.transactionID, kind: .fullRefund, eventDate: date)
    }

    @Test(arguments: StoreKind.allCases)
    func refundingOneOfTwoPaidPurchasesKeepsTheEntitlement(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let first = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        let second = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        _ = try await harness.ledger.fulfill(first)
        _ = try await harness.ledger.fulfill(second)
        harness.clock.advance(seconds: 1)
        let outcome = try await harness.ledger.applyRevocation(Self.refund(first, id: "r1", at: harness.clock.now()))
        #expect(outcome.record?.effect == [GrantLine(kind: .entitlement, id: "remove_ads", quantity: 0)])
        let owned = try await harness.ledger.entitlements("p1").owned
        #expect(owned.map(\.entitlementID) == ["remove_ads"])
        #expect(owned.first?.source == second.key, "ownership moves to the purchase still paid for")
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.applyRevocation(Self.refund(second, id: "r2", at: harness.clock.now()))
        await #expect(try harness.ledger.entitlements("p1").owned.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func aRefundedPurchaseIsNeverTransferred(kind: StoreKind) async throws {
        var configuration = LedgerConfiguration.sandbox
        configuration.ownershipTransfer = .nonConsumablesOnRestore
        let clock = ManualClock()
        let platform = TestStore(clock: clock)
        // The harness lives to the end: it closes its store when it goes.
        let backing = try await LedgerHarness(kind)
        let store = backing.ledger.store
        let ledger = try Ledger(
            catalog: try LedgerHarness.sampleCatalog(), store: store, verifier: platform.verifier, finisher: platform,
            clock: clock, configuration: configuration)
        let ads = platform.purchase(storeProductID: "test.remove_ads", playerID: "alice")
        _ = try await ledger.fulfill(ads)
        clock.advance(seconds: 1)
        _ = try await ledger.applyRevocation(Self.refund(ads, id: "r1", at: clock.now()))
        let report = try await ledger.restore(playerID: "bob", query: .answered(store: .test, transactions: [ads]))
        #expect(report.transferred.isEmpty)
        await #expect(try ledger.entitlements("bob").owned.isEmpty)
        let again = try await ledger.restore(playerID: "alice", query: .answered(store: .test, transactions: [], authoritativeAsOf: clock.now()))
        #expect(again.revoked.isEmpty, "an already refunded purchase needs no second revoke")
        withExtendedLifetime(backing) {}
    }
}
