import AppStoreAdapter
import FulfillmentLedger

/// `ledger recover`: retries pending finishes.
enum RecoverCommand {
    static let command = Command(
        words: ["recover"],
        summary: "retry every pending platform finish",
        description: """
            Retries every pending finish in the outbox through its store's port and prints a
            JSON report. Each store's port comes from the flags: a Google Play finish is
            consumed or acknowledged only through the Play options; without them it stays
            pending and is listed under stillPending with the flags it needs, and the command
            exits 1. App Store finishes are the client's (AppStoreFinisher) unless the App
            Store Server API options are given: then each is finished on Apple's server
            (Finish Transaction; an already finished one counts as finished). Test-store
            finishes are done at once. The database must exist.

            output fields: clean (nothing left), finished, stillPending, inFlightElsewhere
              (another process is finishing it), resubmitted, errors

            exit codes: 0 everything recovered, 1 some finish still failing or
              infrastructure error, 64 usage, 65 invalid catalog, 66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required] + StorePortOptions.options + AppStoreAPIOptions.prefixedOptions,
        run: { arguments, io in
            let database: LedgerDatabase
            let catalogPath: String
            let ports: StorePortOptions
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 0)
                database = try LedgerDatabase(arguments, io: io)
                catalogPath = try arguments.required(CommonOptions.catalog)
                let (appStore, serverAPI) = try AppStoreAPIOptions.prefixed(arguments)
                ports = try StorePortOptions(arguments, appStore: appStore, appStoreServerAPI: serverAPI)
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "recover")
            }
            do throws(LedgerError) {
                return try await LedgerSetup.withLedger(
                    database: database, catalog: try CatalogLoader.load(path: catalogPath), ports: ports,
                    createIfMissing: false) { ledger throws(LedgerError) in
                    let report = try await ledger.recover()
                    io.printJSON(report)
                    for (key, reason) in report.finishesFailed.sorted(by: { $0.key < $1.key }) {
                        io.printError("ledger recover: \(key) is still pending: \(reason)")
                    }
                    return report.isClean ? .ok : .failure
                }
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "recover", catalogPath: catalogPath)
            }
        })
}
