import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `AppStoreReconciler` anchored by the player's `appTransactionId` (Apple's `anyTransactionId`,
/// API 1.20+): the player's Apple Account is found even when the ledger holds none of its
/// purchases, a purchase made outside the app is reported unbound until Set App Account Token
/// binds it, and an endpoint that refuses the ID is a typed error.
@Suite struct AppStoreAppTransactionReconcileTests {
    static let account = "705000000000001"

    @Test func anAppTransactionIDFindsThePlayersPurchasesWithNoneInTheLedger() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        let ledger = try AppStoreReconcilerTests.ledger(fixture)
        let token = AppAccountToken.forPlayer("p1")
        // Bought in the app, never reported by the client; and an offer code redeemed in the
        // App Store, which carries no appAccountToken. Both on p1's Apple Account.
        let lost = try fixture.simulator.purchase(
            productID: AppStoreReconcilerTests.gems, appAccountToken: token, appTransactionID: Self.account)
        let redeemed = try fixture.simulator.purchase(
            productID: AppStoreReconcilerTests.gemsLarge, appTransactionID: Self.account)
        // Another account's purchase is never listed.
        _ = try fixture.simulator.purchase(
            productID: AppStoreReconcilerTests.gems, appAccountToken: AppAccountToken.forPlayer("p2"),
            appTransactionID: "705000000000002")
        let reconciler = AppStoreReconciler(client: try fixture.client(api), ledger: ledger)

        // Without an anchor there is nothing to ask Apple about.
        let noAnchor = await #expect(throws: LedgerError.self) { try await reconciler.reconcile(playerID: "p1") }
        #expect("\(String(describing: noAnchor))".contains("appTransactionId"))

        let report = try await reconciler.reconcile(playerID: "p1", anchorTransactionID: Self.account)
        #expect(report.anchorTransactionID == Self.account && report.isComplete)
        #expect(report.transactionsRead == 2, "the account's two purchases, nobody else's")
        #expect(report.missingGrants.map(\.transactionID) == [lost.transactionID])
        #expect(report.appTransactionIDs == [Self.account])
        #expect(report.unattributedCount == 1 && report.unbound.map(\.transactionID) == [redeemed.transactionID])
        #expect(report.unbound.first?.storeProductID == AppStoreReconcilerTests.gemsLarge)

        // Applying grants the purchase bound to p1, never the unbound one.
        let applied = try await reconciler.reconcile(playerID: "p1", anchorTransactionID: Self.account, apply: true)
        #expect(applied.applied.count == 1)
        #expect(try await ledger.player("p1").balances == ["gems": 100])

        // Support learns the offer code was p1's: Set App Account Token binds it, and the next
        // reconcile lists and grants it.
        let client = try fixture.client(api)
        try await client.setAppAccountToken(originalTransactionID: redeemed.transactionID, appAccountToken: token)
        let bound = try await reconciler.reconcile(playerID: "p1", anchorTransactionID: Self.account, apply: true)
        #expect(bound.unbound.isEmpty && bound.missingGrants.map(\.transactionID) == [redeemed.transactionID])
        #expect(try await ledger.player("p1").balances == ["gems": 1_300])
        let clean = try await reconciler.reconcile(playerID: "p1", anchorTransactionID: Self.account)
        #expect(clean.isClean && clean.unbound.isEmpty)

        // Anchored by a transaction of the account instead, Apple answers for the same account.
        let byTransaction = try await reconciler.reconcile(playerID: "p1")
        #expect(byTransaction.isClean && byTransaction.appTransactionIDs == [Self.account])
    }

    @Test func anUnknownOrRefusedAppTransactionIDIsATypedErrorAndChangesNothing() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        let ledger = try AppStoreReconcilerTests.ledger(fixture)
        let reconciler = AppStoreReconciler(client: try fixture.client(api), ledger: ledger)
        let unknown = await #expect(throws: LedgerError.self) {
            try await reconciler.reconcile(playerID: "p1", anchorTransactionID: "705999999999999")
        }
        guard case .invalidArgument(let message)? = unknown else {
            Issue.record("expected invalidArgument, got \(String(describing: unknown))")
            return
        }
        #expect(message.contains("705999999999999"))
        // An endpoint that does not take an appTransactionId answers 4000048.
        _ = try fixture.simulator.purchase(productID: AppStoreReconcilerTests.gems, appTransactionID: Self.account)
        api.answerNext(
            HTTPResponse(
                statusCode: 400,
                body: Data(#"{"errorCode":4000048,"errorMessage":"Invalid request. App transactions aren't supported by this endpoint."}"#.utf8)))
        let refused = await #expect(throws: LedgerError.self) {
            try await reconciler.reconcile(playerID: "p1", anchorTransactionID: Self.account)
        }
        guard case .invalidArgument(let text)? = refused else {
            Issue.record("expected invalidArgument, got \(String(describing: refused))")
            return
        }
        #expect(text.contains("does not take the appTransactionId") && text.contains("4000048"), "\(text)")
        #expect(try await ledger.player("p1").balances.isEmpty)
    }
}
