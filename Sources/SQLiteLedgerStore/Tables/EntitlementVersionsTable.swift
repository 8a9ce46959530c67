import FulfillmentLedger

/// `entitlement_versions`: a counter per player (migration 2), bumped on every entitlement
/// change. Migration 5 moved it into `players`; this is kept only for migration 2.
enum EntitlementVersionsTable {
    static let createSQL = """
        CREATE TABLE entitlement_versions (
            player_id TEXT PRIMARY KEY NOT NULL,
            version INTEGER NOT NULL CHECK (version >= 1)
        ) WITHOUT ROWID;
        """
}
