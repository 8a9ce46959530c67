import Foundation
import FulfillmentLedger

/// `entitlements`: what each player owns (`remove_ads`), one row per purchase that pays for
/// it; owned while at least one row is left. Kept by a game reset.
enum EntitlementsTable {
    // The source reference is deferred: the grant writes the entitlement before the
    // ledger row of the same transaction, and both commit together.
    static let createSQL = """
        CREATE TABLE entitlements (
            player_id TEXT NOT NULL,
            entitlement_id TEXT NOT NULL,
            granted_at_ms INTEGER NOT NULL,
            source_store TEXT NOT NULL,
            source_transaction_id TEXT NOT NULL,
            PRIMARY KEY (player_id, entitlement_id),
            FOREIGN KEY (source_store, source_transaction_id)
                REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
        ) WITHOUT ROWID;
        """

    /// Migration 5: a row per purchase that pays for a player's entitlement, so refunding one
    /// of two purchases that grant the same entitlement leaves it owned. Existing rows (one
    /// per owned entitlement) carry over as they are.
    static let payersSQL = """
        CREATE TABLE entitlement_payers (
            player_id TEXT NOT NULL,
            entitlement_id TEXT NOT NULL,
            source_store TEXT NOT NULL,
            source_transaction_id TEXT NOT NULL,
            granted_at_ms INTEGER NOT NULL,
            PRIMARY KEY (player_id, entitlement_id, source_store, source_transaction_id),
            FOREIGN KEY (source_store, source_transaction_id)
                REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
        ) WITHOUT ROWID;
        INSERT INTO entitlement_payers
            SELECT player_id, entitlement_id, source_store, source_transaction_id, granted_at_ms FROM entitlements;
        DROP TABLE entitlements;
        ALTER TABLE entitlement_payers RENAME TO entitlements;
        """

    /// Most entitlements read for one player.
    static let rowCountMax = 10_000

    /// Players owning each entitlement, for `ledger catalog diff`.
    static let ownerCountsSQL =
        "SELECT entitlement_id, count(DISTINCT player_id) FROM entitlements GROUP BY entitlement_id ORDER BY entitlement_id LIMIT ?"
}

extension SQLiteLedgerSession {
    func entitlements(playerID: String) throws(LedgerError) -> [EntitlementRecord] {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                SELECT entitlement_id, granted_at_ms, source_store, source_transaction_id
                FROM entitlements WHERE player_id = ? ORDER BY entitlement_id, granted_at_ms, source_store, source_transaction_id
                """
            ).query([.text(playerID)], rowCountMax: EntitlementsTable.rowCountMax) { row in
                EntitlementRecord(
                    entitlementID: row.text(0), grantedAt: Date(ledgerMilliseconds: row.int64(1)),
                    source: TransactionKey(store: PlatformStore(rawValue: row.text(2)), transactionID: row.text(3)))
            }
        }
    }

    func grantEntitlement(_ record: EntitlementRecord, playerID: String) throws(LedgerError) -> Bool {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                INSERT INTO entitlements (player_id, entitlement_id, granted_at_ms, source_store, source_transaction_id)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """
            ).run([
                .text(playerID), .text(record.entitlementID), .integer(record.grantedAt.ledgerMilliseconds),
                .text(record.source.store.rawValue), .text(record.source.transactionID),
            ])
            return connection.changes == 1
        }
    }

    /// Deletes one purchase's payment for an entitlement; false when it did not pay for it.
    func releaseEntitlement(playerID: String, entitlementID: String, source: TransactionKey) throws(LedgerError) -> Bool {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                DELETE FROM entitlements
                WHERE player_id = ? AND entitlement_id = ? AND source_store = ? AND source_transaction_id = ?
                """
            ).run([.text(playerID), .text(entitlementID), .text(source.store.rawValue), .text(source.transactionID)])
            return connection.changes == 1
        }
    }
}
