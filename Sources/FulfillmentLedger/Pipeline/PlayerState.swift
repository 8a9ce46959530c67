/// Everything the ledger knows about one player, for support tools and the CLI.
public struct PlayerSnapshot: Hashable, Sendable, Codable {
    /// The player.
    public var playerID: String
    /// Non-zero currency balances.
    public var balances: [String: Int64]
    /// Non-zero item stacks.
    public var inventory: [String: Int64]
    /// Owned entitlements, one per entitlement: the earliest purchase of those that pay for it.
    public var entitlements: [EntitlementRecord]
    /// Fulfilled transactions, newest first.
    public var history: [TransactionRecord]
    /// Recent events, newest first.
    public var events: [LedgerEvent]
    /// Currency owed after clawbacks (the negative part of each balance).
    public var debts: [String: Int64]
    /// Flags for support, newest first.
    public var flags: [PlayerFlag]
    /// The entitlement version (see `EntitlementSnapshot`).
    public var entitlementVersion: Int64
}

import Foundation

extension LedgerStore {
    /// A player's balances, inventory, entitlements, newest `historyCountMax` records and events.
    public func playerSnapshot(_ playerID: String, historyCountMax: Int) async throws(LedgerError) -> PlayerSnapshot {
        try await read { reader throws(LedgerError) in try reader.playerSnapshot(playerID, historyCountMax: historyCountMax) }
    }

    /// The game's Reset Game: clears balances, inventory and purchase counts, and keeps
    /// the transaction ledger, entitlements and debt (a negative balance), so old
    /// transactions never grant again and a reset never erases what a clawback left owed.
    public func resetPlayer(_ playerID: String, at date: Date) async throws(LedgerError) {
        try await write(.durable, PlayerStateReset.body(playerID, at: date))
    }
}

extension LedgerReader {
    /// A player's balances, inventory, entitlements, newest `historyCountMax` records and
    /// events, read within the caller's snapshot.
    func playerSnapshot(_ playerID: String, historyCountMax: Int) throws(LedgerError) -> PlayerSnapshot {
        let balances = try balances(playerID: playerID)
        return PlayerSnapshot(
            playerID: playerID,
            balances: balances,
            inventory: try inventory(playerID: playerID),
            entitlements: EntitlementOwnership.owned(try entitlements(playerID: playerID)),
            history: try transactions(playerID: playerID, limit: historyCountMax),
            events: try events(playerID: playerID, limit: historyCountMax),
            debts: balances.filter { $0.value < 0 }.mapValues { -$0 },
            flags: try playerFlags(playerID: playerID, limit: historyCountMax),
            entitlementVersion: try entitlementVersion(playerID: playerID))
    }
}

extension Ledger {
    /// A player's balances, inventory, entitlements, history and recent events.
    public func player(_ playerID: String) async throws(LedgerError) -> PlayerSnapshot {
        try checkIdentifier(playerID, "playerID")
        return try await store.playerSnapshot(playerID, historyCountMax: configuration.historyCountMax)
    }

    /// The game's Reset Game for one player; see `LedgerStore.resetPlayer(_:at:)`.
    public func resetPlayer(_ playerID: String) async throws(LedgerError) {
        try checkIdentifier(playerID, "playerID")
        try await commit(.durable, PlayerStateReset.body(playerID, at: clock.now()))
    }
}

/// A reset as one write body, shared by `LedgerStore.resetPlayer(_:at:)` and the ledger's own.
enum PlayerStateReset {
    /// The body of a reset: the progress cleared and its event, in one write.
    static func body(_ playerID: String, at date: Date) -> @Sendable (LedgerWriter) throws(LedgerError) -> Void {
        { writer throws(LedgerError) in
            try writer.resetProgress(playerID: playerID, at: date)
            try writer.appendEvent(
                LedgerEvent(
                    kind: .playerReset, playerID: playerID, transaction: nil, at: date,
                    detail: "progress cleared; ledger, entitlements and debt kept"))
        }
    }
}
