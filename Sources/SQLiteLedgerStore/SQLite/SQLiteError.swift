import CSQLite
import FulfillmentLedger

/// An error from SQLite, with the extended result code and the statement that failed.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The primary result code, such as `SQLITE_CONSTRAINT` (19).
    public var resultCode: Int32 { extendedResultCode & 0xFF }
    /// The extended result code, such as `SQLITE_CONSTRAINT_PRIMARYKEY` (1555).
    public var extendedResultCode: Int32
    /// SQLite's message.
    public var message: String
    /// The SQL being run, if any.
    public var sql: String?

    /// Creates an error.
    public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// Reads the current error of a connection.
    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        // The connection's code can be stale when the failing call was not on it; prefer the call's.
        let chosen = (extended & 0xFF) == (code & 0xFF) ? extended : code
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(extendedResultCode: chosen, message: text, sql: sql)
    }

    /// `SQLite error 19 (1555): UNIQUE constraint failed: ... while executing ...`.
    public var description: String {
        var text = "SQLite error \(resultCode) (extended \(extendedResultCode)): \(message)"
        if let sql { text += " while executing `\(sql)`" }
        return text
    }

    /// The engine-neutral form the core understands: the codes as `primary/extended` text; busy
    /// and locked are retryable; an I/O error may have left a commit behind (outcome unknown).
    package var ledgerError: LedgerError { .storage(storageFailure) }

    /// The answer of work whose task was cancelled, `message` saying what of it ran: not a
    /// SQLite result code, and not retryable.
    static func cancelled(_ message: String) -> LedgerError {
        .storage(StorageFailure(engine: "sqlite", code: "cancelled", message: message, sql: nil, kind: .other))
    }

    /// The engine-neutral failure.
    package var storageFailure: StorageFailure {
        StorageFailure(
            engine: "sqlite", code: "\(resultCode)/\(extendedResultCode)", message: message, sql: sql, kind: kind)
    }

    /// The engine-neutral kind of SQLite's primary result code: busy and locked are `busy`; an
    /// I/O error may have left a commit behind (`commitOutcomeUnknown`); a damaged file is
    /// `corrupt`; a file that cannot be opened or written is `configuration`.
    package var kind: StorageFailure.Kind {
        switch resultCode {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_CONSTRAINT: .constraint
        case SQLITE_IOERR: .commitOutcomeUnknown
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt
        case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH: .configuration
        case SQLITE_INTERRUPT: .timeout
        default: .other
        }
    }
}

extension StorageFailure {
    /// SQLite's primary result code (such as 19 for `SQLITE_CONSTRAINT`), when SQLite failed.
    package var sqliteResultCode: Int32? { sqliteExtendedResultCode.map { $0 & 0xFF } }

    /// SQLite's extended result code (such as 2067), when SQLite failed.
    package var sqliteExtendedResultCode: Int32? {
        guard engine == "sqlite", let slash = code.firstIndex(of: "/") else { return nil }
        return Int32(code[code.index(after: slash)...])
    }
}
