import Foundation

/// `economy_operations`: the game's own spends and grants, keyed by operation ID so a retried
/// operation applies once; by player and time (`economy_operations_by_player`) for the
/// balance history.
enum EconomyOperationsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "economy_operations",
        columns: [
            SQLColumn("operation_id", .key), SQLColumn("player_id", .key), SQLColumn("direction", .text),
            SQLColumn("asset_kind", .text), SQLColumn("asset_id", .key), SQLColumn("amount", .integer, check: "amount > 0"),
            SQLColumn("balance_after", .integer), SQLColumn("applied_at_ms", .integer),
        ],
        primaryKey: ["operation_id"],
        indexes: [SQLIndex("economy_operations_by_player", on: ["player_id", "applied_at_ms"])])

    static let columns = "operation_id, player_id, direction, asset_kind, asset_id, amount, balance_after, applied_at_ms"
    static let selectOneSQL = "SELECT \(columns) FROM economy_operations WHERE operation_id = ?"
    static let selectByPlayerSQL = """
        SELECT \(columns) FROM economy_operations WHERE player_id = ?
        ORDER BY applied_at_ms DESC, operation_id DESC LIMIT ?
        """
    static let insertSQL = "INSERT INTO economy_operations (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
}

extension LedgerReader {
    /// An applied economy operation, if any.
    public func operation(id: String) throws(LedgerError) -> OperationRecord? {
        try operationRows(EconomyOperationsTable.selectOneSQL, [.text(id)], limit: 1, what: "economy operation \(id)").first
    }

    /// A player's applied economy operations, newest first (by applied time, then operation ID),
    /// at most `limit`.
    public func operations(playerID: String, limit: Int) throws(LedgerError) -> [OperationRecord] {
        let limit = max(0, limit)
        return try operationRows(
            EconomyOperationsTable.selectByPlayerSQL, [.text(playerID), .count(limit)], limit: limit,
            what: "economy operation of \(playerID)")
    }

    /// The records of a query over `EconomyOperationsTable.columns`, at most `limit`.
    private func operationRows(
        _ statement: String, _ parameters: [SQLValue], limit: Int, what: String
    ) throws(LedgerError) -> [OperationRecord] {
        try rows(statement, parameters, limit: limit) { (row) throws(LedgerError) in
            let stored = (
                try row.text(0), try row.text(1), try row.text(2), try row.text(3), try row.text(4), try row.int64(5),
                try row.int64(6), try row.int64(7)
            )
            guard let record = StoredForm.operationRecord(stored) else { throw corrupt(what) }
            return record
        }
    }
}

extension LedgerWriter {
    /// Stores an applied economy operation; the ID must be new.
    public func insertOperation(_ record: OperationRecord) throws(LedgerError) {
        let operation = record.operation
        try run(
            EconomyOperationsTable.insertSQL,
            [
                .text(operation.operationID), .text(operation.playerID), .text(operation.direction.rawValue),
                .text(operation.asset.rawValue), .text(operation.assetID), .integer(operation.amount),
                .integer(record.balanceAfter), .milliseconds(record.appliedAt),
            ])
    }
}
