/// The kind of subscription offer applied (`offerType`).
///
/// Open: a number Apple adds later is kept raw, never lost.
public struct OfferType: OpenIntegerEnumeration {
    /// Apple's number for the value.
    public let rawValue: Int

    /// Wraps a number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// An introductory offer.
    public static let introductoryOffer = OfferType(rawValue: 1)
    /// A promotional offer.
    public static let promotionalOffer = OfferType(rawValue: 2)
    /// An offer code.
    public static let offerCode = OfferType(rawValue: 3)
    /// A win-back offer.
    public static let winBackOffer = OfferType(rawValue: 4)
}
