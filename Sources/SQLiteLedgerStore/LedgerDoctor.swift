import CSQLite
import FulfillmentLedger
import Foundation

/// A read-only health report of a ledger file, for `ledger doctor`.
public struct LedgerHealthReport: Hashable, Sendable, Codable {
    /// A finish still owed to the platform, with its age.
    public struct PendingFinishAge: Hashable, Sendable, Codable {
        /// The transaction.
        public var key: TransactionKey
        /// The player.
        public var playerID: String
        /// Seconds since the grant committed.
        public var ageSeconds: Int64
        /// Failed attempts so far.
        public var attemptCount: Int
        /// The last failure.
        public var lastError: String?
        /// Older than the warning age: Google Play refunds what is not acknowledged in 3 days.
        public var overdue: Bool
    }

    /// The file inspected.
    public var path: String
    /// Its schema version.
    public var schemaVersion: Int
    /// The newest schema version this build knows.
    public var schemaVersionSupported: Int
    /// `ok`, or what `PRAGMA integrity_check` found.
    public var integrity: [String]
    /// Ledger records held.
    public var transactionCount: Int64
    /// Pending finishes, oldest first (at most `pendingFinishCountMax`).
    public var pendingFinishes: [PendingFinishAge]
    /// The age in seconds beyond which a pending finish is overdue.
    public var finishWarningAgeSeconds: Int64
    /// How many pending finishes are overdue.
    public var overdueFinishCount: Int
    /// Whether the file is healthy: integrity ok and schema current.
    public var healthy: Bool
}

/// Inspects ledger files without ever modifying them.
public enum LedgerDoctor {
    /// Most pending finishes listed in a report.
    public static let pendingFinishCountMax = 1_000
    /// How long the doctor waits for another process's lock.
    public static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Removes side files the doctor created, but never a -wal that holds data.
    private static func removeSideFiles(_ created: [String]) {
        let wal = created.first { $0.hasSuffix("-wal") }
        if let wal, let size = (try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int, size > 0 {
            return
        }
        for file in created { try? FileManager.default.removeItem(atPath: file) }
    }

    /// Opens `path` read-only and reports schema, integrity and pending finishes.
    /// Throws the same typed errors as opening the store for an unreadable file.
    public static func examine(
        path: String, now: Date = Date(), finishWarningAgeSeconds: Int64 = 24 * 60 * 60
    ) throws(LedgerError) -> LedgerHealthReport {
        guard FileManager.default.fileExists(atPath: path) else { throw LedgerError.ledgerMissing(path: path) }
        let sideFiles = ["-wal", "-shm"].map { path + $0 }
        let sideFilesBefore = Set(sideFiles.filter { FileManager.default.fileExists(atPath: $0) })
        // A read-only connection to a WAL file creates -wal and -shm it cannot remove on close;
        // remove the ones this look created, when the -wal holds nothing.
        defer { removeSideFiles(sideFiles.filter { !sideFilesBefore.contains($0) }) }
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, mode: .readOnly)
        } catch {
            throw LedgerFileInspector.fileError(error, path: path)
        }
        defer { connection.close() }
        connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        let header = try LedgerFileInspector.inspectHeader(connection, path: path)
        guard !header.isEmpty else { throw LedgerError.notALedger(path: path, detail: "the database is empty") }
        let integrity = try LedgerFileInspector.integrityProblems(connection, path: path, level: .full)
        let session = SQLiteLedgerSession(connection: connection)
        let pending = try session.pendingFinishes(limit: pendingFinishCountMax)
        let count = try session.sql { () throws(SQLiteError) in
            try connection.integer("SELECT count(*) FROM ledger_transactions")
        }
        let nowMilliseconds = now.ledgerMilliseconds
        let ages = pending.map { row -> LedgerHealthReport.PendingFinishAge in
            let age = max(0, (nowMilliseconds - row.enqueuedAt.ledgerMilliseconds) / 1000)
            return .init(
                key: row.key, playerID: row.playerID, ageSeconds: age, attemptCount: row.attemptCount,
                lastError: row.lastError, overdue: age >= finishWarningAgeSeconds)
        }
        return LedgerHealthReport(
            path: path, schemaVersion: header.userVersion, schemaVersionSupported: LedgerSchema.versionSupported,
            integrity: integrity.isEmpty ? ["ok"] : integrity, transactionCount: count, pendingFinishes: ages,
            finishWarningAgeSeconds: finishWarningAgeSeconds, overdueFinishCount: ages.filter(\.overdue).count,
            healthy: integrity.isEmpty && header.userVersion == LedgerSchema.versionSupported)
    }
}
