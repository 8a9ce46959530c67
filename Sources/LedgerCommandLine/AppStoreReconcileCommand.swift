import AppStoreAdapter
import FulfillmentLedger

/// `ledger appstore reconcile`: one player's ledger records against Apple's histories.
enum AppStoreReconcileCommand {
    /// `--transaction-id ID`.
    static let transactionID = CommonOptions.transactionID.helping("any transaction of the player's Apple account")
    /// `--app-transaction-id ID`.
    static let appTransactionID = CommandOption(
        "app-transaction-id", "ID",
        help: "the account's appTransactionId (from the game client's AppTransaction): finds the account when the ledger holds none of its purchases")
    /// `--page-count-max N`.
    static let pageCountMax = CommandOption.integer(
        "page-count-max", default: AppStoreReconciler.pageCountMaxDefault, range: 1...AppStoreServerAPIClient.pageCountMaxDefault,
        help: "pages of 20 read of each history")
    /// `--apply`.
    static let apply = CommandOption.flag("apply", help: "grant and refund what the report lists")

    static let command = Command(
        words: ["appstore", "reconcile"],
        summary: "compare a player's App Store purchases with Apple's histories; --apply catches up",
        description: """
            Reads Get Transaction History (v2) and Get Refund History for the player's Apple
            account (from --transaction-id, --app-transaction-id, or the player's newest App
            Store record) and prints, as JSON: missingGrants, purchases Apple lists that the
            ledger lacks; unappliedRefunds, refunds the ledger has not applied; unknownToStore,
            the player's App Store records Apple does not list (only from a complete read);
            notInCatalog; unattributedCount, transactions of the account bound to another
            player or to none; unbound, those bound to none (a purchase made outside the app,
            which `ledger appstore set-token` can bind); and appTransactionIDs, the accounts
            the player's transactions name. Only transactions whose appAccountToken is the player's
            (AppAccountToken.forPlayer) count as theirs. Changes nothing unless --apply:
            then each missing purchase is granted through the pipeline (once, like any
            delivery; finished on Apple's server) and each refund applied as a revocation.

            exit codes: 0 the ledger agrees with Apple (after --apply, everything applied),
              3 differences found (or left after --apply), 1 Apple unavailable or
              infrastructure error, 64 usage, 65 invalid catalog, 66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, CommonOptions.player.required, transactionID, appTransactionID, pageCountMax, apply] + AppStoreAPIOptions.requiredOptions,
        run: { arguments, io in await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let client: AppStoreServerAPIClient
        let database: LedgerDatabase
        let player: String
        let pageCountMax: Int
        let anchor: String?
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            _ = try arguments.required(CommonOptions.catalog)
            player = try arguments.required(CommonOptions.player)
            pageCountMax = try arguments.integer(Self.pageCountMax)
            client = try AppStoreAPIOptions.client(arguments)
            if arguments.value(transactionID) != nil, arguments.value(appTransactionID) != nil {
                throw Arguments.UsageError(message: "give --transaction-id or --app-transaction-id, not both")
            }
            anchor = arguments.value(transactionID) ?? arguments.value(appTransactionID)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore reconcile")
        }
        do throws(LedgerError) {
            return try await AppStoreLedgerCommands.withLedger(
                arguments, database: database, verifier: client.verifier, environment: client.environment,
                createIfMissing: false, serverAPI: client) { ledger throws(LedgerError) in
                let reconciler = AppStoreReconciler(client: client, ledger: ledger, pageCountMax: pageCountMax)
                let apply = arguments.flag(Self.apply)
                let report = try await reconciler.reconcile(
                    playerID: player, anchorTransactionID: anchor, apply: apply)
                io.printJSON(report)
                guard apply else { return report.isClean ? .ok : .rejected }
                let allApplied = report.applied.values.allSatisfy { applied in
                    switch applied {
                    case .fulfilled(let outcome): outcome.rejection == nil
                    case .revocation(let outcome): outcome.rejection == nil
                    case .failed: false
                    }
                }
                return allApplied && report.unknownToStore.isEmpty ? .ok : .rejected
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "appstore reconcile")
        }
    }
}
