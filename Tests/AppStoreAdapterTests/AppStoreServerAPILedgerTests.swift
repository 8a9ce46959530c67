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

    /// Answers Get Transaction Info from the simulator (404 for unknown IDs) and Finish
    /// Transaction with 200, or 503 for everything while `down` is set.
    static func simulatedAPI(_ simulator: AppStoreSimulator, down: Bool = false) -> RecordingTransport {
        RecordingTransport { request in
            guard !down else { return .success(ServerAPIFixture.appleError(503, 5_000_001, "Try again.")) }
            let path = request.url?.path ?? ""
            if request.httpMethod == "POST", path.hasSuffix("/finish") { return .success(HTTPResponse(statusCode: 200)) }
            let id = String(path.dropFirst("/inApps/v1/transactions/".count))
            guard simulator.transaction(id) != nil, let signed = try? simulator.signedTransaction(id) else {
                return .success(ServerAPIFixture.appleError(404, 4_040_010, "Transaction id not found."))
            }
            return .success(ServerAPIFixture.json(["signedTransactionInfo": signed.jws]))
        }
    }

    static func ledger(_ fixture: ServerAPIFixture, _ transport: RecordingTransport) throws -> Ledger {
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
        let transport = Self.simulatedAPI(fixture.simulator)
        let ledger = try Self.ledger(fixture, transport)
        let purchase = try fixture.simulator.purchase(productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"))
        let submission = AppStoreServerTransactionVerifier.submission(
            transactionID: purchase.transactionID, storeProductID: Self.gems, playerID: "p1")
        let outcome = try await ledger.fulfill(submission)
        #expect(outcome.name == "granted" && outcome.receipt?.finished == true)
        await #expect(try ledger.player("p1").balances == ["gems": 100])
        #expect(try await ledger.fulfill(submission).name == "alreadyFulfilled")
        let finishes = transport.requests.filter { $0.httpMethod == "POST" }.map { $0.url?.path ?? "" }
        #expect(finishes == ["/inApps/v1/transactions/\(purchase.transactionID)/finish"])
        // Another player, or a product the purchase is not, gets nothing.
        #expect(
            try await ledger.fulfill(
                AppStoreServerTransactionVerifier.submission(
                    transactionID: purchase.transactionID, storeProductID: Self.gems, playerID: "p2")
            ).rejection?.reason == .accountMismatch)
    }

    @Test func aSubmissionWithBothAnIDAndAJWSMustAgreeWithApple() async throws {
        let fixture = try ServerAPIFixture()
        let ledger = try Self.ledger(fixture, Self.simulatedAPI(fixture.simulator))
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
        let ledger = try Self.ledger(fixture, Self.simulatedAPI(fixture.simulator))
        let unknown = AppStoreServerTransactionVerifier.submission(
            transactionID: "2000000999999999", storeProductID: Self.gems, playerID: "p1")
        #expect(try await ledger.fulfill(unknown).rejection?.reason == .unverified)

        let down = try Self.ledger(fixture, Self.simulatedAPI(fixture.simulator, down: true))
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
        let transport = RecordingTransport(responses: [
            HTTPResponse(statusCode: 200), HTTPResponse(statusCode: 200),
            ServerAPIFixture.appleError(404, 4_040_010, "Transaction id not found."),
        ])
        let finisher = AppStoreServerFinisher(client: try fixture.client(transport))
        let request = FinishRequest(
            key: TransactionKey(store: .appStore, transactionID: "2000000000000007"), storeProductID: Self.gems,
            playerID: "p1", productKind: .consumable)
        try await finisher.finish(request)
        try await finisher.finish(request)
        await #expect {
            try await finisher.finish(request)
        } throws: { error in
            guard case .finishFailed(let detail) = error as? LedgerError else { return false }
            return detail.contains("4040010")
        }
        #expect(transport.requests.count == 3)
    }
}
