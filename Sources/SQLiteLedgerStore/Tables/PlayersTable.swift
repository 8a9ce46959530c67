import Foundation
import FulfillmentLedger

/// `players`: one row per player that has one of these per-player values: the entitlement
/// version, bumped on every entitlement change so a game server can tell a cached list is
/// stale, and the time of the last Reset Game. No row means version 0 and never reset.
enum PlayersTable {
    /// Added by migration 5; takes over `entitlement_versions` and the reset times the event
    /// log holds.
    static let createSQL = """
        CREATE TABLE players (
            player_id TEXT PRIMARY KEY NOT NULL,
            entitlement_version INTEGER NOT NULL DEFAULT 0 CHECK (entitlement_version >= 0),
            reset_at_ms INTEGER
        ) WITHOUT ROWID;
        INSERT INTO players (player_id, entitlement_version) SELECT player_id, version FROM entitlement_versions;
        DROP TABLE entitlement_versions;
        INSERT INTO players (player_id, reset_at_ms)
            SELECT player_id, max(at_ms) FROM events WHERE kind = 'playerReset' GROUP BY player_id
            ON CONFLICT (player_id) DO UPDATE SET reset_at_ms = excluded.reset_at_ms;
        """

    static let selectVersionSQL = "SELECT entitlement_version FROM players WHERE player_id = ?"
    static let selectResetSQL = "SELECT reset_at_ms FROM players WHERE player_id = ?"
    // RETURNING reads the new value in the same statement as the write (SQLite 3.35+).
    static let bumpSQL = """
        INSERT INTO players (player_id, entitlement_version) VALUES (?, 1)
        ON CONFLICT (player_id) DO UPDATE SET entitlement_version = entitlement_version + 1
        RETURNING entitlement_version
        """
    static let setResetSQL = """
        INSERT INTO players (player_id, reset_at_ms) VALUES (?, ?)
        ON CONFLICT (player_id) DO UPDATE SET reset_at_ms = excluded.reset_at_ms
        """
}

extension SQLiteLedgerSession {
    /// A player's entitlement version; 0 without a row.
    func entitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        try sql { () throws(SQLiteError) in
            try connection.statement(PlayersTable.selectVersionSQL).queryOne([.text(playerID)]) { $0.int64(0) } ?? 0
        }
    }

    /// Adds one to a player's version, creating it at 1, and returns the new value.
    func bumpEntitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        let version = try sql { () throws(SQLiteError) in
            try connection.statement(PlayersTable.bumpSQL).queryOne([.text(playerID)]) { $0.int64(0) }
        }
        guard let version else { throw corrupt("entitlement version of \(playerID)") }
        return version
    }

    /// When the player's progress was last reset; nil if never.
    func lastReset(playerID: String) throws(LedgerError) -> Date? {
        let milliseconds = try sql { () throws(SQLiteError) in
            try connection.statement(PlayersTable.selectResetSQL).queryOne([.text(playerID)]) { $0.optionalInt64(0) }
        }
        return milliseconds.flatMap { $0 }.map(Date.init(ledgerMilliseconds:))
    }

    /// Records the time of a reset.
    func setLastReset(playerID: String, at date: Date) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(PlayersTable.setResetSQL).run([.text(playerID), .integer(date.ledgerMilliseconds)])
        }
    }
}
