/// What Get Transaction Info found for a transaction ID.
public enum AppStoreTransactionLookup: Sendable {
    /// Apple knows the transaction in the client's environment; its JWS verified.
    case found(AppStoreSignedTransaction)
    /// HTTP 404: Apple does not know the ID in this environment (4040010 for a transaction of
    /// the other environment, too). Never grant for it; the client does not ask the other host.
    case notFound(AppStoreAPIErrorResponse)
}
