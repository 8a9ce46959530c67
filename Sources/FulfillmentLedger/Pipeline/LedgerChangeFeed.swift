import Foundation

/// One page of the change feed: the changes after a cursor, in commit order, and the cursor to
/// save and ask after next.
public struct LedgerChangePage: Hashable, Sendable, Codable {
    /// The changes, oldest first: events whose kind `isPlayerChange`.
    public var changes: [LedgerEvent]
    /// The sequence of the last change returned, or the cursor asked after when none was: pass
    /// it as `after` to read on.
    public var next: Int64

    /// Creates a page.
    public init(changes: [LedgerEvent], next: Int64) {
        self.changes = changes
        self.next = next
    }
}

/// The change feed as an `AsyncSequence`: every committed change to a player, in commit order,
/// from the ledger's own event log, waiting for more once it has caught up.
///
/// Delivery is at-least-once: the consumer saves the `sequence` of the last change it handled
/// and starts a new feed after it; a change handled but not yet saved is delivered again. The
/// feed polls the store every `pollIntervalMilliseconds` while caught up, and ends (returns
/// nil) when its task is cancelled. A storage failure is thrown; start again after the last
/// change handled.
public struct LedgerChangeFeed: AsyncSequence, Sendable {
    /// What the feed yields.
    public typealias Element = LedgerEvent
    /// What the feed throws: storage failures.
    public typealias Failure = LedgerError

    /// Default wait between reads once caught up.
    public static let pollIntervalMillisecondsDefault = 500
    /// Shortest and longest wait accepted.
    public static let pollIntervalMillisecondsRange = 10...60_000

    let ledger: Ledger
    let after: Int64
    let pageCountMax: Int
    let pollIntervalMilliseconds: Int

    /// Reads pages of changes and hands them out one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let feed: LedgerChangeFeed
        var cursor: Int64
        var buffered: [LedgerEvent] = []
        var nextBufferedIndex = 0

        /// The next change, waiting for one while caught up; nil once the task is cancelled.
        public mutating func next() async throws(LedgerError) -> LedgerEvent? {
            while nextBufferedIndex == buffered.count {
                if Task.isCancelled { return nil }
                let page = try await feed.ledger.changes(after: cursor, limit: feed.pageCountMax)
                (buffered, nextBufferedIndex, cursor) = (page.changes, 0, page.next)
                if buffered.isEmpty {
                    do {
                        try await Task.sleep(for: .milliseconds(feed.pollIntervalMilliseconds))
                    } catch {
                        return nil
                    }
                }
            }
            defer { nextBufferedIndex += 1 }
            return buffered[nextBufferedIndex]
        }
    }

    /// Starts reading after the cursor.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(feed: self, cursor: after)
    }
}

extension Ledger {
    /// Most changes one page of the feed returns.
    public static let changePageCountMax = 1_000

    /// The changes committed after `sequence` (0: from the start), oldest first, at most
    /// `limit` (1...`changePageCountMax`): one page of the change feed. Changes are the events
    /// whose kind `isPlayerChange`; their sequences are in commit order on every store, so a
    /// reader that asks after the last sequence it saw never misses one.
    public func changes(after sequence: Int64, limit: Int = Ledger.changePageCountMax) async throws(LedgerError)
        -> LedgerChangePage
    {
        guard sequence >= 0 else { throw LedgerError.invalidArgument("after must be 0 or a sequence the feed returned") }
        guard (1...Self.changePageCountMax).contains(limit) else {
            throw LedgerError.invalidArgument("limit must lie between 1 and \(Self.changePageCountMax)")
        }
        let changes = try await store.read { reader throws(LedgerError) in
            try reader.changes(afterSequence: sequence, limit: limit)
        }
        assert(changes.count <= limit && zip(changes, changes.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        return LedgerChangePage(changes: changes, next: changes.last?.sequence ?? sequence)
    }

    /// The change feed after `sequence` as an `AsyncSequence`; see `LedgerChangeFeed`.
    public func changeFeed(
        after sequence: Int64 = 0, pageCountMax: Int = Ledger.changePageCountMax,
        pollIntervalMilliseconds: Int = LedgerChangeFeed.pollIntervalMillisecondsDefault
    ) throws(LedgerError) -> LedgerChangeFeed {
        guard sequence >= 0 else { throw LedgerError.invalidArgument("after must be 0 or a sequence the feed returned") }
        guard (1...Self.changePageCountMax).contains(pageCountMax) else {
            throw LedgerError.invalidArgument("pageCountMax must lie between 1 and \(Self.changePageCountMax)")
        }
        guard LedgerChangeFeed.pollIntervalMillisecondsRange.contains(pollIntervalMilliseconds) else {
            throw LedgerError.invalidArgument(
                "pollIntervalMilliseconds must lie in \(LedgerChangeFeed.pollIntervalMillisecondsRange)")
        }
        return LedgerChangeFeed(
            ledger: self, after: sequence, pageCountMax: pageCountMax, pollIntervalMilliseconds: pollIntervalMilliseconds)
    }
}
