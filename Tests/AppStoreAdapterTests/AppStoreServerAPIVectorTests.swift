import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// The client on Apple's own signed test data, read in place from the vectors folder.
@Suite(.enabled(if: AppleVectors.available, "Apple's test vectors are absent from ../shared/vectors/apple"))
struct AppStoreServerAPIVectorTests {
    static func client(answering responses: [HTTPResponse]) throws -> (AppStoreServerAPIClient, RecordingTransport) {
        let transport = RecordingTransport(responses: responses)
        let client = try AppStoreServerAPIClient(
            key: try AppStoreAPISigningKey(pem: try AppStoreAPITestKey().privateKeyPEM), keyID: "k", issuerID: "i",
            verifier: try AppleVectors.mockVerifier(.sandbox), baseURL: URL(string: "https://api.test")!,
            transport: transport, clock: ManualClock(), sleep: { _ in })
        return (client, transport)
    }

    @Test func applesSignedTransactionIsAcceptedAndAWrongBundleIsRefused() async throws {
        let signed = try AppleVectors.jws("mock_signed_data/transactionInfo")
        let transactionID = "2000000000000001"
        // Apple's mock transaction carries no transactionId, so it comes through a history page.
        let (client, _) = try Self.client(answering: [
            ServerAPIFixture.json(["signedTransactions": [signed], "revision": "r", "hasMore": false])
        ])
        let page = try await client.transactionHistoryPage(transactionID: transactionID)
        #expect(page.transactions.map(\.jws) == [signed])
        #expect(page.transactions.first?.transaction.bundleId == "com.example")

        let wrongBundle = try AppleVectors.jws("mock_signed_data/wrongBundleId")
        let (refusing, _) = try Self.client(answering: [
            ServerAPIFixture.json(["signedTransactions": [wrongBundle], "revision": "r", "hasMore": false])
        ])
        await #expect {
            _ = try await refusing.transactionHistoryPage(transactionID: transactionID)
        } throws: { error in
            guard case .verification(let verification) = error as? AppStoreServerAPIError else { return false }
            return verification.status == .invalidAppIdentifier
        }
    }
}
