import FulfillmentLedger
import PostgresLedgerStore
import SQLiteLedgerStore

/// `ledger migrate`: moves a SQLite ledger into an empty PostgreSQL database, checked.
enum MigrateCommand {
    /// `--from FILE`.
    static let from = CommandOption("from", "FILE", required: true, help: "the SQLite ledger to copy")
    /// `--to URL`.
    static let to = CommandOption("to", "URL", required: true, help: "the PostgreSQL database to copy it into (a postgresql:// URL)")

    static let command = Command(
        words: ["migrate"],
        summary: "copy a SQLite ledger into an empty PostgreSQL database and check the copy",
        description: """
            Copies every table of the SQLite ledger FILE into the PostgreSQL database at URL
            (a postgresql:// URL; its tables are created when it is empty) in one
            transaction, then checks the copy: every table's row count, and every balance
            and inventory row compared one by one, with a checksum of all balances on each
            side. A target that already holds ledger rows is refused and left untouched, and so
            is one whose schema holds another application's tables (not a ledger).

            FILE is first migrated in place to this build's schema, then locked against
            writers for the whole copy (a server still writing waits or gets a busy error):
            stop the game servers first, and point them at URL once the copy is checked.
            FILE itself is never changed by the copy.

            output: outcome ("copied" | "refusedTargetNotEmpty" | "verificationFailed"),
              source, target, tables [{name, sourceRowCount, targetRowCount}],
              sourceBalanceChecksum, targetBalanceChecksum, problems

            exit codes: 0 copied and checked, 1 the copy does not match or an infrastructure
              error, 64 usage, 65 the target is another application's (not a ledger),
              66 FILE missing, 73 the target is not empty
            """,
        options: [from, to, CommonOptions.json],
        run: { arguments, io in
            let from: String
            let to: String
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                guard case .sqlite(let path) = LedgerDatabase(try arguments.required(Self.from)) else {
                    throw Arguments.UsageError(message: "--from takes a SQLite ledger file")
                }
                guard case .postgres(let url) = LedgerDatabase(try arguments.required(Self.to)) else {
                    throw Arguments.UsageError(message: "--to takes a postgresql:// URL")
                }
                (from, to) = (path, url)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "migrate")
            }
            let report: PostgresImportReport
            do throws(LedgerError) {
                let source = try await SQLiteLedgerRowSource.open(path: from)
                defer { source.close() }
                report = try await PostgresLedgerImport.run(source: source, connectionString: to)
            } catch {
                let code = LedgerCommandLine.report(error, io: io, command: "migrate")
                switch error {
                case .notALedger, .foreignDatabase:
                    // Another application's database: refused as bad input, as `serve` does.
                    return .dataError
                default:
                    return code
                }
            }
            if arguments.flag(CommonOptions.json) { io.printJSON(report) } else { printText(report, io: io) }
            switch report.outcome {
            case .copied: return .ok
            case .refusedTargetNotEmpty: return .cannotCreate
            case .verificationFailed: return .failure
            }
        })

    static func printText(_ report: PostgresImportReport, io: CommandIO) {
        io.print("from: \(report.source)")
        io.print("to:   \(report.target)")
        for table in report.tables {
            io.print("  \(table.name): \(table.sourceRowCount) row(s) in the source, \(table.targetRowCount) in the target")
        }
        io.print("balance checksum: \(report.sourceBalanceChecksum) (source), \(report.targetBalanceChecksum ?? "-") (target)")
        for problem in report.problems { io.print("problem: \(problem)") }
        io.print(report.outcome.rawValue)
    }
}
