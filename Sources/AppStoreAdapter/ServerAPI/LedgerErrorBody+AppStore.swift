import FulfillmentLedger

extension LedgerErrorBody {
    /// The error body of a failed App Store Server API call, with `retryable` and, for a rate
    /// limit, `retryAfter`.
    public init(_ error: AppStoreServerAPIError) {
        self.init(code: error.code, name: "appStoreAPI.\(error.kindName)", message: error.description, retryable: error.isRetryable)
        if case .rateLimited(let date?, _) = error { self.error.retryAfter = date.ledgerISO8601 }
    }

    /// The error body of a signed payload that did not verify: the status's code and name, and
    /// the payload error's code as `detailCode` when a value in it was refused.
    public init(_ error: AppStoreVerificationError) {
        self.init(
            code: error.status.code, name: "appStore.\(error.status.rawValue)", message: error.detail,
            retryable: error.status == .retryableVerificationFailure)
        self.error.detailCode = error.payloadError?.code
    }
}
