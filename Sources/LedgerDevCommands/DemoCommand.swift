import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerCommandLine
import SQLiteLedgerStore

/// `ledger demo`: narrates the purchase lifecycle on a fresh SQLite ledger.
enum DemoCommand {
    /// `--db FILE`: a new ledger file, not the operator's `--db`.
    static let database = CommandOption(
        "db", "FILE", default: "a new file in a temporary folder",
        help: "a ledger file that does not exist yet; the demo narrates a fresh ledger")

    static let command = Command(
        words: ["demo"],
        summary: "narrate the purchase lifecycle on a fresh embedded ledger",
        description: """
            Runs a purchase, a duplicate delivery, the same transaction ID with another
            product, a grant failure and its retry, a finish failure and recovery, a
            pending payment that is approved, and a game reset that keeps the ledger,
            against the test store; then a purchase and a refund on each simulated store:
            the App Store, Google Play, an App Store subscription, a web shop on Stripe
            Checkout and Steam (a catalog that maps no Stripe Price or Steam item gets
            gems_small mapped on both for the demo). All on a SQLite ledger; each step checks
            that the library did what it promises.

            exit codes: 0 every step behaved, 70 a step did not, 1 infrastructure error,
              64 usage (or --db names an existing file), 65 invalid catalog, 66 catalog missing
            """,
        options: [CommonOptions.catalog.defaulting("the sample ProductCatalog.json built into the tool"), database, CommonOptions.json.helping("print one JSON object per step instead of text")],
        run: { arguments, io in
            do throws(Arguments.UsageError) { try arguments.expectPositionals(max: 0) } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "demo")
            }
            let catalogChoice = CatalogChoice.sampleByDefault(arguments)
            if let given = arguments.value(Self.database), FileManager.default.fileExists(atPath: given) {
                return LedgerCommandLine.usageError(
                    "--db \(given) already exists; the demo needs a fresh ledger", io: io, command: "demo")
            }
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("ledger-demo-\(UUID().uuidString)")
            let database = arguments.value(Self.database) ?? directory.appendingPathComponent("ledger.sqlite").path
            if arguments.value(Self.database) == nil {
                do {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                } catch {
                    io.printError("ledger demo: cannot create \(directory.path): \(error.localizedDescription)")
                    return .failure
                }
            }
            let narrator = DemoNarrator(io: io, json: arguments.flag(CommonOptions.json))
            do {
                let catalog = try catalogChoice.load()
                let store = try await SQLiteLedgerStore.open(path: database)
                do {
                    let script = try DemoScript(catalog: catalog, store: store, narrator: narrator)
                    narrator.say("ledger demo: catalog \(catalogChoice.name), ledger \(database)")
                    try await script.run()
                } catch {
                    await store.close()
                    throw error
                }
                await store.close()
            } catch let error as LedgerError {
                return LedgerCommandLine.report(error, io: io, command: "demo", catalogPath: catalogChoice.path)
            } catch let failure as DemoFailure {
                io.printError("ledger demo: step did not behave: \(failure.message)")
                return .software
            } catch {
                io.printError("ledger demo: \(error)")
                return .failure
            }
            narrator.say("demo finished: every step behaved as promised")
            if arguments.value(Self.database) == nil { try? FileManager.default.removeItem(at: directory) }
            return .ok
        })
}

/// A demo step that did not behave as the library promises.
struct DemoFailure: Error {
    var message: String
}

/// Prints the demo's steps as text or JSON lines.
struct DemoNarrator: Sendable {
    var io: CommandIO
    var json: Bool

    struct Step: Encodable {
        var step: String
        var detail: String
    }

    func say(_ text: String) {
        if !json { io.print(text) }
    }

    func step(_ title: String, _ detail: String) {
        if json {
            io.printJSON(Step(step: title, detail: detail))
        } else {
            io.print("\n== \(title)\n   \(detail)")
        }
    }
}
