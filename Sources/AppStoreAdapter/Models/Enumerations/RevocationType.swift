import FulfillmentLedger

/// What kind of refund or revocation applies to a transaction (`revocationType`), present only
/// once Apple refunded or revoked it.
///
/// Open: a value Apple adds later (StoreKit already knows an organization's assignment
/// revocation) is kept raw, never lost.
public struct RevocationType: OpenStringEnumeration {
    /// Apple's name for the value.
    public let rawValue: String

    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The whole transaction was refunded.
    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
    /// Part of the transaction was refunded; `revocationPercentage` says how much of it.
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
    /// A family member's access through Family Sharing ended.
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")
}
