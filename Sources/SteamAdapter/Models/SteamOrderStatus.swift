import FulfillmentLedger

/// The status of a Steam microtransaction order, or of one of its items (`status`,
/// `itemstatus`), as QueryTxn and GetReport give it. Open: a status this version does not know
/// keeps its raw value and grants nothing.
public struct SteamOrderStatus: OpenStringEnumeration {
    /// The raw value Steam sent.
    public let rawValue: String

    /// Wraps a raw value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// InitTxn was called; the player has not answered the overlay yet.
    public static let initialized = SteamOrderStatus(rawValue: "Init")
    /// The player authorised the payment; the game has not called FinalizeTxn. Nothing is
    /// charged yet, and the ledger grants nothing.
    public static let approved = SteamOrderStatus(rawValue: "Approved")
    /// FinalizeTxn charged the player: the only status that grants.
    public static let succeeded = SteamOrderStatus(rawValue: "Succeeded")
    /// The player declined, the payment failed, or the order timed out before FinalizeTxn.
    public static let failed = SteamOrderStatus(rawValue: "Failed")
    /// Refunded in full.
    public static let refunded = SteamOrderStatus(rawValue: "Refunded")
    /// Some items refunded: each item's `itemstatus` says which.
    public static let partialRefund = SteamOrderStatus(rawValue: "PartialRefund")
    /// The payment was charged back.
    public static let chargedback = SteamOrderStatus(rawValue: "Chargedback")
    /// Refunded because Steam suspects fraud.
    public static let refundedSuspectedFraud = SteamOrderStatus(rawValue: "RefundedSuspectedFraud")
    /// Refunded as friendly fraud.
    public static let refundedFriendlyFraud = SteamOrderStatus(rawValue: "RefundedFriendlyFraud")

    /// The statuses that take back what an order (or an item) granted.
    public static let takeBacks: Set<SteamOrderStatus> = [
        .refunded, .partialRefund, .chargedback, .refundedSuspectedFraud, .refundedFriendlyFraud,
    ]

    /// Whether Steam charged the order at some point: succeeded, or taken back after it was.
    public var wasCharged: Bool { self == .succeeded || Self.takeBacks.contains(self) }

    /// Whether this status takes back what was granted.
    public var takesBack: Bool { Self.takeBacks.contains(self) }
}
