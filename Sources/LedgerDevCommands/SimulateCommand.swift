import Foundation
import FulfillmentLedger
import LedgerCommandLine
import LedgerSimulation

/// `ledger simulate`: the deterministic fault simulation.
enum SimulateCommand {
    /// `--seed S`.
    static let seed = CommandOption("seed", "S", required: true, help: "the first run's seed (run r uses S+r)")
    /// `--runs N`.
    static let runs = CommandOption.integer("runs", range: 1...Simulator.runCountMax, help: "how many runs").required
    /// `--steps K`.
    static let steps = CommandOption.integer("steps", "K", default: 100, range: 1...Simulator.stepCountMax, help: "steps per run")
    /// `--db-dir DIR`.
    static let databaseFolder = CommandOption(
        "db-dir", "DIR", default: "/dev/shm if present, else the temporary folder",
        help: "where run databases go; each is removed after its run")
    /// `--db URL`.
    static let database = CommandOption(
        "db", "URL",
        help: "run every ledger on this PostgreSQL server instead (a postgresql:// URL), in a scratch schema per run that is dropped after it")

    static let command = Command(
        words: ["simulate"],
        summary: "seeded simulation of purchases under faults, checked against a model",
        description: """
            Runs N seeded runs (run r uses seed S+r) of K steps (default 100): purchases
            (a quarter signed by a simulated App Store and verified offline as JWS, some
            verified through a simulated Google Play Developer API),
            duplicate and out-of-order deliveries, forged conflicting IDs, pending payments
            approved or cancelled, spends, Reset Game, restarts (the ledger is dropped and
            the database reopened) and recoveries, with faults at every fault point and
            port (verify, grant, save, finish, finish timeout). After every step the ledger is
            compared with an independent model; each run ends with recovery, an
            exactly-once check and the engine's integrity check (PRAGMA integrity_check on
            SQLite, the doctor's read on PostgreSQL). Time is simulated.

            Prints progress on a terminal, a summary and a final line `trace <hex>`: the
            same seed gives the same trace. A violation prints its seed, run and step, and
            replays with --seed <run seed> --runs 1. Long mode: --runs 10000.

            exit codes: 0 no violation, 1 a violation, 64 usage, 65/66 catalog invalid/missing
            """,
        options: [seed, runs, steps, databaseFolder, database, CommonOptions.catalog.defaulting("the sample ProductCatalog.json built into the tool"), CommonOptions.json],
        run: { arguments, io in await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let seed: UInt64
        let runs: Int
        let steps: Int
        var serverURL: String?
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            guard let parsedSeed = UInt64(try arguments.required(Self.seed)) else {
                throw Arguments.UsageError(message: "--seed needs a whole number")
            }
            _ = try arguments.required(Self.runs)
            (seed, runs, steps) = (parsedSeed, try arguments.integer(Self.runs), try arguments.integer(Self.steps))
            if let given = arguments.value(Self.database) {
                guard case .postgres(let url) = LedgerDatabase(given) else {
                    throw Arguments.UsageError(message: "--db takes a postgresql:// URL; SQLite files go in --db-dir")
                }
                guard arguments.value(Self.databaseFolder) == nil else {
                    throw Arguments.UsageError(message: "--db and --db-dir are alternatives")
                }
                serverURL = url
            }
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "simulate")
        }
        let catalog: ProductCatalog
        let catalogChoice = CatalogChoice.sampleByDefault(arguments)
        do throws(LedgerError) {
            catalog = try catalogChoice.load()
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "simulate", catalogPath: catalogChoice.path)
        }
        let databases: SimulationDatabases
        var folderToRemove: URL?
        if let serverURL {
            databases = SimulationEngines.postgres(serverURL: serverURL)
        } else {
            let directory = databaseDirectory(arguments.value(Self.databaseFolder))
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                io.printError("ledger simulate: cannot create \(directory.path): \(error.localizedDescription)")
                return .failure
            }
            databases = SimulationEngines.sqlite(in: directory)
            // Each run removes its database; the folder goes too unless the caller named it.
            if arguments.value(Self.databaseFolder) == nil { folderToRemove = directory }
        }
        defer { if let folderToRemove { try? FileManager.default.removeItem(at: folderToRemove) } }
        let options = SimulationOptions(seed: seed, runCount: runs, stepCount: steps, catalog: catalog, databases: databases)
        let interactive = isatty(STDERR_FILENO) == 1
        let result = await Simulator.run(options) { done, total in
            if interactive && (done % 10 == 0 || done == total) { io.writeError("\rsimulate: run \(done)/\(total)") }
        }
        if interactive { io.writeError("\n") }
        report(result, json: arguments.flag(CommonOptions.json), io: io)
        return result.violation == nil ? .ok : .failure
    }

    static func databaseDirectory(_ given: String?) -> URL {
        if let given { return URL(fileURLWithPath: given) }
        let base = FileManager.default.fileExists(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        return base.appendingPathComponent("ledger-simulate-\(UUID().uuidString)")
    }

    static func report(_ result: Simulator.Result, json: Bool, io: CommandIO) {
        let summary = result.summary
        if json {
            io.printJSON(summary)
            return
        }
        if let violation = result.violation {
            io.print("VIOLATION in \(violation)")
            io.print("replay: ledger simulate --seed \(violation.runSeed) --runs 1")
        }
        io.print("runs \(summary.runs), steps \(summary.steps), transactions \(summary.transactions) (\(summary.signedTransactions) signed App Store JWS, \(summary.restoredDeliveries) restored App Store deliveries, \(summary.playTransactions) Google Play (\(summary.playPurchaseOptions) through purchase options, \(summary.playOptionGrants) of them granted as option products, \(summary.playRefusedOffers) rentals or pre-orders refused); \(summary.oneTimeCharges) App Store one-time charges, \(summary.unassignedCharges) unassigned, \(summary.tokenRegistrations) tokens registered; \(summary.refundReviews) Google Play chargeback reviews, \(summary.refundReviewsAnswered) answered, \(summary.refundReviewsLate) late; \(summary.stripePurchases) Stripe Checkout Sessions, \(summary.stripeRefunds) refunds, \(summary.stripeDisputes) disputes; \(summary.steamOrders) Steam orders, \(summary.steamRecoveredGrants) items recovered by the report sync, \(summary.steamRefunds) refunds, \(summary.steamChargebacks) chargebacks), grants \(summary.grants), refunds \(summary.refunds), reversals \(summary.reversals), store-scoped restores \(summary.scopedRestores) (\(summary.restoreRevokes) revoked), restarts \(summary.restarts), subscription periods \(summary.subscriptionPeriods) (\(summary.playSubscriptionPeriods) Google Play, \(summary.subscriptionNotifications) state notifications), violations \(summary.violations.count)")
        let faults = summary.faultsInjected.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        io.print("faults injected: \(faults.isEmpty ? "none" : faults.joined(separator: ", "))")
        io.print("trace \(summary.trace)")
    }
}
