/// Whether a subscription renews automatically (`autoRenewStatus`).
///
/// Open: a number Apple adds later is kept raw, never lost.
public struct AutoRenewStatus: OpenIntegerEnumeration {
    /// Apple's number for the value.
    public let rawValue: Int

    /// Wraps a number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Auto-renew is off.
    public static let off = AutoRenewStatus(rawValue: 0)
    /// Auto-renew is on.
    public static let on = AutoRenewStatus(rawValue: 1)
}
