import Foundation

/// The body of `orders.reviewrefund` (`OrdersReviewRefundRequest`): the game's answer to a
/// chargeback Google asks it to review, with Google's field names. Google records the first
/// answer to a notification and ignores later ones (still answering OK).
public struct PlayRefundReviewRequest: Hashable, Sendable, Codable {
    /// Longest `consumptionItemDescription` Google takes, in characters.
    public static let itemDescriptionCharacterCountMax = 5_000
    /// Most `consumptionUsageEvents` Google takes; a longer list is refused.
    public static let usageEventCountMax = 1_000

    /// The token of the pending refund, from the notification. Required.
    public var pendingRefundToken: String
    /// Whether the game offered a free sample, trial or description before purchase. Required.
    public var sampleContentProvided: Bool
    /// `DECLINE`, `APPROVE` or `NEUTRAL` (raw value kept). Required.
    public var refundPreference: RefundPreference
    /// The share of the purchase used up, 0 to 100 000 (45 200 is 45.2 %); nil omits it.
    public var consumptionPercentageMilliunits: Int?
    /// Evidence of use: here, the delivery the ledger recorded.
    public var consumptionUsageEvents: [ConsumptionUsageEvent]?

    /// Creates a body; the share is clamped to 0...`ConsumptionShare.milliunitsMax`.
    public init(
        pendingRefundToken: String, sampleContentProvided: Bool, refundPreference: RefundPreference,
        consumptionPercentageMilliunits: Int?, consumptionUsageEvents: [ConsumptionUsageEvent]? = nil
    ) {
        self.pendingRefundToken = pendingRefundToken
        self.sampleContentProvided = sampleContentProvided
        self.refundPreference = refundPreference
        self.consumptionPercentageMilliunits = consumptionPercentageMilliunits.map { min(max(0, $0), 100_000) }
        self.consumptionUsageEvents = consumptionUsageEvents
    }

    /// The game's preference; an unknown value Google adds later keeps its raw string.
    public struct RefundPreference: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// Google's name.
        public var rawValue: String
        /// Creates a preference from Google's name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Decline the refund.
        public static let decline = RefundPreference(rawValue: "DECLINE")
        /// Grant the refund in full.
        public static let approve = RefundPreference(rawValue: "APPROVE")
        /// No preference.
        public static let neutral = RefundPreference(rawValue: "NEUTRAL")
        /// The three values Google documents.
        public static let known: [RefundPreference] = [.decline, .approve, .neutral]
        /// Google's name.
        public var description: String { rawValue }

        /// Decodes Google's name.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        /// Encodes Google's name.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// One use of the purchase (every field optional to Google).
    public struct ConsumptionUsageEvent: Hashable, Sendable, Codable {
        /// When it was used (RFC 3339).
        public var consumptionTime: String?
        /// What was used, at most `itemDescriptionCharacterCountMax` characters.
        public var consumptionItemDescription: String?
        /// The player's obfuscated account ID (at most 64 characters).
        public var obfuscatedAccountId: String?

        /// Creates an event; a description over Google's limit is cut to it.
        public init(consumptionTime: String?, consumptionItemDescription: String?, obfuscatedAccountId: String? = nil) {
            self.consumptionTime = consumptionTime
            self.consumptionItemDescription = consumptionItemDescription.map {
                String($0.prefix(PlayRefundReviewRequest.itemDescriptionCharacterCountMax))
            }
            self.obfuscatedAccountId = obfuscatedAccountId
        }
    }
}
