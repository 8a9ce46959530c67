import Foundation

/// How much finish work the ledger owes the platforms now: the outbox's depth and the age of its
/// oldest row, for a metrics gauge.
public struct PendingFinishGauge: Hashable, Sendable, Codable {
    /// Pending finishes counted, at most the limit the read was given.
    public var count: Int
    /// Whether the count reached that limit, so there may be more.
    public var countIsAtLeast: Bool
    /// Seconds since the oldest pending finish was enqueued; nil when there is none.
    public var oldestAgeSeconds: Int64?

    /// Creates a gauge reading.
    public init(count: Int, countIsAtLeast: Bool, oldestAgeSeconds: Int64?) {
        precondition(count >= 0 && (oldestAgeSeconds ?? 0) >= 0, "a gauge is never negative")
        self.count = count
        self.countIsAtLeast = countIsAtLeast
        self.oldestAgeSeconds = oldestAgeSeconds
    }
}

extension Ledger {
    /// Reads the outbox's depth (at most `recoveryFinishCountMax` rows are counted) and the age of
    /// its oldest row, by the ledger clock.
    public func pendingFinishGauge() async throws(LedgerError) -> PendingFinishGauge {
        let limit = configuration.recoveryFinishCountMax
        let rows = try await store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: limit) }
        let nowMilliseconds = clock.now().ledgerMilliseconds
        let oldest = rows.map(\.enqueuedAt.ledgerMilliseconds).min()
        return PendingFinishGauge(
            count: rows.count, countIsAtLeast: rows.count >= limit,
            oldestAgeSeconds: oldest.map { max(0, nowMilliseconds - $0) / 1000 })
    }
}
