import Foundation
import FulfillmentLedger

/// `ledger init`: create (or migrate) a ledger for a first deployment.
enum InitCommand {
    static let command = Command(
        words: ["init"],
        summary: "create a ledger for a first deployment (or migrate an existing one)",
        description: """
            Creates a new ledger with this build's schema: a SQLite file at DB (its folder
            must exist), or the tables of an empty PostgreSQL database at a postgresql://
            URL (default: $LEDGER_DATABASE_URL), so servers can open it with
            createIfMissing = false and never create a ledger by accident. An existing ledger
            is migrated in place to this build's schema and kept. A database that is not a
            ledger (another database, another application's, a newer schema, garbage) is
            refused and left byte for byte as it was.

            output: {"db", "created", "schemaVersion"}

            exit codes: 0 created or already a ledger, 1 not a ledger or unwritable,
              64 usage
            """,
        options: [LedgerDatabase.option],
        run: { arguments, io in
            let database: LedgerDatabase
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try LedgerDatabase(arguments, io: io)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "init")
            }
            do throws(LedgerError) {
                let created = try await create(database)
                io.printJSON(Output(db: database.description, created: created, schemaVersion: database.schemaVersionSupported))
                return .ok
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "init")
            }
        })

    /// Makes `database` a ledger of this build's schema; returns whether it was created. A
    /// SQLite file this call created is removed again when it fails.
    static func create(_ database: LedgerDatabase) async throws(LedgerError) -> Bool {
        switch database {
        case .sqlite(let path):
            let existed = FileManager.default.fileExists(atPath: path)
            do throws(LedgerError) {
                await (try await database.open(createIfMissing: true)).close()
            } catch {
                if !existed { try? FileManager.default.removeItem(atPath: path) }
                throw error
            }
            return !existed
        case .postgres:
            // Opening without creating tells an existing ledger (migrated) from an empty database.
            do throws(LedgerError) {
                await (try await database.open(createIfMissing: false)).close()
                return false
            } catch {
                guard case .ledgerMissing = error else { throw error }
                await (try await database.open(createIfMissing: true)).close()
                return true
            }
        }
    }

    struct Output: Encodable {
        var db: String
        var created: Bool
        var schemaVersion: Int
    }
}
