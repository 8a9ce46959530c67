import Foundation

/// A transaction whose platform finish has not yet succeeded: a row of the durable outbox.
public struct PendingFinish: Hashable, Sendable, Codable {
    /// The transaction to finish.
    public var key: TransactionKey
    /// The player, for reports.
    public var playerID: String
    /// When the row was added (the commit of the grant).
    public var enqueuedAt: Date
    /// Failed finish attempts so far.
    public var attemptCount: Int
    /// The last failure, if any.
    public var lastError: String?

    /// Creates a row.
    public init(key: TransactionKey, playerID: String, enqueuedAt: Date, attemptCount: Int, lastError: String?) {
        self.key = key
        self.playerID = playerID
        self.enqueuedAt = enqueuedAt.truncatedToLedgerMilliseconds
        self.attemptCount = attemptCount
        self.lastError = lastError
    }
}

/// One purchase paying for an entitlement a player owns. A player owns an entitlement while
/// at least one such record exists; several purchases may pay for the same one.
public struct EntitlementRecord: Hashable, Sendable, Codable {
    /// The catalog entitlement ID, such as `remove_ads`.
    public var entitlementID: String
    /// When this purchase started paying for it.
    public var grantedAt: Date
    /// The purchase that pays for it.
    public var source: TransactionKey

    /// Creates a record.
    public init(entitlementID: String, grantedAt: Date, source: TransactionKey) {
        self.entitlementID = entitlementID
        self.grantedAt = grantedAt.truncatedToLedgerMilliseconds
        self.source = source
    }
}

/// The kind of an append-only event-log entry.
public struct LedgerEventKind: OpenStringEnumeration {
    /// The stable name.
    public let rawValue: String
    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A purchase was granted and recorded.
    public static let purchaseGranted = LedgerEventKind(rawValue: "purchaseGranted")
    /// The platform finish succeeded.
    public static let finishSucceeded = LedgerEventKind(rawValue: "finishSucceeded")
    /// A platform finish attempt failed; the outbox row stays.
    public static let finishFailed = LedgerEventKind(rawValue: "finishFailed")
    /// The player's game progress was reset.
    public static let playerReset = LedgerEventKind(rawValue: "playerReset")
    /// A game economy operation (spend or grant) was applied.
    public static let operationApplied = LedgerEventKind(rawValue: "operationApplied")
    /// A refund or revoke took back what a purchase granted.
    public static let refundApplied = LedgerEventKind(rawValue: "refundApplied")
    /// A clawback went below zero: the shortfall is owed as debt.
    public static let debtRecorded = LedgerEventKind(rawValue: "debtRecorded")
    /// A grant paid off (part of) a debt first.
    public static let debtRepaid = LedgerEventKind(rawValue: "debtRepaid")
    /// A refund was reversed: what it took was given back.
    public static let refundReversed = LedgerEventKind(rawValue: "refundReversed")
    /// A revocation event changed nothing (stale, or nothing left to take or give back).
    public static let revocationRecorded = LedgerEventKind(rawValue: "revocationRecorded")
    /// A non-consumable's entitlements moved to another player on restore.
    public static let entitlementTransferred = LedgerEventKind(rawValue: "entitlementTransferred")
    /// A refunded or revoked purchase no longer pays for an entitlement, and the player keeps
    /// it because another purchase still pays for it.
    public static let entitlementKept = LedgerEventKind(rawValue: "entitlementKept")
    /// A reversal after a Reset Game: what the reset cleared is not given back.
    public static let reversalAfterReset = LedgerEventKind(rawValue: "reversalAfterReset")
    /// A store reported a subscription chain's new state (grace period, billing retry, expiry,
    /// auto-renew status, an extension); the detail names the change.
    public static let subscriptionChanged = LedgerEventKind(rawValue: "subscriptionChanged")

    /// Whether the change feed carries events of this kind: every kind that records a change to
    /// a player. Finish results are bookkeeping of the store's platform finish, not a change to
    /// what the player has, and their commits are deferred (not synced on their own), so the
    /// feed leaves them out.
    public var isPlayerChange: Bool { self != .finishSucceeded && self != .finishFailed }
}

/// One entry of the append-only event log.
public struct LedgerEvent: Hashable, Sendable, Codable {
    /// Position in the log, assigned by the store; 0 before it is stored.
    public var sequence: Int64
    /// What happened.
    public var kind: LedgerEventKind
    /// The player concerned.
    public var playerID: String
    /// The transaction concerned, if any.
    public var transaction: TransactionKey?
    /// When (ledger clock).
    public var at: Date
    /// A short human-readable detail.
    public var detail: String

    /// Creates an event.
    public init(
        sequence: Int64 = 0, kind: LedgerEventKind, playerID: String, transaction: TransactionKey?, at: Date,
        detail: String
    ) {
        self.sequence = sequence
        self.kind = kind
        self.playerID = playerID
        self.transaction = transaction
        self.at = at.truncatedToLedgerMilliseconds
        self.detail = detail
    }
}
