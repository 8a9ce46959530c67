/// Whether the customer answered a price increase (`priceIncreaseStatus`).
///
/// Open: a number Apple adds later is kept raw, never lost.
public struct PriceIncreaseStatus: OpenIntegerEnumeration {
    /// Apple's number for the value.
    public let rawValue: Int

    /// Wraps a number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The customer has not answered a price increase that needs consent.
    public static let customerHasNotResponded = PriceIncreaseStatus(rawValue: 0)
    /// The customer consented, or was notified of an increase needing no consent.
    public static let customerConsentedOrWasNotified = PriceIncreaseStatus(rawValue: 1)
}
