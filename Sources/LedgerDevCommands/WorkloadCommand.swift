import Foundation
import FulfillmentLedger
import LedgerCommandLine
import LedgerSimulation

/// `ledger workload`: fulfills a deterministic stream of purchases, one JSON line each,
/// so a crash test can kill it at any moment and know what it reported.
enum WorkloadCommand {
    /// `--seed S`.
    static let seed = CommandOption("seed", "S", required: true, help: "chooses the purchases; the same seed redelivers the same")
    /// `--count N`.
    static let count = CommandOption(
        "count", "N", required: true, constraint: .integers(0...CrashWorkload.countMax), help: "how many purchases")

    static let command = Command(
        words: ["workload"],
        summary: "fulfill a seeded stream of test purchases, printing each outcome (crash tests)",
        description: """
            Fulfills N test-store purchases chosen by seed S, in order, and prints one JSON
            line per transaction ({"transactionID", "outcome", "playerID"}) as soon as its
            outcome is known. Running it again with the same seed redelivers the same
            transactions. Crash tests kill it with SIGKILL at random moments.

            exit codes: 0 done, 1 infrastructure error, 64 usage, 65/66 catalog invalid/missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, seed, count],
        run: { arguments, io in await run(arguments, io: io) })

    struct Line: Encodable {
        var transactionID: String
        var playerID: String
        var outcome: String
    }

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let database: LedgerDatabase
        let catalogPath: String
        let seed: UInt64
        let count: Int
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            catalogPath = try arguments.required(CommonOptions.catalog)
            guard let parsedSeed = UInt64(try arguments.required(Self.seed)),
                let parsedCount = Int(try arguments.required(Self.count)), (0...CrashWorkload.countMax).contains(parsedCount)
            else { throw Arguments.UsageError(message: "--seed and --count need whole numbers (count 0 to \(CrashWorkload.countMax))") }
            (seed, count) = (parsedSeed, parsedCount)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "workload")
        }
        do throws(LedgerError) {
            return try await LedgerSetup.withLedger(database: database, catalogPath: catalogPath) { ledger throws(LedgerError) in
                for document in CrashWorkload.transactions(seed: seed, count: count, catalog: ledger.catalog) {
                    let outcome = try await ledger.fulfill(document.submission())
                    io.printJSON(Line(transactionID: document.transactionID, playerID: document.playerID, outcome: outcome.name))
                }
                return .ok
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "workload")
        }
    }
}
