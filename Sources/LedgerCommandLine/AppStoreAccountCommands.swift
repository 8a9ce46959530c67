import AppStoreAdapter
import Foundation
import FulfillmentLedger

/// `ledger appstore app-transaction` and `ledger appstore set-token`: the customer's account on
/// Apple's side (Get App Transaction Info, Set App Account Token).
enum AppStoreAccountCommands {
    static let appTransaction = Command(
        words: ["appstore", "app-transaction"],
        summary: "Get App Transaction Info: the customer's stable appTransactionId, verified",
        description: """
            Asks Apple for the app transaction of the customer who made the transaction (Get
            App Transaction Info), verifies it and prints {"found": true, "appTransaction": …}
            with the decoded payload: its appTransactionId names the Apple Account for good,
            across redownloads, devices, refunds and storefronts. {"found": false, …} with
            Apple's error when Apple knows no such transaction or app transaction. Changes
            nothing.

            \(AppStoreServerAPICommands.apiExitCodes)
            """,
        options: [CommonOptions.transactionID.required.helping("any transaction ID of the customer's")] + AppStoreAPIOptions.requiredOptions,
        run: { arguments, io in await runAppTransaction(arguments, io: io) })

    static let setToken = Command(
        words: ["appstore", "set-token"],
        summary: "Set App Account Token: bind a purchase made outside the app to a player",
        description: """
            Sets the appAccountToken of the purchase --transaction-id names (its
            originalTransactionId) to P's token, AppAccountToken.forPlayer(P), with Set App Account Token: for a
            purchase made outside the app (an offer code redeemed in the App Store), so its
            later transactions and notifications name P. With --db, the ledger also records
            which player the token names (as `ledger appstore bind`). Grants nothing: grant the
            purchase with `ledger appstore fulfill --transaction-id`. Prints
            {"originalTransactionID", "appAccountToken", "playerID", "binding"?}.

            exit codes: 0 set, 3 Apple refused it (not an original transaction ID, Family
              Sharing, unknown), 1 Apple unavailable or rate limited (retry later),
              77 the key refused (401/403), 64 usage, 65 invalid catalog, or the token already
              names another player in the ledger, 66 database or catalog missing
            """,
        options: [CommonOptions.transactionID.required.helping("the purchase's originalTransactionId"), CommonOptions.player.required, LedgerDatabase.option.optional.helping("also record the binding in this ledger (as ledger appstore bind)"), CommonOptions.catalog.helping("the product catalog, with --db")] + AppStoreAPIOptions.requiredOptions,
        run: { arguments, io in await runSetToken(arguments, io: io) })

    static func runAppTransaction(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let client: AppStoreServerAPIClient
        let transactionID: String
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            transactionID = try arguments.required(CommonOptions.transactionID)
            client = try AppStoreAPIOptions.client(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore app-transaction")
        }
        do throws(AppStoreServerAPIError) {
            let lookup = try await client.appTransactionInfo(transactionID: transactionID)
            io.printJSON(lookup)
            if case .notFound = lookup { return .rejected }
            return .ok
        } catch {
            return AppStoreServerAPICommands.report(error, io: io, command: "appstore app-transaction")
        }
    }

    static func runSetToken(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let client: AppStoreServerAPIClient
        let originalTransactionID: String
        let player: String
        var database: LedgerDatabase?
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            originalTransactionID = try arguments.required(CommonOptions.transactionID)
            player = try arguments.required(CommonOptions.player)
            client = try AppStoreAPIOptions.client(arguments)
            if arguments.value(LedgerDatabase.option) != nil {
                database = try LedgerDatabase(arguments, io: io)
                _ = try arguments.required(CommonOptions.catalog)
            }
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore set-token")
        }
        let token = AppAccountToken.forPlayer(player)
        do throws(AppStoreServerAPIError) {
            try await client.setAppAccountToken(originalTransactionID: originalTransactionID, appAccountToken: token)
        } catch {
            if case .rejected(let answer) = error, !error.isRetryable {
                io.printJSON(LedgerErrorBody(error))
                io.printError("ledger appstore set-token: Apple refused: \(answer)")
                return .rejected
            }
            return AppStoreServerAPICommands.report(error, io: io, command: "appstore set-token")
        }
        var output = AppStoreAccountTokenAssignment(
            originalTransactionID: originalTransactionID, appAccountToken: token, playerID: player)
        guard let database else {
            io.printJSON(output)
            return .ok
        }
        let exit = await AppStoreBindCommand.bind(
            player, database: database, catalogPath: arguments.value(CommonOptions.catalog) ?? "", binding: .appAccountToken, io: io,
            command: "appstore set-token") { binding in output.binding = binding }
        if exit == .ok { io.printJSON(output) }
        return exit
    }
}
