import Foundation
import FulfillmentLedger

/// `entitlements`: what each player owns (`remove_ads`), one row per purchase that pays for it;
/// owned while at least one row is left. Kept by a game reset.
enum EntitlementsTable {
    // The source reference is deferred: the grant writes the entitlement before the ledger row
    // of the same transaction, and both commit together.
    static let createSQL = """
        CREATE TABLE entitlements (
            player_id text COLLATE "C" NOT NULL,
            entitlement_id text COLLATE "C" NOT NULL,
            source_store text COLLATE "C" NOT NULL,
            source_transaction_id text COLLATE "C" NOT NULL,
            granted_at_ms bigint NOT NULL,
            PRIMARY KEY (player_id, entitlement_id, source_store, source_transaction_id),
            FOREIGN KEY (source_store, source_transaction_id)
                REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
        );
        CREATE INDEX entitlements_by_source ON entitlements (source_store, source_transaction_id);
        """

    /// Most entitlements read for one player.
    static let rowCountMax = 10_000

    static let selectByPlayerSQL = """
        SELECT entitlement_id, granted_at_ms, source_store, source_transaction_id FROM entitlements WHERE player_id = $1
        ORDER BY entitlement_id, granted_at_ms, source_store, source_transaction_id LIMIT $2
        """
    static let insertSQL = """
        INSERT INTO entitlements (player_id, entitlement_id, granted_at_ms, source_store, source_transaction_id)
        VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING
        """
    static let deleteSQL = """
        DELETE FROM entitlements
        WHERE player_id = $1 AND entitlement_id = $2 AND source_store = $3 AND source_transaction_id = $4
        """
    static let ownerCountsSQL = """
        SELECT entitlement_id, count(DISTINCT player_id) FROM entitlements GROUP BY entitlement_id
        ORDER BY entitlement_id LIMIT $1
        """
}

extension PostgresLedgerSession {
    func entitlements(playerID: String) throws(LedgerError) -> [EntitlementRecord] {
        try rows(
            EntitlementsTable.selectByPlayerSQL, [.text(playerID), .count(EntitlementsTable.rowCountMax)],
            limit: EntitlementsTable.rowCountMax
        ) { (row) throws(PostgresError) in
            EntitlementRecord(
                entitlementID: try row.text(0), grantedAt: Date(ledgerMilliseconds: try row.int64(1)),
                source: TransactionKey(store: PlatformStore(rawValue: try row.text(2)), transactionID: try row.text(3)))
        }
    }

    func grantEntitlement(_ record: EntitlementRecord, playerID: String) throws(LedgerError) -> Bool {
        try run(
            EntitlementsTable.insertSQL,
            [
                .text(playerID), .text(record.entitlementID), .milliseconds(record.grantedAt),
                .text(record.source.store.rawValue), .text(record.source.transactionID),
            ]) == 1
    }

    func releaseEntitlement(playerID: String, entitlementID: String, source: TransactionKey) throws(LedgerError) -> Bool {
        try run(
            EntitlementsTable.deleteSQL,
            [.text(playerID), .text(entitlementID), .text(source.store.rawValue), .text(source.transactionID)]) == 1
    }
}
