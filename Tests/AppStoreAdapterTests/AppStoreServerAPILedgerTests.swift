import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// The ledger's ports on the App Store Server API: fulfil from a transaction ID alone, finish on
/// Apple's server; Apple answered by a fake transport from the simulated App Store's state.
@Suite struct AppStoreServerAPILedgerTests {
    static let gems = "com.kibblestreet.td.gems.small"

    static func ledger(_ fixture: ServerAPIFixture, _ transport: any HTTPTransport) throws -> Ledger {
        let client = try fixture.client(transport, retryPolicy: HTTPRetryPolicy(retryCountMax: 1))
        var configuration = LedgerConfiguration.sandbox
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        return try Ledger(
            catalog: try CatalogLoader.load(path: AppStoreLedgerTests.Setup.catalogPath), store: InMemoryLedgerStore(),
            verifier: AppStoreServerTransactionVerifier(client: client), finisher: AppStoreServerFinisher(client: client),
            clock: fixture.clock, configuration: configuration)
    }

    @Test func aTransactionIDAloneIsFetchedVerifiedGrantedOnceAndFinishedOnTheServer() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        let ledger = try Self.ledger(fixture, api)
        let purchase = try fixture.simulator.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
        let submission = AppStoreServerTransactionVerifier.submission(
            transactionID: purchase.transactionID, storeProductID: Self.gems, playerID: "p1")
        let outcome = try await ledger.fulfill(submission)
        #expect(outcome.name == "granted" && outcome.receipt?.finished == true)
        await #expect(try ledger.player("p1").balances == ["gems": 100])
        #expect(try await ledger.fulfill(submission).name == "alreadyFulfilled")
        #expect(api.finishedTransactionIDs == [purchase.transactionID])
        #expect(api.refusedTokenCount == 0)
        // Another player, or a product the purchase is not, gets nothing.
        #expect(
            try await ledger.fulfill(
                AppStoreServerTransactionVerifier.submission(
                    transactionID: purchase.transactionID, storeProductID: Self.gems, playerID: "p2")
            ).rejection?.reason == .accountMismatch)
    }

    @Test func aSubmissionWithBothAnIDAndAJWSMustAgreeWithApple() async throws {
        let fixture = try ServerAPIFixture()
        let ledger = try Self.ledger(fixture, fixture.simulatedAPI())
        let token = AppAccountToken.forPlayer("p1")
        let first = try fixture.simulator.purchase(productID: Self.gems, appAccountToken: token)
        let second = try fixture.simulator.purchase(productID: Self.gems, appAccountToken: token)
        let mismatched = AppStoreServerTransactionVerifier.submission(
            transactionID: first.transactionID, storeProductID: Self.gems, playerID: "p1", jws: second.jws)
        let refused = try await ledger.fulfill(mismatched)
        #expect(refused.rejection?.reason == .unverified)
        #expect(refused.rejection?.message.contains("transactionId") == true)
        let matching = AppStoreServerTransactionVerifier.submission(
            transactionID: second.transactionID, storeProductID: Self.gems, playerID: "p1", jws: second.jws)
        #expect(try await ledger.fulfill(matching).name == "granted")
    }

    @Test func anUnknownIDIsRefusedAndAnOutageLeavesNoVerdict() async throws {
        let fixture = try ServerAPIFixture()
        let ledger = try Self.ledger(fixture, fixture.simulatedAPI())
        let unknown = AppStoreServerTransactionVerifier.submission(
            transactionID: "2000000999999999", storeProductID: Self.gems, playerID: "p1")
        #expect(try await ledger.fulfill(unknown).rejection?.reason == .unverified)

        let outage = fixture.simulatedAPI()
        // The client retries once (`retryCountMax: 1`): two 503s outlast it.
        for _ in 0..<2 { outage.answerNext(ServerAPIFixture.appleError(503, 5_000_001, "Try again.")) }
        let down = try Self.ledger(fixture, outage)
        let purchase = try fixture.simulator.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
        await #expect {
            _ = try await down.fulfill(
                AppStoreServerTransactionVerifier.submission(
                    transactionID: purchase.transactionID, storeProductID: Self.gems, playerID: "p1"))
        } throws: { error in
            guard case .verifierUnavailable = error as? LedgerError else { return false }
            return true
        }
    }

    @Test func theServerFinisherMayRepeatAndARefusedFinishStaysPending() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        let finisher = AppStoreServerFinisher(client: try fixture.client(api))
        let purchase = try fixture.simulator.purchase(productID: Self.gems)
        func request(_ id: String) -> FinishRequest {
            FinishRequest(
                key: TransactionKey(store: .appStore, transactionID: id), storeProductID: Self.gems, playerID: "p1",
                productKind: .consumable)
        }
        try await finisher.finish(request(purchase.transactionID))
        try await finisher.finish(request(purchase.transactionID))
        #expect(api.finishedTransactionIDs == [purchase.transactionID, purchase.transactionID])
        await #expect {
            try await finisher.finish(request("2000000999999999"))
        } throws: { error in
            guard case .finishFailed(let detail) = error as? LedgerError else { return false }
            return detail.contains("4040010")
        }
    }
}
