import Foundation
import FulfillmentLedger

/// `economy_operations`: the game's own spends and grants, keyed by operation ID so a
/// retried operation applies once.
enum EconomyOperationsTable {
    static let createSQL = """
        CREATE TABLE economy_operations (
            operation_id TEXT PRIMARY KEY NOT NULL,
            player_id TEXT NOT NULL,
            direction TEXT NOT NULL,
            asset_kind TEXT NOT NULL,
            asset_id TEXT NOT NULL,
            amount INTEGER NOT NULL CHECK (amount > 0),
            balance_after INTEGER NOT NULL,
            applied_at_ms INTEGER NOT NULL
        ) WITHOUT ROWID;
        """
}

extension SQLiteLedgerSession {
    func operation(id: String) throws(LedgerError) -> OperationRecord? {
        let row = try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                SELECT operation_id, player_id, direction, asset_kind, asset_id, amount, balance_after, applied_at_ms
                FROM economy_operations WHERE operation_id = ?
                """
            ).queryOne([.text(id)]) { row in
                (row.text(0), row.text(1), row.text(2), row.text(3), row.text(4), row.int64(5), row.int64(6), row.int64(7))
            }
        }
        guard let row else { return nil }
        guard let record = StoredForm.operationRecord(row) else { throw corrupt("economy operation \(id)") }
        return record
    }

    func insertOperation(_ record: OperationRecord) throws(LedgerError) {
        let operation = record.operation
        try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                INSERT INTO economy_operations
                    (operation_id, player_id, direction, asset_kind, asset_id, amount, balance_after, applied_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
            ).run([
                .text(operation.operationID), .text(operation.playerID), .text(operation.direction.rawValue),
                .text(operation.asset.rawValue), .text(operation.assetID), .integer(operation.amount),
                .integer(record.balanceAfter), .integer(record.appliedAt.ledgerMilliseconds),
            ])
        }
    }
}
