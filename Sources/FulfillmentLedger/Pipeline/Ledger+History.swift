/// One page of a player's history: their events, oldest first.
public struct LedgerEventPage: Hashable, Sendable, Codable {
    /// The events, oldest first.
    public var events: [LedgerEvent]
    /// Whether more events follow this page.
    public var hasMore: Bool
    /// The sequence of the last event returned, or the cursor asked after when none was: pass it
    /// as `after` for the next page.
    public var next: Int64

    /// Creates a page.
    public init(events: [LedgerEvent], hasMore: Bool, next: Int64) {
        self.events = events
        self.hasMore = hasMore
        self.next = next
    }
}

extension Ledger {
    /// Most events one page of a player's history returns.
    public static let historyPageCountMax = 1_000

    /// `playerID`'s events after `sequence` (0: from the start), oldest first, at most `limit`
    /// (1...`historyPageCountMax`): purchases, refunds, reversals, debt, spends and grants,
    /// subscription changes, resets.
    public func history(_ playerID: String, after sequence: Int64 = 0, limit: Int = Ledger.historyPageCountMax)
        async throws(LedgerError) -> LedgerEventPage
    {
        try checkIdentifier(playerID, "playerID")
        guard sequence >= 0 else { throw LedgerError.invalidArgument("after must be 0 or a sequence a page returned") }
        guard (1...Self.historyPageCountMax).contains(limit) else {
            throw LedgerError.invalidArgument("limit must lie between 1 and \(Self.historyPageCountMax)")
        }
        // One more than the page: whether it is there says whether more follow.
        var events = try await store.read { reader throws(LedgerError) in
            try reader.events(playerID: playerID, afterSequence: sequence, limit: limit + 1)
        }
        let hasMore = events.count > limit
        if hasMore { events.removeLast(events.count - limit) }
        return LedgerEventPage(events: events, hasMore: hasMore, next: events.last?.sequence ?? sequence)
    }
}
