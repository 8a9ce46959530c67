import FulfillmentLedger

/// The body of Send Consumption Information (`ConsumptionRequest`, App Store Server API 1.19+),
/// the answer to a `CONSUMPTION_REQUEST` notification. It replaces the integer-coded
/// `ConsumptionRequestV1`, which Apple keeps for the Advanced Commerce API only.
public struct AppStoreConsumptionRequest: Sendable, Hashable, Codable {
    /// Whether the app delivered a working purchase (`deliveryStatus`).
    ///
    /// Open: a value Apple adds later is kept raw, never lost.
    public struct DeliveryStatus: OpenStringEnumeration {
        /// Apple's name for the value.
        public let rawValue: String

        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Delivered and working.
        public static let delivered = DeliveryStatus(rawValue: "DELIVERED")
        /// Not delivered because of a quality issue.
        public static let undeliveredQualityIssue = DeliveryStatus(rawValue: "UNDELIVERED_QUALITY_ISSUE")
        /// The wrong item was delivered.
        public static let undeliveredWrongItem = DeliveryStatus(rawValue: "UNDELIVERED_WRONG_ITEM")
        /// Not delivered because of a server outage.
        public static let undeliveredServerOutage = DeliveryStatus(rawValue: "UNDELIVERED_SERVER_OUTAGE")
        /// Not delivered for another reason.
        public static let undeliveredOther = DeliveryStatus(rawValue: "UNDELIVERED_OTHER")
    }

    /// The developer's preferred outcome (`refundPreference`); Apple decides.
    ///
    /// Open: a value Apple adds later is kept raw, never lost.
    public struct RefundPreference: OpenStringEnumeration {
        /// Apple's name for the value.
        public let rawValue: String

        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Decline the refund.
        public static let decline = RefundPreference(rawValue: "DECLINE")
        /// Grant it in full.
        public static let grantFull = RefundPreference(rawValue: "GRANT_FULL")
        /// Grant it in proportion to `consumptionPercentage`.
        public static let grantProrated = RefundPreference(rawValue: "GRANT_PRORATED")
    }

    /// The most `consumptionPercentage` can be: 100 % in milliunits.
    public static let consumptionPercentageMax = 100_000

    /// Whether the customer consented to sharing consumption data; Apple refuses anything but true.
    public var customerConsented: Bool
    /// How much of the purchase the customer consumed, in milliunits (0...100 000); optional.
    /// Apple requires 0 when `deliveryStatus` is not `DELIVERED`.
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
