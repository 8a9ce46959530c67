import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// `ledger init`: create (or migrate) a ledger for a first deployment.
enum InitCommand {
    static let command = Command(
        words: ["init"],
        summary: "create a ledger file for a first deployment (or migrate an existing one)",
        help: """
            usage: ledger init --db FILE

            Creates a new SQLite ledger at FILE (its folder must exist) with this build's
            schema, so servers can open it with createIfMissing = false and never create a
            ledger by accident. An existing ledger is migrated in place to this build's schema
            and kept. A file that is not a ledger (another database, another application's,
            a newer schema, garbage) is refused and left byte for byte as it was.

            output: {"db", "created", "schemaVersion"}

            exit codes: 0 created or already a ledger, 1 not a ledger or unwritable,
              64 usage
            """,
        valueOptions: ["db"],
        run: { arguments, io in
            let database: String
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try arguments.required("db")
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "init")
            }
            let existed = FileManager.default.fileExists(atPath: database)
            do throws(LedgerError) {
                var options = SQLiteLedgerStore.Options()
                options.createIfMissing = true
                _ = try SQLiteLedgerStore(path: database, options: options)
                io.printJSON(Output(db: database, created: !existed, schemaVersion: SQLiteLedgerStore.schemaVersion))
                return .ok
            } catch {
                if !existed { try? FileManager.default.removeItem(atPath: database) }
                return LedgerCommandLine.report(error, io: io, command: "init")
            }
        })

    struct Output: Encodable {
        var db: String
        var created: Bool
        var schemaVersion: Int
    }
}
