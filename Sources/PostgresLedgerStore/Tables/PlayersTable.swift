import Foundation
import FulfillmentLedger

/// `players`: one row per player that has a per-player value: the entitlement version, bumped
/// on every entitlement change so a game server can tell a cached list is stale, and the time
/// of the last Reset Game. No row means version 0 and never reset.
enum PlayersTable {
    static let createSQL = """
        CREATE TABLE players (
            player_id text COLLATE "C" PRIMARY KEY,
            entitlement_version bigint NOT NULL DEFAULT 0 CHECK (entitlement_version >= 0),
            reset_at_ms bigint
        );
        """

    static let selectVersionSQL = "SELECT entitlement_version FROM players WHERE player_id = $1"
    static let selectResetSQL = "SELECT reset_at_ms FROM players WHERE player_id = $1"
    static let bumpSQL = """
        INSERT INTO players AS p (player_id, entitlement_version) VALUES ($1, 1)
        ON CONFLICT (player_id) DO UPDATE SET entitlement_version = p.entitlement_version + 1
        RETURNING entitlement_version
        """
    static let setResetSQL = """
        INSERT INTO players (player_id, reset_at_ms) VALUES ($1, $2)
        ON CONFLICT (player_id) DO UPDATE SET reset_at_ms = excluded.reset_at_ms
        """
}

extension PostgresLedgerSession {
    func entitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        try one(PlayersTable.selectVersionSQL, [.text(playerID)]) { (row) throws(PostgresError) in try row.int64(0) } ?? 0
    }

    func bumpEntitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        guard let version = try one(PlayersTable.bumpSQL, [.text(playerID)], { (row) throws(PostgresError) in try row.int64(0) })
        else { throw corrupt("entitlement version of \(playerID)") }
        return version
    }

    func lastReset(playerID: String) throws(LedgerError) -> Date? {
        let milliseconds = try one(PlayersTable.selectResetSQL, [.text(playerID)]) { (row) throws(PostgresError) in
            try row.optionalInt64(0)
        }
        return milliseconds.flatMap { $0 }.map(Date.init(ledgerMilliseconds:))
    }

    func setLastReset(playerID: String, at date: Date) throws(LedgerError) {
        try run(PlayersTable.setResetSQL, [.text(playerID), .milliseconds(date)])
    }
}
