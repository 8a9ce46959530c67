import Foundation

/// `entitlements`: what each player owns (`remove_ads`), one row per purchase that pays for it;
/// owned while at least one row is left. The source's ledger record is checked at commit (a
/// deferred reference): the grant writes the entitlement before the record. Kept by a game reset.
enum EntitlementsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`). PostgreSQL also
    /// indexes the source, which its foreign key check reads.
    static let schema = SQLTable(
        "entitlements",
        columns: [
            SQLColumn("player_id", .key), SQLColumn("entitlement_id", .key), SQLColumn("source_store", .key),
            SQLColumn("source_transaction_id", .key), SQLColumn("granted_at_ms", .integer),
        ],
        primaryKey: ["player_id", "entitlement_id", "source_store", "source_transaction_id"],
        foreignKeys: [SQLForeignKey(["source_store", "source_transaction_id"], references: "ledger_transactions", ["store", "transaction_id"])],
        indexes: [SQLIndex("entitlements_by_source", on: ["source_store", "source_transaction_id"], engines: ["postgresql"])])

    /// Most entitlements read for one player.
    static let rowCountMax = 10_000

    static let selectByPlayerSQL = """
        SELECT entitlement_id, granted_at_ms, source_store, source_transaction_id FROM entitlements WHERE player_id = ?
        ORDER BY entitlement_id, granted_at_ms, source_store, source_transaction_id LIMIT ?
        """
    static let insertSQL = """
        INSERT INTO entitlements (player_id, entitlement_id, granted_at_ms, source_store, source_transaction_id)
        VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
        """
    static let deleteSQL = """
        DELETE FROM entitlements
        WHERE player_id = ? AND entitlement_id = ? AND source_store = ? AND source_transaction_id = ?
        """
    /// Players owning each entitlement, for `ledger catalog diff`.
    static let ownerCountsSQL = """
        SELECT entitlement_id, count(DISTINCT player_id) FROM entitlements GROUP BY entitlement_id
        ORDER BY entitlement_id LIMIT ?
        """
}

extension LedgerReader {
    /// Every purchase paying for each of a player's entitlements, by entitlement ID then
    /// grant time: an entitlement is owned while it has at least one.
    public func entitlements(playerID: String) throws(LedgerError) -> [EntitlementRecord] {
        try rows(
            EntitlementsTable.selectByPlayerSQL, [.text(playerID), .count(EntitlementsTable.rowCountMax)],
            limit: EntitlementsTable.rowCountMax
        ) { (row) throws(LedgerError) in
            EntitlementRecord(
                entitlementID: try row.text(0), grantedAt: Date(ledgerMilliseconds: try row.int64(1)),
                source: TransactionKey(store: PlatformStore(rawValue: try row.text(2)), transactionID: try row.text(3)))
        }
    }
}

extension LedgerWriter {
    /// Records that `record.source` pays for the entitlement; returns false if that purchase
    /// already did (nothing changes then).
    public func grantEntitlement(_ record: EntitlementRecord, playerID: String) throws(LedgerError) -> Bool {
        try run(
            EntitlementsTable.insertSQL,
            [
                .text(playerID), .text(record.entitlementID), .milliseconds(record.grantedAt),
                .text(record.source.store.rawValue), .text(record.source.transactionID),
            ]) == 1
    }

    /// Records that `source` no longer pays for the player's entitlement; returns false if it
    /// did not. The player still owns it while another purchase pays for it.
    public func releaseEntitlement(playerID: String, entitlementID: String, source: TransactionKey) throws(LedgerError) -> Bool {
        try run(
            EntitlementsTable.deleteSQL,
            [.text(playerID), .text(entitlementID), .text(source.store.rawValue), .text(source.transactionID)]) == 1
    }
}
