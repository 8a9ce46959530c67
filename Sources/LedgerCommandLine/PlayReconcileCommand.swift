import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// `ledger playstore reconcile`: one player's Google Play records against the Orders API
/// (`PlayReconciler`), and with `--apply` the voided purchases sync, then the comparison again.
enum PlayReconcileCommand {
    /// `--apply`.
    static let apply = CommandOption.flag("apply", help: "run the voided purchases sync, then compare again")

    static let command = Command(
        words: ["playstore", "reconcile"],
        summary: "compare a player's Google Play records with Google's orders",
        description: """
            Reads the order of each of the player's Google Play records (their latest ones, as
            `ledger history` lists them) with orders.batchget and prints what differs: refunds
            Google made that the ledger has not applied (unappliedRefunds), units the ledger
            took back from an order Google reports paid (refundedOnlyInLedger), orders Google
            cancelled that the ledger granted (canceledButGranted), and orders Google does not
            know (unknownToStore), with the exact amounts refunded (refundedTotals, by
            currency). With --apply it runs the voided purchases sync (each void Google lists
            in the last 30 days applied once) and compares again. The database must exist.

            exit codes: 0 the ledger agrees with Google, 3 differences remain, 1 Google
              unavailable or infrastructure error, 64 usage, 65 invalid catalog, 66 database
              or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, CommonOptions.player.required, apply] + StorePortOptions.playOptions,
        run: { arguments, io in await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let (database, api, package, environment): (LedgerDatabase, any PlayPurchasesAPI, String, StoreEnvironment)
        let playerID: String
        do throws(Arguments.UsageError) {
            (database, api, package, environment) = try PlayStoreLedgerCommands.ledgerOptions(parsing: arguments, io: io)
            playerID = try arguments.required(CommonOptions.player)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "playstore reconcile")
        }
        do throws(LedgerError) {
            return try await PlayStoreCommands.withLedger(
                arguments, database: database, api: api, package: package, environment: environment) { ledger throws(LedgerError) in
                let report = try await PlayReconciler(api: api, packageName: package, ledger: ledger)
                    .reconcile(playerID: playerID, apply: arguments.flag(Self.apply))
                io.printJSON(report)
                return report.isClean ? .ok : .rejected
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "playstore reconcile")
        }
    }
}
