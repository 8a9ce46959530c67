import Foundation
import FulfillmentLedger

/// Verifies test-store payloads. It vouches only for the test store and never for
/// production, so a production ledger refuses it and no "direct success" path exists.
public struct TestStoreVerifier: TransactionVerifier {
    /// Largest payload accepted, in bytes.
    public static let payloadByteCountMax = 16 * 1024

    /// Sandbox only.
    public var supportedEnvironments: Set<StoreEnvironment> { [.sandbox] }

    /// Creates the verifier.
    public init() {}

    /// Decodes the payload and treats `verified: false` as a bad signature.
    public func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        guard submission.payload.utf8.count <= Self.payloadByteCountMax else {
            return .invalid(reason: "payload is larger than \(Self.payloadByteCountMax) bytes")
        }
        let document: TestStoreTransaction
        do {
            document = try TestStoreTransaction.decoder().decode(
                TestStoreTransaction.self, from: Data(submission.payload.utf8))
        } catch {
            return .invalid(reason: "payload is not a test-store transaction: \(error)")
        }
        guard document.verified else { return .invalid(reason: "the test store's signature check failed") }
        guard document.store == .test else {
            return .invalid(reason: "the test store verifier vouches only for the test store, not \(document.store)")
        }
        guard document.environment != .production else {
            return .invalid(reason: "the test store never vouches for production transactions")
        }
        return .verified(
            VerifiedTransaction(
                store: document.store, transactionID: document.transactionID,
                originalTransactionID: document.originalTransactionID, storeProductID: document.storeProductID,
                accountBinding: document.accountBinding, quantity: document.quantity, state: document.state,
                environment: document.environment, purchaseDate: document.purchaseDate,
                revocationDate: document.revocationDate))
    }
}
