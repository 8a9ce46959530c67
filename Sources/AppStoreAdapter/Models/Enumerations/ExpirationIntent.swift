/// Why a subscription expired (`expirationIntent`).
///
/// Open: a number Apple adds later is kept raw, never lost.
public struct ExpirationIntent: OpenIntegerEnumeration {
    /// Apple's number for the value.
    public let rawValue: Int

    /// Wraps a number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The customer cancelled.
    public static let customerCancelled = ExpirationIntent(rawValue: 1)
    /// A billing error.
    public static let billingError = ExpirationIntent(rawValue: 2)
    /// The customer did not consent to a price increase.
    public static let customerDidNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)
    /// The product was not available at renewal.
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)
    /// Another reason.
    public static let other = ExpirationIntent(rawValue: 5)
}
