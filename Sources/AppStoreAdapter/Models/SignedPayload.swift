/// A payload Apple signs as a JWS, with the date its certificate chain is checked at.
protocol SignedPayload: Decodable {
    /// When the payload was signed, or nil when it does not say (then "now" is used).
    var effectiveSigningDate: AppStoreTimestamp? { get }
    /// The JSON field `effectiveSigningDate` comes from, for error messages.
    static var signingDateField: String { get }
}

extension SignedPayload {
    /// Transactions, renewal information and notifications are signed with a `signedDate`.
    static var signingDateField: String { "signedDate" }
}
