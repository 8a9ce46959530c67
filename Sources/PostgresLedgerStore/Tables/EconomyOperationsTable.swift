import Foundation
import FulfillmentLedger

/// `economy_operations`: the game's own spends and grants, keyed by operation ID so a retried
/// operation applies once.
enum EconomyOperationsTable {
    static let createSQL = """
        CREATE TABLE economy_operations (
            operation_id text COLLATE "C" PRIMARY KEY,
            player_id text COLLATE "C" NOT NULL,
            direction text NOT NULL,
            asset_kind text NOT NULL,
            asset_id text COLLATE "C" NOT NULL,
            amount bigint NOT NULL CHECK (amount > 0),
            balance_after bigint NOT NULL,
            applied_at_ms bigint NOT NULL
        );
        """
    /// Added by migration 4: a player's operations, newest first, for the balance history.
    static let createPlayerIndexSQL = """
        CREATE INDEX economy_operations_by_player ON economy_operations (player_id, applied_at_ms);
        """

    static let columns = "operation_id, player_id, direction, asset_kind, asset_id, amount, balance_after, applied_at_ms"
    static let selectOneSQL = "SELECT \(columns) FROM economy_operations WHERE operation_id = $1"
    static let selectByPlayerSQL = """
        SELECT \(columns) FROM economy_operations WHERE player_id = $1
        ORDER BY applied_at_ms DESC, operation_id DESC LIMIT $2
        """
    static let insertSQL = "INSERT INTO economy_operations (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
}

extension PostgresLedgerSession {
    func operation(id: String) throws(LedgerError) -> OperationRecord? {
        try operationRows(EconomyOperationsTable.selectOneSQL, [.text(id)], limit: 1, what: "economy operation \(id)").first
    }

    func operations(playerID: String, limit: Int) throws(LedgerError) -> [OperationRecord] {
        let limit = max(0, limit)
        return try operationRows(
            EconomyOperationsTable.selectByPlayerSQL, [.text(playerID), .count(limit)], limit: limit,
            what: "economy operation of \(playerID)")
    }

    func insertOperation(_ record: OperationRecord) throws(LedgerError) {
        let operation = record.operation
        try run(
            EconomyOperationsTable.insertSQL,
            [
                .text(operation.operationID), .text(operation.playerID), .text(operation.direction.rawValue),
                .text(operation.asset.rawValue), .text(operation.assetID), .int64(operation.amount),
                .int64(record.balanceAfter), .milliseconds(record.appliedAt),
            ])
    }

    /// The records of a query over `EconomyOperationsTable.columns`, at most `limit`.
    private func operationRows(
        _ statement: String, _ parameters: [PostgresValue], limit: Int, what: String
    ) throws(LedgerError) -> [OperationRecord] {
        let found = try rows(statement, parameters, limit: limit) { (row) throws(PostgresError) in
            (
                try row.text(0), try row.text(1), try row.text(2), try row.text(3), try row.text(4), try row.int64(5),
                try row.int64(6), try row.int64(7)
            )
        }
        var records: [OperationRecord] = []
        for row in found {
            guard let record = StoredForm.operationRecord(row) else { throw corrupt(what) }
            records.append(record)
        }
        return records
    }
}
