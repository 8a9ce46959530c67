import Foundation
import FulfillmentLedger

/// The store port's reader and writer over one PostgreSQL connection, valid only inside one
/// `read` or `write` call. Each table's SQL lives in the file named after that table.
///
/// The first PostgreSQL failure is kept (`firstFailure`): after it the server refuses every
/// statement of the transaction, so it is the one that says whether the whole transaction may
/// run again.
final class PostgresLedgerSession: LedgerWriter {
    let connection: PostgresConnection
    /// The ledger's location as errors name it: the connection string without its password.
    let location: String
    /// The first failure of the transaction, if any.
    private(set) var firstFailure: PostgresError?
    /// Whether this transaction holds the change feed's lock (`EventsTable.feedLockSQL`).
    var holdsFeedLock = false

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
            throw PostgresLedgerStore.ledgerError(error)
        }
    }

    /// Rows of a query, at most `limit` (the SQL must say `LIMIT` as well), each mapped.
    func rows<T>(
        _ statement: String, _ parameters: [PostgresValue], limit: Int, _ map: (PostgresRow) throws(PostgresError) -> T
    ) throws(LedgerError) -> [T] {
        try sql { () throws(PostgresError) -> [T] in
            var mapped: [T] = []
            for row in try connection.query(statement, parameters, rowCountMax: limit).rows { mapped.append(try map(row)) }
            return mapped
        }
    }

    /// The first row of a query that returns at most one, mapped.
    func one<T>(
        _ statement: String, _ parameters: [PostgresValue], _ map: (PostgresRow) throws(PostgresError) -> T
    ) throws(LedgerError) -> T? {
        try rows(statement, parameters, limit: 1, map).first
    }

    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    func run(_ statement: String, _ parameters: [PostgresValue]) throws(LedgerError) -> Int64 {
        try sql { () throws(PostgresError) in try connection.query(statement, parameters, rowCountMax: 0).affectedRowCount }
    }

    /// Reports a stored value that does not decode: the database was changed outside the ledger.
    func corrupt(_ what: String) -> LedgerError {
        .integrityCheckFailed(location: location, detail: "unreadable \(what)")
    }
}

extension PostgresValue {
    /// An optional boolean, `null` when absent.
    static func bool(_ value: Bool?) -> PostgresValue { value.map { .bool($0) } ?? .null }

    /// A date as the ledger stores it: milliseconds since 1970.
    static func milliseconds(_ date: Date?) -> PostgresValue { .int64(date?.ledgerMilliseconds) }

    /// A count or limit.
    static func count(_ value: Int) -> PostgresValue { .int64(Int64(value)) }
}
