/// Port: checks a store's proof for a submitted transaction.
///
/// Adapters: the App Store (StoreKit 2 JWS), Google Play (purchase token), and the test
/// store shipped in `FulfillmentLedgerTesting`.
public protocol TransactionVerifier: Sendable {
    /// The store environments this verifier can vouch for. A ledger configured for
    /// production refuses, at construction, a verifier that cannot vouch for production.
    var supportedEnvironments: Set<StoreEnvironment> { get }

    /// Verifies a submission. Returns `.invalid` for a bad proof; throws only when no
    /// verdict could be reached (`LedgerError.verifierUnavailable`).
    func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult
}
