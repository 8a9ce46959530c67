import Foundation
import FulfillmentLedger

/// The PostgreSQL half of the ledger's data layer: one PostgreSQL connection inside one
/// transaction, for the data layer (`LedgerReader`, `LedgerWriter`), valid only inside one `read` or `write` call.
/// Statements arrive in the ledger's SQL and are rendered for PostgreSQL once per connection
/// (`PostgresConnection.rendered`), then prepared once and cached by that text.
///
/// The first PostgreSQL failure is kept (`firstFailure`): after it the server refuses every
/// statement of the transaction, so it is the one that says whether the whole transaction may
/// run again.
final class PostgresLedgerSession: SQLSession {
    let connection: PostgresConnection
    /// The ledger's location as errors name it: the connection string without its password.
    let location: String
    /// The first failure of the transaction, if any.
    private(set) var firstFailure: PostgresError?
    init(connection: PostgresConnection, location: String) {
        self.connection = connection
        self.location = location
    }

    /// Runs PostgreSQL calls and reports their errors in the core's terms, keeping the first.
    func sql<T>(_ body: () throws(PostgresError) -> T) throws(LedgerError) -> T {
        do {
            return try body()
        } catch {
            if firstFailure == nil { firstFailure = error }
            throw error.ledgerError
        }
    }

    var dialect: SQLDialect { .postgresql }

    func query(_ sql: String, _ parameters: [SQLValue], rowCountMax: Int) throws(LedgerError) -> [SQLRow] {
        let location = self.location
        return try self.sql { () throws(PostgresError) -> [SQLRow] in
            let statement = connection.rendered(sql, dialect: .postgresql)
            return try connection.query(statement, parameters, rowCountMax: rowCountMax).rows.map { row in
                SQLRow(values: row.row.values, location: location)
            }
        }
    }

    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws(LedgerError) -> Int {
        try self.sql { () throws(PostgresError) -> Int in
            let statement = connection.rendered(sql, dialect: .postgresql)
            return Int(try connection.query(statement, parameters, rowCountMax: 0).affectedRowCount)
        }
    }

    // `insertReturningSequence` is the shared `RETURNING` form (`SQLSession`).

    /// The data layer over this session.
    var ledger: LedgerWriter { LedgerWriter(engine: self) }
}
