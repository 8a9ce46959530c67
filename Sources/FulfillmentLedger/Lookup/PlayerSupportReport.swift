import Foundation

/// Everything support needs to answer one player's "I paid and got nothing", in one consistent
/// read: what the player holds, each purchase and whether the store was told to finish it,
/// each submission that granted nothing, refunds, subscriptions with their periods, and what
/// happened in order. The operator console's player page shows it.
public struct PlayerSupportReport: Hashable, Sendable, Codable {
    /// The player.
    public var playerID: String
    /// Whether the ledger holds anything for the player (see `Ledger.isKnownPlayer(_:)`); a
    /// mistyped ID reads as unknown, not as a player with nothing.
    public var isKnown: Bool
    /// Balances, inventory, entitlements, debts, flags, the newest purchases and events.
    public var snapshot: PlayerSnapshot
    /// Submissions that granted nothing, newest first.
    public var attempts: [AttemptRecord]
    /// Finishes of the player's purchases still owed to the store, with their age and deadline.
    public var pendingFinishes: [PendingFinishDeadline]
    /// Refunds, revocations and reversals of the player's purchases, newest first.
    public var revocations: [RevocationRecord]
    /// The player's subscription chains.
    public var subscriptions: [SubscriptionRecord]
    /// The periods of those chains, newest first within each chain.
    public var subscriptionPeriods: [SubscriptionPeriodRecord]
    /// What happened, oldest first: events, attempts, revocations that changed nothing, and
    /// pending finishes.
    public var timeline: [LookupStep]

    /// Most attempts read.
    public static let attemptCountMax = 100
    /// Most revocation events read per purchase.
    public static let revocationsPerPurchaseMax = 20
    /// Most subscription chains read.
    public static let subscriptionCountMax = 50
    /// Most periods read per chain.
    public static let periodsPerSubscriptionMax = 24
}

/// A finish still owed to the store, aged against the store's own deadline.
public struct PendingFinishDeadline: Hashable, Sendable, Codable {
    /// The pending finish as stored.
    public var pending: PendingFinish
    /// Seconds since the grant committed.
    public var ageSeconds: Int64
    /// When the store acts on an unfinished purchase (Google Play refunds a purchase that is not
    /// acknowledged within three days); nil for stores that only redeliver it.
    public var deadline: Date?
    /// Older than the ledger's warning age (`LedgerConfiguration.finishWarningAgeSeconds`).
    public var overdue: Bool

    /// Seconds within which Google Play must see a purchase acknowledged, or it refunds it.
    public static let playAcknowledgeSeconds: Int64 = 3 * 24 * 60 * 60

    /// Creates a row for `pending` aged at `now`.
    public init(_ pending: PendingFinish, now: Date, warningAgeSeconds: Int64) {
        // The age and the overdue rule are the doctor's (`PendingFinishAge`); this adds the deadline.
        let aged = PendingFinishAge(
            pending, now: now,
            cutoffMilliseconds: PendingFinishAge.overdueCutoffMilliseconds(now: now, warningAgeSeconds: warningAgeSeconds))
        self.pending = pending
        self.ageSeconds = aged.ageSeconds
        self.overdue = aged.overdue
        self.deadline =
            pending.key.store == .playStore
            ? pending.enqueuedAt.addingTimeInterval(TimeInterval(Self.playAcknowledgeSeconds)) : nil
    }
}

extension Ledger {
    /// The support report of one player (`PlayerSupportReport`). Throws `.invalidArgument` for
    /// an empty or over-long player ID; an unknown player gives a report whose `isKnown` is false.
    public func supportReport(_ playerID: String) async throws(LedgerError) -> PlayerSupportReport {
        try checkIdentifier(playerID, "playerID")
        let now = clock.now()
        let historyCountMax = configuration.historyCountMax
        let warningAgeSeconds = configuration.finishWarningAgeSeconds
        return try await store.read { reader throws(LedgerError) in
            try PlayerSupportReading(reader: reader).report(
                playerID, now: now, historyCountMax: historyCountMax, warningAgeSeconds: warningAgeSeconds)
        }
    }
}

/// The reads of one support report, inside one snapshot.
struct PlayerSupportReading {
    let reader: LedgerReader

    func report(_ playerID: String, now: Date, historyCountMax: Int, warningAgeSeconds: Int64) throws(LedgerError)
        -> PlayerSupportReport
    {
        let snapshot = try reader.playerSnapshot(playerID, historyCountMax: historyCountMax)
        let attempts = try reader.attempts(playerID: playerID, limit: PlayerSupportReport.attemptCountMax)
        var pending: [PendingFinishDeadline] = []
        var revocations: [RevocationRecord] = []
        for record in snapshot.history {
            if !record.isFinished, let row = try reader.pendingFinish(record.key) {
                pending.append(PendingFinishDeadline(row, now: now, warningAgeSeconds: warningAgeSeconds))
            }
            revocations += try reader.revocationEvents(for: record.key, limit: PlayerSupportReport.revocationsPerPurchaseMax)
        }
        revocations.sort { ($0.receivedAt, $0.event.eventID) > ($1.receivedAt, $1.event.eventID) }
        let subscriptions = try reader.subscriptions(playerID: playerID, limit: PlayerSupportReport.subscriptionCountMax)
        var periods: [SubscriptionPeriodRecord] = []
        for chain in subscriptions {
            periods += try reader.subscriptionPeriods(chain.chain, limit: PlayerSupportReport.periodsPerSubscriptionMax)
        }
        // Events and attempts are read newest first; the timeline is oldest first, and a stable
        // sort keeps rows of one millisecond in the order they happened.
        var timeline = snapshot.events.reversed().map {
            LookupStep(at: $0.at, source: .event, playerID: playerID, kind: $0.kind.rawValue, text: Self.eventText($0))
        }
        timeline += attempts.reversed().map {
            LookupStep(at: $0.at, source: .attempt, playerID: playerID, kind: $0.outcome.rawValue, text: $0.summary)
        }
        for revocation in revocations where revocation.disposition != .applied {
            timeline.append(LookupReading.step(revocation, playerID: playerID))
        }
        for row in pending {
            timeline.append(LookupReading.step(row.pending, now: now, warningAgeSeconds: warningAgeSeconds))
        }
        return PlayerSupportReport(
            playerID: playerID, isKnown: try reader.isKnownPlayer(playerID), snapshot: snapshot, attempts: attempts, pendingFinishes: pending,
            revocations: revocations, subscriptions: subscriptions, subscriptionPeriods: periods,
            timeline: timeline.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element))
    }

    /// An event in words: its detail, with the purchase it concerns.
    static func eventText(_ event: LedgerEvent) -> String {
        guard let key = event.transaction else { return event.detail }
        return "\(key): \(event.detail)"
    }
}
