/// What the store says about a transaction's payment.
///
/// A raw-value struct so a state a store adds later is kept and treated as "not purchased".
public struct PurchaseState: OpenStringEnumeration {
    /// The state's name.
    public let rawValue: String

    /// Wraps a state name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Paid; the only state that grants.
    public static let purchased = PurchaseState(rawValue: "purchased")
    /// Awaiting payment (for example Ask to Buy or a cash payment); grants nothing yet.
    public static let pending = PurchaseState(rawValue: "pending")
    /// The payment did not happen or was cancelled; never grants.
    public static let cancelled = PurchaseState(rawValue: "cancelled")
}
