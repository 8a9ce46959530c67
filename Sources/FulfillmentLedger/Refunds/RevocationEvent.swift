import Foundation

/// What a store says happened to a transaction after it was bought.
///
/// A raw-value struct so a kind a store adds later is kept (and refused as unsupported)
/// instead of failing to decode.
public struct RevocationKind: OpenStringEnumeration {
    /// The kind's stable name.
    public let rawValue: String
    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The whole transaction was refunded.
    public static let fullRefund = RevocationKind(rawValue: "fullRefund")
    /// Some units of the transaction were refunded (`quantity` of them).
    public static let partialRefund = RevocationKind(rawValue: "partialRefund")
    /// Access was withdrawn without a refund to this player (for example Family Sharing).
    public static let revoke = RevocationKind(rawValue: "revoke")
    /// An earlier refund or revoke was undone by the store.
    public static let refundReversed = RevocationKind(rawValue: "refundReversed")

    /// The kinds this version applies.
    public static let supported: [RevocationKind] = [.fullRefund, .partialRefund, .revoke, .refundReversed]

    /// Whether this kind takes something back (every supported kind but a reversal).
    public var takesBack: Bool { self == .fullRefund || self == .partialRefund || self == .revoke }
}

/// A store's refund, revoke or reversal of one transaction: the one input format every
/// store adapter maps its notifications onto. Applied exactly once per `eventID`.
public struct RevocationEvent: Hashable, Sendable, Codable {
    /// The store's unique ID of this notification; the idempotency key.
    public var eventID: String
    /// The store of the transaction.
    public var store: PlatformStore
    /// The transaction concerned, by the store's ID of it (App Store `transactionId`).
    public var transactionID: String
    /// The store's ID of the original purchase, when it gives one (App Store
    /// `originalTransactionId`): a refund of a restored non-consumable's delivery names the
    /// delivery, and the original finds the purchase.
    public var originalTransactionID: String?
    /// What happened.
    public var kind: RevocationKind
    /// Units refunded, for `partialRefund` only: by this event, or in all when
    /// `quantityIsCumulative`.
    public var quantity: Int?
    /// For `partialRefund`: whether `quantity` is the total the store has refunded of the
    /// transaction so far (the App Store's `revocationPercentage` describes the transaction,
    /// not one refund), so only units beyond those already refunded are taken. False: the
    /// event's own units (Google Play's `voidedQuantity`).
    public var quantityIsCumulative: Bool
    /// When the store says it happened (its signed date): orders events.
    public var eventDate: Date
    /// The store's reason, if it gave one, for the history.
    public var reason: String?

    /// Creates an event.
    public init(
        eventID: String, store: PlatformStore, transactionID: String, originalTransactionID: String? = nil,
        kind: RevocationKind, quantity: Int? = nil, quantityIsCumulative: Bool = false, eventDate: Date,
        reason: String? = nil
    ) {
        self.eventID = eventID
        self.store = store
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.kind = kind
        self.quantity = quantity
        self.quantityIsCumulative = quantityIsCumulative
        self.eventDate = eventDate.truncatedToLedgerMilliseconds
        self.reason = reason
    }

    /// The key of the transaction as the event names it.
    public var key: TransactionKey { TransactionKey(store: store, transactionID: transactionID) }

    /// The ledger key the event's purchase has, or will have once fulfilled: the original ID
    /// when the store gives one (an App Store consumable's original ID is its own).
    public var purchaseKey: TransactionKey {
        guard let original = originalTransactionID, !original.isEmpty else { return key }
        return TransactionKey(store: store, transactionID: original)
    }

    private enum CodingKeys: String, CodingKey {
        case eventID, store, transactionID, originalTransactionID, kind, quantity, quantityIsCumulative, eventDate,
            reason
    }

    /// Decodes an event, keeping the date at the ledger's millisecond precision so a
    /// redelivered event compares equal to the stored one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            eventID: try container.decode(String.self, forKey: .eventID),
            store: try container.decode(PlatformStore.self, forKey: .store),
            transactionID: try container.decode(String.self, forKey: .transactionID),
            originalTransactionID: try container.decodeIfPresent(String.self, forKey: .originalTransactionID),
            kind: try container.decode(RevocationKind.self, forKey: .kind),
            quantity: try container.decodeIfPresent(Int.self, forKey: .quantity),
            quantityIsCumulative: try container.decodeIfPresent(Bool.self, forKey: .quantityIsCumulative) ?? false,
            eventDate: try container.decode(Date.self, forKey: .eventDate),
            reason: try container.decodeIfPresent(String.self, forKey: .reason))
    }
}

/// How an event was handled.
public enum RevocationDisposition: String, Hashable, Sendable, Codable, CaseIterable {
    /// It changed the player's state; `effect` says how.
    case applied
    /// The transaction is not fulfilled yet; the event is kept and applied when it is.
    case awaitingPurchase
    /// An event with a later store date was already applied; this older one changes nothing.
    case stale
    /// Nothing was left to take back or give back.
    case noChange
}

/// A stored revocation event and what it did.
public struct RevocationRecord: Hashable, Sendable, Codable {
    /// The event as received.
    public var event: RevocationEvent
    /// The ledger key of the purchase the event applies to: the record it found, or while
    /// it awaits its purchase, the key that purchase will have.
    public var purchase: TransactionKey
    /// How it was handled.
    public var disposition: RevocationDisposition
    /// What it changed: negative quantities were taken back, positive given back.
    public var effect: [GrantLine]
    /// Debt created by a clawback beyond the balance, per currency.
    public var debtCreated: [String: Int64]
    /// Per currency, how this event changed the player's absorbed debt (see
    /// `LedgerReader.absorbedDebt`): positive when debt it restored was covered at once by
    /// the player's other gems, negative when a floor refund took such gems back into debt.
    /// A reversal undoes it.
    public var absorbedChange: [String: Int64]
    /// When the ledger received it.
    public var receivedAt: Date
    /// For a take-back event: whether a later reversal gave its effect back.
    public var reversed: Bool

    /// Creates a record.
    public init(
        event: RevocationEvent, purchase: TransactionKey? = nil, disposition: RevocationDisposition,
        effect: [GrantLine], debtCreated: [String: Int64], absorbedChange: [String: Int64] = [:], receivedAt: Date,
        reversed: Bool
    ) {
        self.absorbedChange = absorbedChange
        self.event = event
        self.purchase = purchase ?? event.purchaseKey
        self.disposition = disposition
        self.effect = effect
        self.debtCreated = debtCreated
        self.receivedAt = receivedAt.truncatedToLedgerMilliseconds
        self.reversed = reversed
    }
}

/// Where a fulfilled transaction stands after refunds and reversals.
public struct RefundState: Hashable, Sendable, Codable {
    /// `active`, `partiallyRefunded`, `refunded` or `revoked`.
    public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        /// Nothing is refunded.
        case active
        /// Some units are refunded.
        case partiallyRefunded
        /// Every unit is refunded.
        case refunded
        /// Access was revoked.
        case revoked
    }

    /// The transaction.
    public var key: TransactionKey
    /// Where it stands.
    public var status: Status
    /// Units refunded so far (all of them once refunded or revoked).
    public var refundedQuantity: Int
    /// Store date of the latest take-back event applied.
    public var lastTakeBackDate: Date?
    /// Store date of the latest reversal applied.
    public var lastReversalDate: Date?

    /// Creates a state.
    public init(
        key: TransactionKey, status: Status, refundedQuantity: Int, lastTakeBackDate: Date?, lastReversalDate: Date?
    ) {
        self.key = key
        self.status = status
        self.refundedQuantity = refundedQuantity
        self.lastTakeBackDate = lastTakeBackDate?.truncatedToLedgerMilliseconds
        self.lastReversalDate = lastReversalDate?.truncatedToLedgerMilliseconds
    }

    /// The state of a transaction no event has touched.
    public static func active(_ key: TransactionKey) -> RefundState {
        RefundState(key: key, status: .active, refundedQuantity: 0, lastTakeBackDate: nil, lastReversalDate: nil)
    }
}

/// A flag set on a player for support to look at, such as a refund floored at zero.
public struct PlayerFlag: Hashable, Sendable, Codable {
    /// The flag, such as `refundFloored`.
    public var flag: String
    /// What happened.
    public var detail: String
    /// The transaction concerned, if any.
    public var transaction: TransactionKey?
    /// When.
    public var at: Date

    /// Creates a flag.
    public init(flag: String, detail: String, transaction: TransactionKey?, at: Date) {
        self.flag = flag
        self.detail = detail
        self.transaction = transaction
        self.at = at.truncatedToLedgerMilliseconds
    }
}
