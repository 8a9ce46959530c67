import Foundation

/// A player's currency balances over time, for a small chart in the operator console.
///
/// Computed backward from the current balances, so every point is exact: each change the ledger
/// keeps (a purchase's or subscription period's currency grant, a refund, revoke or reversal of
/// one, a spend or grant of the game's own) is undone in turn, newest first, which gives the
/// balance right before it. Economy operations store the balance right after them, which the
/// walk checks. A Reset Game clears positive balances and keeps debt, so nothing before the
/// latest reset can be recovered: the history starts there.
public struct BalanceHistory: Hashable, Sendable, Codable {
    /// A balance right after one change.
    public struct Point: Hashable, Sendable, Codable {
        /// When the change applied, by the ledger's clock.
        public var at: Date
        /// The balance right after it.
        public var balance: Int64
        /// The change in words: `purchase test/test-000001`, `spend op-7`, `grant quest-1`,
        /// `refund r-1`, `revoke r-2`, `reversal r-3`, `reset`, or `now` for the last point.
        public var cause: String

        /// Creates a point.
        public init(at: Date, balance: Int64, cause: String) {
            self.at = at
            self.balance = balance
            self.cause = cause
        }
    }

    /// Per currency ID, the points oldest first, ending with `now` at the current balance. A
    /// currency appears when the player holds a non-zero balance of it or it changed.
    public var currencies: [String: [Point]]
    /// False when older changes exist that the history does not show: a limit cut them off, a
    /// reset hides what came before it, or the changes the ledger keeps do not add up to the
    /// balances (a purchase moved between players by a restore, for one).
    public var isComplete: Bool

    /// Most changes read per history: the newest ones when a player has more.
    public static let changeCountMax = 500
    /// Most events of the player read to find refunds and reversals, including those of
    /// purchases older than the newest `changeCountMax`.
    public static let eventCountMax = 4 * changeCountMax

    /// Creates a history.
    public init(currencies: [String: [Point]], isComplete: Bool) {
        self.currencies = currencies
        self.isComplete = isComplete
    }
}

extension Ledger {
    /// `playerID`'s currency balances over time, exact, from at most
    /// `BalanceHistory.changeCountMax` changes (see `BalanceHistory`). Read in one snapshot;
    /// an unknown player has an empty, complete history.
    public func balanceHistory(_ playerID: String) async throws(LedgerError) -> BalanceHistory {
        try checkIdentifier(playerID, "playerID")
        let now = clock.now()
        let revocationCountMax = configuration.revocationEventCountMax
        return try await store.read { reader throws(LedgerError) in
            try BalanceHistory.read(playerID, now: now, revocationCountMax: revocationCountMax, reader: reader)
        }
    }
}

extension BalanceHistory {
    /// One change of one or more balances, as the walk undoes it.
    struct Change {
        /// When it applied.
        var at: Date
        /// Its place among changes of the same millisecond: a purchase (0) before the refunds
        /// applied with it (1), then operations (2); then by `id` and `position`.
        var rank: Int
        /// The purchase key or operation ID.
        var id: String
        /// A refund's place among its purchase's revocation events.
        var position: Int
        /// What it added per currency (negative: taken).
        var deltas: [String: Int64]
        /// The change in words.
        var cause: String
        /// The balance the store recorded right after it, for an economy operation.
        var balanceAfter: Int64?

        /// Whether `self` applied after `other`.
        func isNewer(than other: Change) -> Bool {
            (at.ledgerMilliseconds, rank, id, position) > (other.at.ledgerMilliseconds, other.rank, other.id, other.position)
        }
    }

    /// Where the read changes stop being complete: every change at or before `cutoff`
    /// (milliseconds) is dropped, since a list cut by its limit may lack some of them.
    struct Window {
        var cutoff: Int64?

        /// Moves the cutoff up to `date`.
        mutating func cut(at date: Date) {
            cutoff = max(cutoff ?? date.ledgerMilliseconds, date.ledgerMilliseconds)
        }

        /// Whether a change at `date` lies inside the window.
        func holds(_ date: Date) -> Bool { cutoff.map { date.ledgerMilliseconds > $0 } ?? true }
    }

    /// The history from one consistent snapshot.
    static func read(
        _ playerID: String, now: Date, revocationCountMax: Int, reader: LedgerReader
    ) throws(LedgerError) -> BalanceHistory {
        let current = try reader.balances(playerID: playerID)
        let lastReset = try reader.lastReset(playerID: playerID)
        var window = Window()
        var changes = try purchaseAndRefundChanges(
            playerID, revocationCountMax: revocationCountMax, reader: reader, window: &window)
        var operations = try reader.operations(playerID: playerID, limit: changeCountMax + 1)
        if operations.count > changeCountMax { window.cut(at: operations.removeLast().appliedAt) }
        changes += operations.compactMap(Change.init(operation:))

        changes = changes.filter { window.holds($0.at) }.sorted { $0.isNewer(than: $1) }
        var isComplete = window.cutoff == nil
        // A change in the reset's own millisecond counts as before it.
        if let lastReset {
            let resetMilliseconds = lastReset.ledgerMilliseconds
            let before = changes.count
            changes.removeAll { $0.at.ledgerMilliseconds <= resetMilliseconds }
            if changes.count < before { isComplete = false }
        }
        var reachesReset = lastReset.map(window.holds) ?? false
        if changes.count > changeCountMax {
            changes.removeLast(changes.count - changeCountMax)
            isComplete = false
            reachesReset = false
        }
        return walk(
            changes, from: current, now: now, reset: reachesReset ? lastReset : nil, isComplete: isComplete)
    }

    /// The player's purchases (newest `changeCountMax`) and the refunds, revokes and
    /// reversals their events name, as changes; cuts `window` where a list was cut by its limit.
    private static func purchaseAndRefundChanges(
        _ playerID: String, revocationCountMax: Int, reader: LedgerReader, window: inout Window
    ) throws(LedgerError) -> [Change] {
        var records = try reader.transactions(playerID: playerID, limit: changeCountMax + 1)
        if records.count > changeCountMax { window.cut(at: records.removeLast().fulfilledAt) }
        var changes = records.compactMap(Change.init(purchase:))
        var events = try reader.events(playerID: playerID, limit: eventCountMax + 1)
        if events.count > eventCountMax { window.cut(at: events.removeLast().at) }
        // A refund logs an event on the purchase's player, so refunds of purchases older than
        // the records read are found too.
        let refunded = Set(events.filter { $0.kind == .refundApplied || $0.kind == .refundReversed }.compactMap(\.transaction))
        let known = Dictionary(uniqueKeysWithValues: records.map { ($0.key, $0) })
        for key in refunded.sorted() {
            var found = known[key]
            if found == nil { found = try reader.transaction(key) }
            guard let record = found, record.playerID == playerID else { continue }
            let revocations = try reader.revocationEvents(for: key, limit: revocationCountMax + 1)
            let read = revocations.prefix(revocationCountMax).enumerated().compactMap { position, revocation in
                Change(revocation: revocation, of: record, position: position)
            }
            changes += read
            // Ordered by store date, not by when each applied: the one left out may be any.
            if revocations.count > revocationCountMax, let newest = read.map(\.at).max() { window.cut(at: newest) }
        }
        return changes
    }

    /// Undoes `changes` (newest first) from the `current` balances and returns the points,
    /// oldest first, starting at `reset` when the walk reached it.
    private static func walk(
        _ changes: [Change], from current: [String: Int64], now: Date, reset: Date?, isComplete complete: Bool
    ) -> BalanceHistory {
        var isComplete = complete
        var running = current
        var newestFirst: [String: [Point]] = [:]
        walking: for change in changes {
            for (currency, delta) in change.deltas.sorted(by: { $0.key < $1.key }) {
                var balance = running[currency] ?? 0
                if let recorded = change.balanceAfter, recorded != balance {
                    // A change the ledger keeps no record of moved the balance in between.
                    isComplete = false
                    balance = recorded
                }
                newestFirst[currency, default: []].append(Point(at: change.at, balance: balance, cause: change.cause))
                let (before, overflow) = balance.subtractingReportingOverflow(delta)
                guard !overflow else {
                    isComplete = false
                    break walking
                }
                running[currency] = before
            }
        }
        // A reset leaves no positive balance; with nothing before it, nor before the first change.
        if reset != nil, running.values.contains(where: { $0 > 0 }) { isComplete = false }
        if isComplete, running.values.contains(where: { $0 != 0 }) { isComplete = false }
        var currencies: [String: [Point]] = [:]
        for currency in Set(current.filter { $0.value != 0 }.keys).union(newestFirst.keys) {
            var points: [Point] = []
            if let reset { points.append(Point(at: reset, balance: running[currency] ?? 0, cause: "reset")) }
            points += (newestFirst[currency] ?? []).reversed()
            points.append(Point(at: now, balance: current[currency] ?? 0, cause: "now"))
            currencies[currency] = points
        }
        return BalanceHistory(currencies: currencies, isComplete: isComplete)
    }
}

extension BalanceHistory.Change {
    /// A purchase's (or subscription period's) currency grants, added when it was fulfilled;
    /// nil when it granted no currency. A line's `debtRepaid` is part of its quantity: the whole
    /// quantity was added to the balance.
    init?(purchase record: TransactionRecord) {
        let deltas = Self.currencyDeltas(record.grants)
        guard !deltas.isEmpty else { return nil }
        self.init(
            at: record.fulfilledAt, rank: 0, id: record.key.description, position: 0, deltas: deltas,
            cause: "purchase \(record.key)", balanceAfter: nil)
    }

    /// What an applied refund, revoke or reversal changed (its `effect`, signed); nil when it
    /// changed no currency. An event that arrived before its purchase applied when the purchase
    /// was fulfilled, right after its grant. A reversal's own effect is what it gave back; the
    /// take-back it reversed keeps its effect, which did happen.
    init?(revocation: RevocationRecord, of record: TransactionRecord, position: Int) {
        guard revocation.disposition == .applied else { return nil }
        let deltas = Self.currencyDeltas(revocation.effect)
        guard !deltas.isEmpty else { return nil }
        let kind = revocation.event.kind
        let word = kind == .refundReversed ? "reversal" : kind == .revoke ? "revoke" : "refund"
        self.init(
            at: max(revocation.receivedAt, record.fulfilledAt), rank: 1, id: record.key.description, position: position,
            deltas: deltas, cause: "\(word) \(revocation.event.eventID)", balanceAfter: nil)
    }

    /// A currency spend or grant of the game's own; nil for an item.
    init?(operation record: OperationRecord) {
        let operation = record.operation
        guard operation.asset == .currency else { return nil }
        let delta = operation.direction == .spend ? -operation.amount : operation.amount
        self.init(
            at: record.appliedAt, rank: 2, id: operation.operationID, position: 0, deltas: [operation.assetID: delta],
            cause: "\(operation.direction.rawValue) \(operation.operationID)", balanceAfter: record.balanceAfter)
    }

    /// The currency lines of `lines`, summed per currency, without those that sum to zero.
    private static func currencyDeltas(_ lines: [GrantLine]) -> [String: Int64] {
        var deltas: [String: Int64] = [:]
        for line in lines where line.kind == .currency { deltas[line.id, default: 0] &+= line.quantity }
        return deltas.filter { $0.value != 0 }
    }
}
