import CSQLite
import FulfillmentLedger
import LedgerSQL
import Foundation

/// A read-only health report of a ledger file, for `ledger doctor`.
public struct LedgerHealthReport: Hashable, Sendable, Codable {
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
    /// One page of pending finishes, oldest first: at most the limit asked for (at most
    /// `pendingFinishCountMax`), after the cursor asked for.
    public var pendingFinishes: [PendingFinishAge]
    /// How many finishes are pending in all, listed or not.
    public var pendingFinishCount: Int64
    /// Whether more pending finishes follow this page.
    public var pendingFinishesTruncated: Bool
    /// Where the next page starts (`ledger doctor --after`), when more follow.
    public var nextAfter: PendingFinishCursor?
    /// The age in seconds beyond which a pending finish is overdue.
    public var finishWarningAgeSeconds: Int64
    /// How many pending finishes are overdue in all, listed or not.
    public var overdueFinishCount: Int64
    /// Google Play's refunds of purchases not acknowledged in time, in the last 30 days.
    public var unacknowledgedPlayVoids: UnacknowledgedVoidCount
    /// Whether the file is healthy: integrity ok and schema current.
    public var healthy: Bool
}

/// Inspects ledger files without ever modifying them.
public enum LedgerDoctor {
    /// Most pending finishes listed in one report; page through more with `after`.
    public static let pendingFinishCountMax = LedgerDoctorContents.pendingFinishCountMax
    /// How long the doctor waits for another process's lock.
    public static let busyTimeoutMilliseconds: Int32 = 5_000

    /// What a full integrity check of the closed ledger at `path` found, joined; nil when it is
    /// ok. An unreadable file is a problem too: the simulation's end-of-run check.
    public static func integrityProblem(path: String) -> String? {
        do throws(LedgerError) {
            let report = try examine(path: path)
            return report.integrity == ["ok"] ? nil : report.integrity.joined(separator: "; ")
        } catch {
            return error.description
        }
    }

    /// Removes side files the doctor created, but never a -wal that holds data.
    private static func removeSideFiles(_ created: [String]) {
        let wal = created.first { $0.hasSuffix("-wal") }
        if let wal, let size = (try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int, size > 0 {
            return
        }
        for file in created { try? FileManager.default.removeItem(atPath: file) }
    }

    /// Opens `path` read-only and reports schema, integrity and pending finishes: the counts in
    /// full, and one page of at most `pendingFinishLimit` rows (1 to `pendingFinishCountMax`),
    /// oldest first, after `cursor`. Throws the same typed errors as opening the store for an
    /// unreadable file, and `invalidArgument` for a limit out of range.
    public static func examine(
        path: String, now: Date = Date(), finishWarningAgeSeconds: Int64 = 24 * 60 * 60,
        pendingFinishLimit: Int = pendingFinishCountMax, after cursor: PendingFinishCursor? = nil
    ) throws(LedgerError) -> LedgerHealthReport {
        try LedgerDoctorContents.checkLimit(pendingFinishLimit)
        guard FileManager.default.fileExists(atPath: path) else { throw LedgerError.ledgerMissing(location: path) }
        let sideFiles = ["-wal", "-shm"].map { path + $0 }
        let sideFilesBefore = Set(sideFiles.filter { FileManager.default.fileExists(atPath: $0) })
        // A read-only connection to a WAL file creates -wal and -shm it cannot remove on close;
        // remove the ones this look created, when the -wal holds nothing.
        defer { removeSideFiles(sideFiles.filter { !sideFilesBefore.contains($0) }) }
        let connection = try LedgerFileInspector.open(path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer { connection.close() }
        let header = try LedgerFileInspector.inspectHeader(connection, path: path)
        guard !header.isEmpty else { throw LedgerError.notALedger(location: path, detail: "the database is empty") }
        let integrity = try LedgerFileInspector.integrityProblems(connection, path: path, level: .full)
        // A file the doctor may not migrate keeps its finishes where its schema put them, and
        // one older than the refund tables has no refunds to count.
        let contents = try LedgerDoctorContents(
            LedgerReader(engine: SQLiteLedgerSession(connection: connection)), now: now, finishWarningAgeSeconds: finishWarningAgeSeconds,
            limit: pendingFinishLimit, after: cursor,
            queries: header.userVersion < LedgerSchema.pendingFinishOnRecordVersion ? .legacy : .current,
            hasRevocationEvents: header.userVersion >= LedgerSchema.revocationEventsVersion)
        return LedgerHealthReport(
            path: path, schemaVersion: header.userVersion, schemaVersionSupported: LedgerSchema.versionSupported,
            integrity: integrity.isEmpty ? ["ok"] : integrity, transactionCount: contents.transactionCount,
            pendingFinishes: contents.pendingFinishes, pendingFinishCount: contents.pendingFinishCount,
            pendingFinishesTruncated: contents.pendingFinishesTruncated, nextAfter: contents.nextAfter,
            finishWarningAgeSeconds: finishWarningAgeSeconds, overdueFinishCount: contents.overdueFinishCount,
            unacknowledgedPlayVoids: contents.unacknowledgedPlayVoids,
            healthy: integrity.isEmpty && header.userVersion == LedgerSchema.versionSupported)
    }
}

extension PendingFinishesQueries {
    /// The outbox of schemas 1 to 5 (`pending_finishes`), which the doctor still reads in a
    /// file not yet migrated.
    static let legacy = PendingFinishesQueries(
        table: "pending_finishes", since: "enqueued_at_ms", attempts: "attempt_count", error: "last_error",
        pendingFilter: "1")
}
