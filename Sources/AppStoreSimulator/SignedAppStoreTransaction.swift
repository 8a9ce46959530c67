/// A transaction as the simulated App Store hands it out: the signed JWS a client or a
/// notification carries, and the payload it was signed from.
public struct SignedAppStoreTransaction: Sendable, Hashable {
    /// The compact JWS (`signedTransactionInfo`, `Transaction.jwsRepresentation`).
    public var jws: String
    /// The payload that was signed.
    public var payload: AppStoreSimulatedTransaction

    /// Wraps a signed transaction.
    public init(jws: String, payload: AppStoreSimulatedTransaction) {
        self.jws = jws
        self.payload = payload
    }

    /// `transactionId`.
    public var transactionID: String { payload.transactionID }
    /// `originalTransactionId`.
    public var originalTransactionID: String { payload.originalTransactionID }
    /// `productId`.
    public var productID: String { payload.productID }
}
