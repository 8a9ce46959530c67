import FulfillmentLedger
import Foundation
import SQLiteLedgerStore

/// `ledger doctor`: a read-only health report.
enum DoctorCommand {
    static let command = Command(
        words: ["doctor"],
        summary: "check a ledger file read-only: schema, integrity, pending finishes",
        help: """
            usage: ledger doctor --db FILE [--json] [--finish-warning-hours N]
                     [--limit N] [--after CURSOR]

            Opens the ledger read-only and reports its schema version, the result of
            PRAGMA integrity_check, how many finishes are pending and how many are overdue
            (older than N hours, default 24: Google Play refunds purchases not acknowledged
            within 3 days), and lists the pending finishes with their age, oldest first, at
            most \(LedgerDoctor.pendingFinishCountMax) per call. When more follow, it says so and names
            the --after value of the next page. Never modifies the file, and never creates one.

            options:
              --limit N       list at most N pending finishes (1 to \(LedgerDoctor.pendingFinishCountMax))
              --after CURSOR  list the ones after CURSOR (MILLISECONDS/STORE/ID, as printed)

            exit codes: 0 healthy, 1 unreadable, foreign, newer or damaged ledger,
              64 usage, 66 file missing
            """,
        valueOptions: ["db", "finish-warning-hours", "limit", "after"],
        flagOptions: ["json"],
        run: { arguments, io in
            let database: String
            var warningHours: Int64 = 24
            let limit: Int
            var cursor: PendingFinishCursor?
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try arguments.required("db")
                if let text = arguments.value("finish-warning-hours") {
                    guard let hours = Int64(text), hours >= 0, hours <= 24 * 365 else {
                        throw Arguments.UsageError(message: "--finish-warning-hours needs a whole number of hours")
                    }
                    warningHours = hours
                }
                limit = try arguments.limit(max: LedgerDoctor.pendingFinishCountMax)
                if let text = arguments.value("after") {
                    guard let parsed = PendingFinishCursor(text) else {
                        throw Arguments.UsageError(message: "--after takes MILLISECONDS/STORE/ID, as the previous page printed it")
                    }
                    cursor = parsed
                }
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "doctor")
            }
            let report: LedgerHealthReport
            do throws(LedgerError) {
                report = try LedgerDoctor.examine(
                    path: database, finishWarningAgeSeconds: warningHours * 3600, pendingFinishLimit: limit, after: cursor)
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "doctor")
            }
            if arguments.flag("json") {
                io.printJSON(report)
            } else {
                printText(report, io: io)
            }
            return report.healthy ? .ok : .failure
        })

    static func printText(_ report: LedgerHealthReport, io: CommandIO) {
        io.print("ledger:           \(report.path)")
        io.print("schema version:   \(report.schemaVersion) (this build: \(report.schemaVersionSupported))")
        io.print("integrity:        \(report.integrity.joined(separator: "; "))")
        io.print("transactions:     \(report.transactionCount)")
        io.print("pending finishes: \(report.pendingFinishCount)")
        for pending in report.pendingFinishes {
            let error = pending.lastError.map { ", last error: \($0)" } ?? ""
            let overdue = pending.overdue ? " OVERDUE" : ""
            io.print(
                "  \(pending.key) player \(pending.playerID): \(pending.ageSeconds)s old, \(pending.attemptCount) failed attempt(s)\(error)\(overdue)"
            )
        }
        if let next = report.nextAfter {
            io.print(
                "truncated: \(report.pendingFinishes.count) of \(report.pendingFinishCount) pending finish(es) listed and more follow; next page: the same command with --after \(next)")
        }
        if report.overdueFinishCount > 0 {
            io.print(
                "warning: \(report.overdueFinishCount) finish(es) pending longer than \(report.finishWarningAgeSeconds / 3600)h; run `ledger recover`"
            )
        }
        io.print(report.healthy ? "healthy" : "NOT HEALTHY")
    }
}
