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
    /// Added by migration 9: a player's operations, newest first, for the balance history.
    static let createPlayerIndexSQL = """
        CREATE INDEX economy_operations_by_player ON economy_operations (player_id, applied_at_ms);
        """

    static let columns = "operation_id, player_id, direction, asset_kind, asset_id, amount, balance_after, applied_at_ms"
    static let selectOneSQL = "SELECT \(columns) FROM economy_operations WHERE operation_id = ?"
    static let selectByPlayerSQL = """
        SELECT \(columns) FROM economy_operations WHERE player_id = ?
        ORDER BY applied_at_ms DESC, operation_id DESC LIMIT ?
        """
    static let insertSQL = "INSERT INTO economy_operations (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
}

extension SQLiteLedgerSession {
    func operation(id: String) throws(LedgerError) -> OperationRecord? {
        try operationRows(EconomyOperationsTable.selectOneSQL, [.text(id)], limit: 1, what: "economy operation \(id)").first
    }

    func operations(playerID: String, limit: Int) throws(LedgerError) -> [OperationRecord] {
        let limit = max(0, limit)
        return try operationRows(
            EconomyOperationsTable.selectByPlayerSQL, [.text(playerID), .integer(Int64(limit))], limit: limit,
            what: "economy operation of \(playerID)")
    }

    func insertOperation(_ record: OperationRecord) throws(LedgerError) {
        let operation = record.operation
        try sql { () throws(SQLiteError) in
            try connection.statement(EconomyOperationsTable.insertSQL).run([
                .text(operation.operationID), .text(operation.playerID), .text(operation.direction.rawValue),
                .text(operation.asset.rawValue), .text(operation.assetID), .integer(operation.amount),
                .integer(record.balanceAfter), .integer(record.appliedAt.ledgerMilliseconds),
            ])
        }
    }

    /// The records of a query over `EconomyOperationsTable.columns`, at most `limit`.
    private func operationRows(
        _ statement: String, _ values: [SQLiteValue], limit: Int, what: String
    ) throws(LedgerError) -> [OperationRecord] {
        let rows = try sql { () throws(SQLiteError) in
            try connection.statement(statement).query(values, rowCountMax: limit) { row in
                (row.text(0), row.text(1), row.text(2), row.text(3), row.text(4), row.int64(5), row.int64(6), row.int64(7))
            }
        }
        var records: [OperationRecord] = []
        for row in rows {
            guard let record = StoredForm.operationRecord(row) else { throw corrupt(what) }
            records.append(record)
        }
        return records
    }
}
