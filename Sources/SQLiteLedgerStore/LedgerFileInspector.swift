import CSQLite
import FulfillmentLedger
import Foundation

/// Reads a ledger file's header and checks it, without writing anything.
enum LedgerFileInspector {
    struct Header {
        var applicationID: Int32
        var userVersion: Int
        var objectCount: Int
        /// A brand-new file: nothing in it yet, so it may be initialised.
        var isEmpty: Bool { applicationID == 0 && userVersion == 0 && objectCount == 0 }
    }

    /// The typed error for a SQLite failure on a ledger file, naming the file: "not a
    /// database" means the file is not ours, "malformed" means it is damaged, and anything
    /// else (a lock, an I/O error) is the disk or the OS, never a verdict on the file.
    static func fileError(_ error: SQLiteError, path: String) -> LedgerError {
        switch error.resultCode {
        case SQLITE_NOTADB: return .notALedger(location: path, detail: error.message)
        case SQLITE_CORRUPT: return .integrityCheckFailed(location: path, detail: error.message)
        default:
            var named = error
            named.message = "\(path): \(error.message)"
            return named.ledgerError
        }
    }

    /// Opens the ledger file at `path`, waiting up to `busyTimeoutMilliseconds` for another
    /// connection's lock; a failure is `fileError`'s, naming the file.
    static func open(
        _ path: String, mode: SQLiteConnection.OpenMode, vfsName: String? = nil, busyTimeoutMilliseconds: Int32
    ) throws(LedgerError) -> SQLiteConnection {
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(path: path, mode: mode, vfsName: vfsName)
            connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            return connection
        } catch {
            throw fileError(error, path: path)
        }
    }

    /// Most problems an integrity check reports.
    static let integrityProblemCountMax = 20

    /// Reads `application_id`, `user_version` and the schema size; throws the typed error
    /// for a file that is not ours or is too new.
    static func inspectHeader(_ connection: SQLiteConnection, path: String) throws(LedgerError) -> Header {
        let header: Header
        do {
            header = Header(
                applicationID: Int32(truncatingIfNeeded: try connection.integer("PRAGMA application_id")),
                userVersion: Int(try connection.integer("PRAGMA user_version")),
                objectCount: Int(try connection.integer("SELECT count(*) FROM sqlite_schema")))
        } catch {
            throw fileError(error, path: path)
        }
        if header.isEmpty { return header }
        guard header.applicationID == LedgerSchema.applicationID else {
            throw LedgerError.foreignDatabase(location: path, applicationID: header.applicationID)
        }
        try LedgerSchemaDescription.checkNotNewer(header.userVersion, supported: LedgerSchema.versionSupported, location: path)
        return header
    }

    /// Runs the requested check; throws `.integrityCheckFailed` with what it found.
    static func check(
        _ connection: SQLiteConnection, path: String, level: SQLiteLedgerStore.OpenCheck
    ) throws(LedgerError) {
        let problems = try integrityProblems(connection, path: path, level: level)
        guard problems.isEmpty else {
            throw LedgerError.integrityCheckFailed(location: path, detail: problems.joined(separator: "; "))
        }
    }

    /// What the check reports; empty when the file is sound.
    static func integrityProblems(
        _ connection: SQLiteConnection, path: String, level: SQLiteLedgerStore.OpenCheck
    ) throws(LedgerError) -> [String] {
        let pragma: String
        switch level {
        case .none: return []
        case .quick: pragma = "PRAGMA quick_check(\(integrityProblemCountMax))"
        case .full: pragma = "PRAGMA integrity_check(\(integrityProblemCountMax))"
        }
        let lines: [String]
        do {
            lines = try connection.statement(pragma).query(rowCountMax: integrityProblemCountMax) { $0.text(0) }
        } catch {
            throw fileError(error, path: path)
        }
        return lines == ["ok"] ? [] : lines
    }
}
