import AppStoreAdapter
import Foundation
import FulfillmentLedger

/// `ledger appstore bind`: registers a player's `appAccountToken`, so a purchase Apple reports
/// to the server alone (`ONE_TIME_CHARGE`) is granted to the player.
enum AppStoreBindCommand {
    /// `--account-binding B`: app-account-token by default here.
    static let accountBinding = ServeAccountBindings.accountBinding.defaulting(ServeAccountBindings.Binding.appAccountToken.rawValue)
        .helping("how the token is computed: AppAccountToken.forPlayer(P), or P itself")

    static let command = Command(
        words: ["appstore", "bind"],
        summary: "register a player's appAccountToken, for purchases Apple reports to the server",
        description: """
            Records which player the appAccountToken of P names, computed by the account
            binding (app-account-token, the default: AppAccountToken.forPlayer(P); identity:
            P itself), so that a ONE_TIME_CHARGE carrying the token is granted to P. A grant
            delivered by the client records the same binding by itself; register a player
            before its first purchase. A repeat prints the recorded binding and changes
            nothing. Prints {"store", "token", "playerID", "boundAt", "source"}. The database
            must exist.

            exit codes: 0 bound (or bound before), 1 infrastructure error, 64 usage,
              65 invalid catalog, or the token already names another player,
              66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, CommonOptions.player.required, accountBinding],
        run: { arguments, io in await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let database: LedgerDatabase
        let catalogPath: String
        let player: String
        let binding: ServeAccountBindings.Binding
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            catalogPath = try arguments.required(CommonOptions.catalog)
            player = try arguments.required(CommonOptions.player)
            let name = arguments.value(accountBinding) ?? ServeAccountBindings.Binding.appAccountToken.rawValue
            guard let chosen = ServeAccountBindings.Binding(rawValue: name) else {
                throw Arguments.UsageError(message: "--account-binding \(name): expected app-account-token or identity")
            }
            binding = chosen
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore bind")
        }
        return await bind(
            player, database: database, catalogPath: catalogPath, binding: binding, io: io, command: "appstore bind"
        ) { binding in io.printJSON(binding) }
    }

    /// Records `player`'s App Store token under `binding` in the ledger at `database` and hands
    /// the binding to `recorded`; reports a failure as `command`'s.
    static func bind(
        _ player: String, database: LedgerDatabase, catalogPath: String, binding: ServeAccountBindings.Binding,
        io: CommandIO, command: String, recorded: (AccountTokenBinding) -> Void
    ) async -> ExitCode {
        do throws(LedgerError) {
            let catalog = try CatalogLoader.load(path: catalogPath)
            var configuration = LedgerConfiguration.sandbox
            configuration.storeAccountBindings[.appStore] = binding.function
            let unconfigured = UnconfiguredStore(store: .appStore, hint: "ledger \(command) grants nothing")
            return try await LedgerSetup.withExistingStore(database) { store throws(LedgerError) in
                let ledger = try Ledger(
                    catalog: catalog, store: store, verifier: unconfigured, finisher: unconfigured, configuration: configuration)
                recorded(try await ledger.bindAccountToken(store: .appStore, playerID: player))
                return .ok
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: command, catalogPath: catalogPath)
        }
    }
}
