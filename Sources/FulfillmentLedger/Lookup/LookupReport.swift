import Foundation

/// Everything the ledger holds under one store ID, for support: "I paid and got nothing".
///
/// The ID may be any of a purchase's names: a delivery's transaction ID, the purchase's key,
/// an App Store `originalTransactionId` or `webOrderLineItemId`, a Play purchase token or
/// order ID (`GPA.…`). `steps` says what happened, oldest first.
public struct LookupReport: Hashable, Sendable, Codable {
    /// The ID looked up.
    public var id: String
    /// Ledger records the ID names (directly, by delivery or order ID, or as a chain's periods).
    public var records: [TransactionRecord]
    /// Subscription chains the ID names, or that a found period belongs to.
    public var subscriptions: [SubscriptionRecord]
    /// Submissions of the ID that granted nothing, newest first.
    public var attempts: [AttemptRecord]
    /// Refunds and revocations of the found purchases (and of the ID itself, if they arrived
    /// before any purchase).
    public var revocations: [RevocationRecord]
    /// Finishes of the found records still owed to the store.
    public var pendingFinishes: [PendingFinish]
    /// What happened, oldest first.
    public var steps: [LookupStep]

    /// Most records one lookup reads (a subscription chain's periods among them).
    public static let recordCountMax = 200
    /// Most events read per record.
    public static let eventsPerRecordMax = 100
    /// Most attempts read.
    public static let attemptCountMax = 100
    /// Most revocation events read per purchase.
    public static let revocationsPerPurchaseMax = 100

    /// Whether the ledger holds anything under the ID.
    public var found: Bool { !records.isEmpty || !subscriptions.isEmpty || !attempts.isEmpty || !revocations.isEmpty }

    /// The players the found rows belong to, sorted.
    public var playerIDs: [String] {
        Set(records.map(\.playerID) + subscriptions.map(\.playerID) + attempts.map(\.playerID)).sorted()
    }

    /// Creates a report.
    public init(
        id: String, records: [TransactionRecord], subscriptions: [SubscriptionRecord], attempts: [AttemptRecord],
        revocations: [RevocationRecord], pendingFinishes: [PendingFinish], steps: [LookupStep]
    ) {
        self.id = id
        self.records = records
        self.subscriptions = subscriptions
        self.attempts = attempts
        self.revocations = revocations
        self.pendingFinishes = pendingFinishes
        self.steps = steps
    }
}
