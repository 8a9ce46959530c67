/// The body of Send Consumption Information (`ConsumptionRequest`, App Store Server API 1.19+),
/// the answer to a `CONSUMPTION_REQUEST` notification.
public struct AppStoreConsumptionRequest: Sendable, Hashable, Encodable {
    /// Whether the app delivered a working purchase (`deliveryStatus`).
    public enum DeliveryStatus: String, Sendable, Hashable, Encodable, CaseIterable {
        /// Delivered and working.
        case delivered = "DELIVERED"
        /// Not delivered because of a quality issue.
        case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
        /// The wrong item was delivered.
        case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
        /// Not delivered because of a server outage.
        case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
        /// Not delivered for another reason.
        case undeliveredOther = "UNDELIVERED_OTHER"
    }

    /// The developer's preferred outcome (`refundPreference`); Apple decides.
    public enum RefundPreference: String, Sendable, Hashable, Encodable, CaseIterable {
        /// Decline the refund.
        case decline = "DECLINE"
        /// Grant it in full.
        case grantFull = "GRANT_FULL"
        /// Grant it in proportion to `consumptionPercentage`.
        case grantProrated = "GRANT_PRORATED"
    }

    /// The most `consumptionPercentage` can be: 100 % in milliunits.
    public static let consumptionPercentageMax = 100_000

    /// Whether the customer consented to sharing consumption data; Apple refuses anything but true.
    public var customerConsented: Bool
    /// How much of the purchase the customer consumed, in milliunits (0...100 000); optional.
    public var consumptionPercentage: Int?
    /// Whether the purchase was delivered and works.
    public var deliveryStatus: DeliveryStatus
    /// The preferred outcome; optional.
    public var refundPreference: RefundPreference?
    /// Whether a free sample, trial or description of the content was available before purchase.
    public var sampleContentProvided: Bool

    /// Creates a body; `consumptionPercentage` is clamped to 0...`consumptionPercentageMax`.
    public init(
        customerConsented: Bool, consumptionPercentage: Int?, deliveryStatus: DeliveryStatus,
        refundPreference: RefundPreference?, sampleContentProvided: Bool
    ) {
        self.customerConsented = customerConsented
        self.consumptionPercentage = consumptionPercentage.map { min(max(0, $0), Self.consumptionPercentageMax) }
        self.deliveryStatus = deliveryStatus
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
    }
}
