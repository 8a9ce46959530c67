import FulfillmentLedger

/// How a subscription offer is paid.
///
/// Open: a value Apple adds later is kept raw, never lost.
public struct OfferDiscountType: OpenStringEnumeration {
    /// Apple's name for the value.
    public let rawValue: String

    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A free trial.
    public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")
    /// A reduced price each period.
    public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")
    /// A reduced price paid once for the offer's duration.
    public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")
    /// A one-time discount.
    public static let oneTime = OfferDiscountType(rawValue: "ONE_TIME")
}
