import Foundation
import FulfillmentLedger

/// The ledger's verifier port for App Store purchases reported by transaction ID alone (Unity
/// IAP, StoreKit 1 builds): Get Transaction Info fetches the transaction, `SignedDataVerifier`
/// verifies Apple's JWS, and the facts go through the normal pipeline.
///
/// A submission that also carries the client's JWS (`payload` not empty) must agree with
/// Apple's answer: the JWS must verify offline and name the same transaction, original
/// transaction, product and `appAccountToken`. Apple's answer gives the facts, because it is
/// current (a refund since the purchase shows there, not in the client's older JWS).
public struct AppStoreServerTransactionVerifier: TransactionVerifier {
    /// The App Store Server API client; its environment is the verifier's.
    public let client: AppStoreServerAPIClient

    /// Wraps a client.
    public init(client: AppStoreServerAPIClient) {
        self.client = client
    }

    /// The ledger environment matching the client's.
    public var supportedEnvironments: Set<StoreEnvironment> { [client.environment.storeEnvironment] }

    /// Fetches and verifies `submission.transactionID`. Not found in the client's environment
    /// (a sandbox transaction asked of production, too) is `.invalid`; an API outage, rate limit
    /// or configuration error is `verifierUnavailable`, so the purchase stays pending rather
    /// than refused for a fault of the server's.
    public func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        let lookup: AppStoreTransactionLookup
        do {
            lookup = try await client.transactionInfo(transactionID: submission.transactionID)
        } catch {
            if case .verification(let verification) = error { return .invalid(reason: verification.description) }
            throw LedgerError.verifierUnavailable("App Store Server API: \(error)")
        }
        let fetched: JWSTransactionDecodedPayload
        switch lookup {
        case .notFound(let answer):
            return .invalid(reason: "Apple does not know transaction \(submission.transactionID) in \(client.environment.rawValue): \(answer)")
        case .found(let signed): fetched = signed.transaction
        }
        if !submission.payload.isEmpty, let disagreement = disagreement(of: submission.payload, with: fetched) {
            return .invalid(reason: disagreement)
        }
        guard let facts = AppStoreTransactionVerifier.facts(fetched, defaultEnvironment: client.environment) else {
            return .invalid(reason: "the signed transaction lacks a transactionId or productId")
        }
        return .verified(facts)
    }

    /// Why the client's JWS does not match Apple's answer, or nil when it does.
    private func disagreement(of jws: String, with fetched: JWSTransactionDecodedPayload) -> String? {
        switch client.verifier.verifyTransaction(jws) {
        case .failure(let error): return "the submitted JWS does not verify: \(error.description)"
        case .success(let submitted):
            let fields: [(String, String?, String?)] = [
                ("transactionId", submitted.transactionId, fetched.transactionId),
                ("originalTransactionId", submitted.originalTransactionId, fetched.originalTransactionId),
                ("productId", submitted.productId, fetched.productId),
                ("appAccountToken", submitted.appAccountToken, fetched.appAccountToken),
            ]
            let differing = fields.filter { $0.1 != $0.2 }.map(\.0)
            return differing.isEmpty ? nil : "the submitted JWS and Apple's answer differ in \(differing.joined(separator: ", "))"
        }
    }

    /// The submission for a purchase reported by ID: the client names the transaction and the
    /// product (the pipeline checks the product against Apple's answer); `jws` when it has one.
    public static func submission(
        transactionID: String, storeProductID: String, playerID: String, quantity: Int = 1, jws: String = ""
    ) -> TransactionSubmission {
        TransactionSubmission(
            store: .appStore, transactionID: transactionID, storeProductID: storeProductID, playerID: playerID,
            quantity: quantity, payload: jws)
    }
}
