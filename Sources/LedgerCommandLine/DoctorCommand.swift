import FulfillmentLedger
import Foundation
import PostgresLedgerStore
import SQLiteLedgerStore

/// `ledger doctor`: a read-only health report.
enum DoctorCommand {
    /// `--finish-warning-hours N`.
    static let finishWarningHours = CommandOption.integer(
        "finish-warning-hours", default: 24, range: 0...(24 * 365), help: "a pending finish older than N hours is overdue")
    /// `--limit N`.
    static let limit = CommonOptions.limit(max: LedgerDoctor.pendingFinishCountMax, of: "pending finishes")
    /// `--after CURSOR`.
    static let after = CommandOption(
        "after", "CURSOR", help: "list the pending finishes after CURSOR (MILLISECONDS/STORE/ID, as printed)")

    static let command = Command(
        words: ["doctor"],
        summary: "check a ledger read-only: schema, integrity, pending finishes, server settings",
        description: """
            Opens the ledger read-only and reports its schema version, how many finishes are
            pending and how many are overdue (older than N hours, default 24: Google Play
            refunds purchases not acknowledged within 3 days), and lists the pending finishes
            with their age, oldest first, at most \(LedgerDoctor.pendingFinishCountMax) per call. When more
            follow, it says so and names the --after value of the next page. Never modifies
            the database, and never creates one; waits at most
            \(LedgerDoctor.busyTimeoutMilliseconds / 1_000) s for another process's lock on a SQLite file.

            A SQLite file (DB a path) also gets PRAGMA integrity_check. A PostgreSQL ledger
            (DB a postgresql:// URL; default: $LEDGER_DATABASE_URL) is reported with the
            server's version and the settings that decide what a durable commit means:
            synchronous_commit off or fsync off makes it NOT HEALTHY.

            exit codes: 0 healthy, 1 unreadable, unreachable, foreign, newer or damaged
              ledger, or unsafe server settings, 64 usage, 66 database missing
            """,
        options: [LedgerDatabase.option, CommonOptions.json, finishWarningHours, limit, after],
        run: { arguments, io in
            let database: LedgerDatabase
            var warningHours: Int64 = 24
            let limit: Int
            var cursor: PendingFinishCursor?
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try LedgerDatabase(arguments, io: io)
                warningHours = Int64(try arguments.integer(finishWarningHours))
                limit = try arguments.integer(Self.limit)
                if let text = arguments.value(after) {
                    guard let parsed = PendingFinishCursor(text) else {
                        throw Arguments.UsageError(message: "--after takes MILLISECONDS/STORE/ID, as the previous page printed it")
                    }
                    cursor = parsed
                }
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "doctor")
            }
            let ageSeconds = warningHours * 3600
            switch database {
            case .sqlite(let path):
                let report: LedgerHealthReport
                do throws(LedgerError) {
                    report = try LedgerDoctor.examine(
                        path: path, finishWarningAgeSeconds: ageSeconds, pendingFinishLimit: limit, after: cursor)
                } catch {
                    return LedgerCommandLine.report(error, io: io, command: "doctor")
                }
                if arguments.flag(CommonOptions.json) { io.printJSON(report) } else { printText(report, io: io) }
                return report.healthy ? .ok : .failure
            case .postgres(let connectionString):
                let report: PostgresHealthReport
                do throws(LedgerError) {
                    report = try await PostgresLedgerDoctor.examine(
                        connectionString: connectionString, finishWarningAgeSeconds: ageSeconds,
                        pendingFinishLimit: limit, after: cursor)
                } catch {
                    return LedgerCommandLine.report(error, io: io, command: "doctor")
                }
                if arguments.flag(CommonOptions.json) { io.printJSON(report) } else { printText(report, io: io) }
                return report.healthy ? .ok : .failure
            }
        })

    static func printText(_ report: LedgerHealthReport, io: CommandIO) {
        io.print("ledger:           \(report.path)")
        io.print("schema version:   \(report.schemaVersion) (this build: \(report.schemaVersionSupported))")
        io.print("integrity:        \(report.integrity.joined(separator: "; "))")
        printPending(
            transactionCount: report.transactionCount, pending: report.pendingFinishes,
            pendingCount: report.pendingFinishCount, nextAfter: report.nextAfter,
            overdueCount: report.overdueFinishCount, warningAgeSeconds: report.finishWarningAgeSeconds, io: io)
        if let warning = report.unacknowledgedPlayVoids.warning { io.print(warning) }
        io.print(report.healthy ? "healthy" : "NOT HEALTHY")
    }

    static func printText(_ report: PostgresHealthReport, io: CommandIO) {
        io.print("ledger:             \(report.location)")
        io.print("server:             PostgreSQL \(report.server.serverVersion)")
        io.print("schema version:     \(report.schemaVersion) (this build: \(report.schemaVersionSupported))")
        io.print("synchronous_commit: \(report.server.synchronousCommit)")
        io.print("fsync:              \(report.server.fsync)")
        printPending(
            transactionCount: report.transactionCount, pending: report.pendingFinishes,
            pendingCount: report.pendingFinishCount, nextAfter: report.nextAfter,
            overdueCount: report.overdueFinishCount, warningAgeSeconds: report.finishWarningAgeSeconds, io: io)
        if let warning = report.unacknowledgedPlayVoids.warning { io.print(warning) }
        for problem in report.problems { io.print("problem: \(problem)") }
        io.print(report.healthy ? "healthy" : "NOT HEALTHY")
    }

    /// The lines both engines' reports share: the counts, the page of pending finishes, the warning.
    private static func printPending(
        transactionCount: Int64, pending: [PendingFinishAge], pendingCount: Int64, nextAfter: PendingFinishCursor?,
        overdueCount: Int64, warningAgeSeconds: Int64, io: CommandIO
    ) {
        io.print("transactions:     \(transactionCount)")
        io.print("pending finishes: \(pendingCount)")
        for finish in pending {
            let error = finish.lastError.map { ", last error: \($0)" } ?? ""
            let overdue = finish.overdue ? " OVERDUE" : ""
            io.print(
                "  \(finish.key) player \(finish.playerID): \(finish.ageSeconds)s old, \(finish.attemptCount) failed attempt(s)\(error)\(overdue)"
            )
        }
        if let nextAfter {
            io.print(
                "truncated: \(pending.count) of \(pendingCount) pending finish(es) listed and more follow; next page: the same command with --after \(nextAfter)")
        }
        if overdueCount > 0 {
            io.print("warning: \(overdueCount) finish(es) pending longer than \(warningAgeSeconds / 3600)h; run `ledger recover`")
        }
    }
}
