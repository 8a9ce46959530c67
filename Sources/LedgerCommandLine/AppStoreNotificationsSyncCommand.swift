import AppStoreAdapter
import Foundation
import FulfillmentLedger

/// `ledger appstore notifications-sync`: the notifications Get Notification History lists since
/// the saved watermark, applied to a ledger once each (`AppStoreNotificationHistorySweep`).
enum AppStoreNotificationsSyncCommand {
    /// `--only-failures`.
    static let onlyFailures = CommandOption.flag(
        "only-failures",
        help: "ask only for notifications Apple failed to deliver (fewer pages; by default every one is read, so one Apple delivered but the ledger lacks is applied too)")

    static let command = Command(
        words: ["appstore", "notifications-sync"],
        summary: "apply missed App Store Server Notifications from Apple's history",
        description: """
            Pages through Get Notification History from the saved watermark (less a one-hour
            overlap; at most 180 days back, 30 in the sandbox; up to 100 pages a run), verifies
            each notification and applies it once by notificationUUID, as `ledger appstore
            notify` does, and saves the new watermark once every page was applied. Running it
            again applies nothing twice. Prints the report as JSON; "truncated": true means the
            page limit stopped it and the next run reads the same range again. The database
            must exist.

            exit codes: 0 done (notifications that fail verification are counted in "rejected"),
              1 the API or the ledger failed (a JSON "error" with "retryable" and, for a rate
              limit, "retryAfter"), 64 usage, 65 invalid catalog, 66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, onlyFailures] + AppStoreAPIOptions.requiredOptions,
        run: { arguments, io in await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let name = "appstore notifications-sync"
        let database: LedgerDatabase
        let client: AppStoreServerAPIClient
        let verifier: SignedDataVerifier
        let environment: AppStoreEnvironment
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            _ = try arguments.required(CommonOptions.catalog)
            (verifier, environment) = try AppStoreCommands.signedDataVerifier(arguments)
            client = try AppStoreAPIOptions.client(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: name)
        }
        do throws(LedgerError) {
            return try await AppStoreLedgerCommands.withLedger(
                arguments, database: database, verifier: verifier, environment: environment, createIfMissing: false
            ) { ledger throws(LedgerError) in
                let processor = AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger)
                let sweep = AppStoreNotificationHistorySweep(
                    client: client, processor: processor, onlyFailures: arguments.flag(onlyFailures))
                do throws(AppStoreNotificationSweepError) {
                    io.printJSON(try await sweep.run())
                    return .ok
                } catch {
                    switch error {
                    case .ledger(let error): return LedgerCommandLine.report(error, io: io, command: name)
                    case .api(let error):
                        io.printJSON(ErrorOutput(error))
                        io.printError("ledger \(name): App Store Server API: \(error)")
                        return .failure
                    }
                }
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: name)
        }
    }
}
