/// A transaction the App Store Server API returned, verified by `SignedDataVerifier`: the JWS
/// as Apple signed it, and its decoded payload.
public struct AppStoreSignedTransaction: Sendable {
    /// The compact JWS (`signedTransactionInfo`, or one of `signedTransactions`).
    public let jws: String
    /// The verified payload.
    public let transaction: JWSTransactionDecodedPayload
}
