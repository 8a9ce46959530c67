import FulfillmentLedger

/// Why a transaction happened: a purchase by the user, or an automatic renewal.
///
/// Open: a value Apple adds later is kept raw, never lost.
public struct TransactionReason: OpenStringEnumeration {
    /// Apple's name for the value.
    public let rawValue: String

    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Bought by the user (including upgrades and offer redemptions).
    public static let purchase = TransactionReason(rawValue: "PURCHASE")
    /// An automatic subscription renewal.
    public static let renewal = TransactionReason(rawValue: "RENEWAL")
}
