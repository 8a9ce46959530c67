import Foundation

/// `players`: one row per player that has a per-player value: the entitlement version, bumped
/// on every entitlement change so a game server can tell a cached list is stale, and the time
/// of the last Reset Game. No row means version 0 and never reset.
enum PlayersTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "players",
        columns: [
            SQLColumn("player_id", .key),
            SQLColumn("entitlement_version", .integer, check: "entitlement_version >= 0", defaultSQL: "0"),
            SQLColumn("reset_at_ms", .integer, isNullable: true),
        ],
        primaryKey: ["player_id"])

    static let selectVersionSQL = "SELECT entitlement_version FROM players WHERE player_id = ?"
    static let selectResetSQL = "SELECT reset_at_ms FROM players WHERE player_id = ?"
    /// RETURNING reads the new value in the same statement as the write.
    static let bumpSQL = """
        INSERT INTO players AS p (player_id, entitlement_version) VALUES (?, 1)
        ON CONFLICT (player_id) DO UPDATE SET entitlement_version = p.entitlement_version + 1
        RETURNING entitlement_version
        """
    static let setResetSQL = """
        INSERT INTO players (player_id, reset_at_ms) VALUES (?, ?)
        ON CONFLICT (player_id) DO UPDATE SET reset_at_ms = excluded.reset_at_ms
        """
}

extension LedgerReader {
    /// A player's entitlement version: 0 before any change, +1 on every change.
    public func entitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        try one(PlayersTable.selectVersionSQL, [.text(playerID)]) { (row) throws(LedgerError) in try row.int64(0) } ?? 0
    }

    /// When the player's progress was last reset (Reset Game), if ever.
    public func lastReset(playerID: String) throws(LedgerError) -> Date? {
        let milliseconds = try one(PlayersTable.selectResetSQL, [.text(playerID)]) { (row) throws(LedgerError) in
            try row.optionalInt64(0)
        }
        return milliseconds.flatMap { $0 }.map(Date.init(ledgerMilliseconds:))
    }

}

extension LedgerWriter {
    /// Records the time of a reset.
    func setLastReset(playerID: String, at date: Date) throws(LedgerError) {
        try run(PlayersTable.setResetSQL, [.text(playerID), .milliseconds(date)])
    }

    /// Adds one to the player's entitlement version and returns the new version.
    public func bumpEntitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        guard let version = try one(PlayersTable.bumpSQL, [.text(playerID)], { (row) throws(LedgerError) in try row.int64(0) })
        else { throw corrupt("entitlement version of \(playerID)") }
        return version
    }
}
