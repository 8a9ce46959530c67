import AppStoreAdapter
import FulfillmentLedger

/// `ledger appstore reconcile`: one player's ledger records against Apple's histories.
enum AppStoreReconcileCommand {
    static let command = Command(
        words: ["appstore", "reconcile"],
        summary: "compare a player's App Store purchases with Apple's histories; --apply catches up",
        help: """
            usage: ledger appstore reconcile --db DB --catalog FILE --player P
                     [--transaction-id ID | --app-transaction-id ID] [--page-count-max N] [--apply]
                     --key FILE.p8 --key-id KID --issuer-id ID --root CERT.der --bundle-id ID
                     --environment E [--app-apple-id N] [--api-base URL]

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

            options:
              --player P           the player
              --transaction-id ID  any transaction of the player's Apple account
              --app-transaction-id ID
                                   the account's appTransactionId (from the game client's
                                   AppTransaction): finds the account when the ledger holds
                                   none of its purchases
              --page-count-max N   pages of 20 read of each history (default \(AppStoreReconciler.pageCountMaxDefault), at most \(AppStoreServerAPIClient.pageCountMaxDefault))
              --apply              grant and refund what the report lists
            \(AppStoreAPIOptions.help)

            exit codes: 0 the ledger agrees with Apple (after --apply, everything applied),
              3 differences found (or left after --apply), 1 Apple unavailable or
              infrastructure error, 64 usage, 65 invalid catalog, 66 database or catalog missing
            """,
        valueOptions: AppStoreAPIOptions.valueOptions.union([
            "db", "catalog", "player", "transaction-id", "app-transaction-id", "page-count-max",
        ]),
        flagOptions: ["apply"],
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
            _ = try arguments.required("catalog")
            player = try arguments.required("player")
            pageCountMax = try ServeCommand.Options.integer(
                arguments, "page-count-max", default: AppStoreReconciler.pageCountMaxDefault,
                range: 1...AppStoreServerAPIClient.pageCountMaxDefault)
            client = try AppStoreAPIOptions.client(arguments)
            if arguments.value("transaction-id") != nil, arguments.value("app-transaction-id") != nil {
                throw Arguments.UsageError(message: "give --transaction-id or --app-transaction-id, not both")
            }
            anchor = arguments.value("transaction-id") ?? arguments.value("app-transaction-id")
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore reconcile")
        }
        do throws(LedgerError) {
            let ledger = try await AppStoreLedgerCommands.ledger(
                arguments, database: database, verifier: client.verifier, environment: client.environment,
                createIfMissing: false, serverAPI: client)
            let reconciler = AppStoreReconciler(client: client, ledger: ledger, pageCountMax: pageCountMax)
            let apply = arguments.flag("apply")
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
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "appstore reconcile")
        }
    }
}
