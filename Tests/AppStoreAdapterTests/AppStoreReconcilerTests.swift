import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `AppStoreReconciler` against the simulated App Store Server API: what the ledger lacks,
/// what it has not refunded, what Apple does not know; applied once; restore from history.
@Suite struct AppStoreReconcilerTests {
    static let gems = "com.kibblestreet.td.gems.small"
    static let gemsLarge = "com.kibblestreet.td.gems.large"
    static let removeAds = "com.kibblestreet.td.remove_ads"

    /// A ledger that verifies App Store JWS offline, on the fixture's clock.
    static func ledger(_ fixture: ServerAPIFixture) throws -> Ledger {
        var configuration = LedgerConfiguration.sandbox
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        return try Ledger(
            catalog: try CatalogLoader.load(path: AppStoreLedgerTests.Setup.catalogPath), store: InMemoryLedgerStore(),
            verifier: AppStoreTransactionVerifier(signedDataVerifier: fixture.verifier), finisher: AppStoreFinisher(),
            clock: fixture.clock, configuration: configuration)
    }

    /// Fulfils a signed purchase for `player` from its JWS.
    static func fulfil(_ purchase: SignedAppStoreTransaction, _ player: String, in ledger: Ledger) async throws {
        let submission = try #require(AppStoreTransactionVerifier.submission(jws: purchase.jws, playerID: player))
        #expect(try await ledger.fulfill(submission).name == "granted")
    }

    @Test func reconcileFindsAMissingGrantAndAnUnappliedRefundAndAppliesEachOnce() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        let ledger = try Self.ledger(fixture)
        let token = AppAccountToken.forPlayer("p1")
        let refunded = try fixture.simulator.purchase(productID: Self.gems, appAccountToken: token)
        try await Self.fulfil(refunded, "p1", in: ledger)
        let kept = try fixture.simulator.purchase(productID: Self.removeAds, appAccountToken: token, type: .nonConsumable)
        try await Self.fulfil(kept, "p1", in: ledger)
        // Bought, but the client never reported it; refunded, but the notification was lost.
        let missing = try fixture.simulator.purchase(productID: Self.gemsLarge, appAccountToken: token)
        fixture.clock.advance(seconds: 3_600)
        _ = try fixture.simulator.revoke(transactionID: refunded.transactionID)
        let reconciler = AppStoreReconciler(client: try fixture.client(api), ledger: ledger)

        let report = try await reconciler.reconcile(playerID: "p1")
        #expect(report.isComplete && !report.isClean && !report.didApply)
        #expect(report.missingGrants.map(\.transactionID) == [missing.transactionID])
        #expect(report.unappliedRefunds.map(\.transactionID) == [refunded.transactionID])
        #expect(report.unknownToStore.isEmpty && report.notInCatalog.isEmpty)
        #expect(try await ledger.player("p1").balances == ["gems": 100], "a report changes nothing")

        let applied = try await reconciler.reconcile(playerID: "p1", apply: true)
        #expect(applied.didApply && applied.applied.count == 2)
        #expect(try await ledger.player("p1").balances == ["gems": 1_200])
        let again = try await reconciler.reconcile(playerID: "p1", apply: true)
        #expect(again.isClean && again.applied.isEmpty)
        #expect(try await ledger.player("p1").balances == ["gems": 1_200])

        // The lost notification arrives after all: the refund is not taken a second time.
        let processor = AppStoreNotificationProcessor(signedDataVerifier: fixture.verifier, ledger: ledger)
        _ = try await processor.process(try fixture.simulator.notification(type: .refund, transactionID: refunded.transactionID))
        #expect(try await ledger.player("p1").balances == ["gems": 1_200])
    }

    /// A record Apple's history lacks is reported once the history was read to its end, and
    /// never on a read a page limit cut short.
    @Test func aRecordAppleDoesNotListIsReportedOnlyFromACompleteRead() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        let ledger = try Self.ledger(fixture)
        // Another store of the same app and chain issues the same first transaction ID, here to
        // p1; in the simulated store that ID is p2's, so Apple's history of p1 lacks it.
        let elsewhere = try AppStoreSimulator(
            bundleID: ServerAPIFixture.bundleID, environment: .sandbox, clock: fixture.clock,
            certificateAuthority: fixture.simulator.certificateAuthority)
        _ = try fixture.simulator.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p2"))
        let stranger = try elsewhere.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
        try await Self.fulfil(stranger, "p1", in: ledger)
        var listed: [SignedAppStoreTransaction] = []
        for _ in 0...AppStoreSimulatedServerAPI.pageSize {
            let purchase = try fixture.simulator.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
            try await Self.fulfil(purchase, "p1", in: ledger)
            listed.append(purchase)
        }
        let full = try await AppStoreReconciler(client: try fixture.client(api), ledger: ledger)
            .reconcile(playerID: "p1", anchorTransactionID: listed[0].transactionID)
        #expect(full.isComplete && full.missingGrants.isEmpty && full.unappliedRefunds.isEmpty)
        #expect(full.unknownToStore == [TransactionKey(store: .appStore, transactionID: stranger.transactionID)])
        let cut = try await AppStoreReconciler(client: try fixture.client(api), ledger: ledger, pageCountMax: 1)
            .reconcile(playerID: "p1", anchorTransactionID: listed[0].transactionID)
        #expect(!cut.isComplete && cut.unknownToStore.isEmpty)
        await #expect(throws: LedgerError.self) {
            try await AppStoreReconciler(client: try fixture.client(api), ledger: ledger).reconcile(playerID: "nobody")
        }
    }

    @Test func restoreFromHistoryGrantsWhatThePlayerOwnsAndTakesBackARefundedNonConsumable() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        let ledger = try Self.ledger(fixture)
        let token = AppAccountToken.forPlayer("p1")
        let refunded = try fixture.simulator.purchase(productID: Self.removeAds, appAccountToken: token, type: .nonConsumable)
        try await Self.fulfil(refunded, "p1", in: ledger)
        #expect(try await ledger.entitlements("p1").owned.map(\.entitlementID) == ["remove_ads"])
        let founders = "com.kibblestreet.td.founders_pack"
        let unreported = try fixture.simulator.purchase(productID: founders, appAccountToken: token, type: .nonConsumable)
        fixture.clock.advance(seconds: 60)
        _ = try fixture.simulator.revoke(transactionID: refunded.transactionID)
        fixture.clock.advance(seconds: 60)
        let reconciler = AppStoreReconciler(client: try fixture.client(api), ledger: ledger)

        let report = try await reconciler.restore(playerID: "p1", anchorTransactionID: unreported.transactionID)
        #expect(report.queryError == nil)
        #expect(report.outcomes[TransactionKey(store: .appStore, transactionID: unreported.transactionID)]?.name == "granted")
        #expect(report.revoked == [TransactionKey(store: .appStore, transactionID: refunded.transactionID)])
        // The founder's pack pays for remove_ads now; the refunded purchase no longer does.
        let snapshot = try await ledger.entitlements("p1")
        #expect(snapshot.paidBy["remove_ads"] == [TransactionKey(store: .appStore, transactionID: unreported.transactionID)])
        #expect(try await ledger.player("p1").balances == ["gems": 1_000])

        // Apple down: the query fails and nothing changes.
        for _ in 0...2 { api.answerNext(HTTPResponse(statusCode: 503, body: Data())) }
        let failed = try await reconciler.restore(playerID: "p1", anchorTransactionID: unreported.transactionID)
        #expect(failed.queryError != nil && failed.outcomes.isEmpty && failed.revoked.isEmpty)
    }
}
