import FulfillmentLedger

/// `entitlement_versions`: a counter per player, bumped on every entitlement change, so a
/// game server can tell a cached entitlement list is stale. No row means version 0.
enum EntitlementVersionsTable {
    static let createSQL = """
        CREATE TABLE entitlement_versions (
            player_id TEXT PRIMARY KEY NOT NULL,
            version INTEGER NOT NULL CHECK (version >= 1)
        ) WITHOUT ROWID;
        """

    static let selectSQL = "SELECT version FROM entitlement_versions WHERE player_id = ?"
    // RETURNING reads the new value in the same statement as the write (SQLite 3.35+).
    static let bumpSQL = """
        INSERT INTO entitlement_versions (player_id, version) VALUES (?, 1)
        ON CONFLICT (player_id) DO UPDATE SET version = version + 1
        RETURNING version
        """
}

extension SQLiteLedgerSession {
    /// A player's entitlement version; 0 without a row.
    func entitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        try sql { () throws(SQLiteError) in
            try connection.statement(EntitlementVersionsTable.selectSQL)
                .queryOne([.text(playerID)]) { $0.int64(0) } ?? 0
        }
    }

    /// Adds one to a player's version, creating it at 1, and returns the new value.
    func bumpEntitlementVersion(playerID: String) throws(LedgerError) -> Int64 {
        let version = try sql { () throws(SQLiteError) in
            try connection.statement(EntitlementVersionsTable.bumpSQL).queryOne([.text(playerID)]) { $0.int64(0) }
        }
        guard let version else { throw corrupt("entitlement version of \(playerID)") }
        return version
    }
}
