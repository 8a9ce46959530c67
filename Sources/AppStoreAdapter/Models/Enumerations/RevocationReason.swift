/// Why Apple refunded or revoked a transaction (`revocationReason`).
///
/// Open: a number Apple adds later is kept raw, never lost.
public struct RevocationReason: OpenIntegerEnumeration {
    /// Apple's number for the value.
    public let rawValue: Int

    /// Wraps a number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Refunded for another reason, such as an accidental purchase.
    public static let refundedForOtherReason = RevocationReason(rawValue: 0)
    /// Refunded because of an actual or perceived issue in the app.
    public static let refundedDueToIssue = RevocationReason(rawValue: 1)
}
