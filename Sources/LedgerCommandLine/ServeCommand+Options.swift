import AppStoreAdapter
import FulfillmentLedger
import LedgerConsole
import LedgerHTTPServer
import PlayStoreAdapter

/// `ledger serve`'s own options, and what the flags configure.
extension ServeCommand {
    /// `--create`.
    static let create = CommandOption.flag("create", help: "create the ledger if it is missing (a first deployment)")
    /// `--host H`.
    static let host = CommandOption(
        "host", "H", default: "127.0.0.1", help: "the address to bind; one that is not loopback needs --bearer-token-env")
    /// `--port P`.
    static let port = CommandOption.integer("port", "P", default: 8080, range: 0...65_535, help: "the port (0 picks a free one)")
    /// `--bearer-token-env VAR`.
    static let bearerTokenEnv = CommandOption(
        "bearer-token-env", "VAR",
        help: "the variable holding the token the game's routes require as \"Authorization: Bearer\" (/purchases, "
            + "/operations, /revocations, /players, /lookup, /changes, the /appstore account routes, /steam)")
    /// `--console`.
    static let console = CommandOption.flag(
        "console",
        help: "serve the operator console under /console: search by player or any store ID, a player's timeline, "
            + "and \"retry finish\" (Docs/Support.md); needs --console-token-env")
    /// `--console-token-env VAR`.
    static let consoleTokenEnv = CommandOption(
        "console-token-env", "VAR",
        help: "the variable holding the operator token (\(LedgerConsole.operatorTokenByteCountMin) bytes or more, "
            + "not the game's bearer token)")
    /// `--recover-interval-seconds N`.
    static let recoverIntervalSeconds = CommandOption.integer(
        "recover-interval-seconds", default: recoverIntervalSecondsDefault, range: 0...recoverIntervalSecondsMax,
        help: "run recover() at start and every N seconds (0: only at start)")
    /// `--no-recover`.
    static let noRecover = CommandOption.flag(
        "no-recover", help: "never run recover() here (another process of the fleet runs it)")
    /// `--read-timeout-milliseconds N`.
    static let readTimeoutMilliseconds = CommandOption.integer(
        "read-timeout-milliseconds", default: LedgerHTTPServerLimits().readTimeoutMilliseconds,
        range: readTimeoutMillisecondsRange,
        help: "answer 408 and close when a request has not fully arrived N ms after it began (a first one: after the connection opened)")
    /// `--connection-count-max N`.
    static let connectionCountMax = CommandOption.integer(
        "connection-count-max", default: LedgerHTTPServerLimits().connectionCountMax, range: connectionCountMaxRange,
        help: "most connections at once; at it the one idle longest is closed to make room, and with none idle a new one is answered 503")

    /// What the flags configure, read before anything opens.
    struct Options {
        var database: LedgerDatabase
        /// Whether a missing ledger is created (`--create`); without it, it is refused.
        var create: Bool
        var catalogPath: String
        var ports: StorePortOptions
        var host: String
        var port: Int
        var bearerToken: String?
        /// The console's operator token, with `--console`; nil serves no console.
        var consoleToken: String?
        /// Seconds between `recover()` runs (0: only at start); nil with `--no-recover`.
        var recoverIntervalSeconds: Int?
        var readTimeoutMilliseconds: Int
        var connectionCountMax: Int
        var accountBindings: ServeAccountBindings
        var appStore: SignedDataVerifier?
        /// The App Store Server API, with the API options: reconcile and the account routes.
        var appStoreServerAPI: AppStoreServerAPIClient?
        var playPush: PubSubPushAuthenticator?
        /// Stripe's API and webhook secrets, with the Stripe options.
        var stripe: StripeOptions?
        /// Steam's Web API, with the Steam options.
        var steam: SteamOptions?
        /// How pushed chargeback reviews are answered.
        var refundReviews: PlayRefundReviewCommand.Preferences

        init(_ arguments: Arguments, io: CommandIO) throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            create = arguments.flag(ServeCommand.create)
            catalogPath = try arguments.required(CommonOptions.catalog)
            (appStore, appStoreServerAPI) = try AppStoreAPIOptions.prefixed(arguments)
            stripe = try StripeOptions.parse(arguments, io: io)
            steam = try SteamOptions.parse(arguments, io: io, environment: try PlayStoreCommands.environment(arguments))
            ports = try StorePortOptions(
                arguments, appStore: appStore, appStoreServerAPI: appStoreServerAPI, stripe: stripe?.api, steam: steam?.api)
            host = arguments.value(ServeCommand.host) ?? "127.0.0.1"
            port = try arguments.integer(ServeCommand.port)
            recoverIntervalSeconds = try arguments.integer(ServeCommand.recoverIntervalSeconds)
            readTimeoutMilliseconds = try arguments.integer(ServeCommand.readTimeoutMilliseconds)
            connectionCountMax = try arguments.integer(ServeCommand.connectionCountMax)
            if let variable = arguments.value(ServeCommand.bearerTokenEnv) {
                guard let token = io.environmentValue(variable), !token.isEmpty else {
                    throw Arguments.UsageError(message: "--bearer-token-env \(variable): the variable is unset or empty")
                }
                bearerToken = token
            }
            accountBindings = try ServeAccountBindings(arguments)
            refundReviews = try PlayRefundReviewCommand.Preferences(arguments)
            consoleToken = try Self.consoleToken(arguments, io: io, bearerToken: bearerToken)
            if arguments.flag(ServeCommand.noRecover) {
                guard arguments.value(ServeCommand.recoverIntervalSeconds) == nil else {
                    throw Arguments.UsageError(message: "--no-recover and --recover-interval-seconds contradict each other")
                }
                recoverIntervalSeconds = nil
            }
            // Off loopback, anyone who reaches the port could grant purchases and read players.
            guard bearerToken != nil || Self.isLoopback(host) else {
                throw Arguments.UsageError(
                    message: "--host \(host) is not a loopback address: set --bearer-token-env so that only the game server is served")
            }
            if arguments.value(PlayStoreLedgerCommands.audience) != nil {
                guard ports.play != nil else {
                    throw Arguments.UsageError(message: "--audience needs the Play API options: \(StorePortOptions.playHint)")
                }
                playPush = try PlayStoreLedgerCommands.authenticator(arguments)
            }
        }

        /// The operator token `--console` needs, from the variable `--console-token-env` names:
        /// long enough, and not the game's token, so that a game server cannot open the console.
        static func consoleToken(_ arguments: Arguments, io: CommandIO, bearerToken: String?) throws(Arguments.UsageError)
            -> String?
        {
            let variable = arguments.value(ServeCommand.consoleTokenEnv)
            guard arguments.flag(ServeCommand.console) else {
                guard variable == nil else { throw Arguments.UsageError(message: "--console-token-env needs --console") }
                return nil
            }
            guard let variable else {
                throw Arguments.UsageError(message: "--console needs --console-token-env VAR: the console is never served without a token")
            }
            guard let token = io.environmentValue(variable), token.utf8.count >= LedgerConsole.operatorTokenByteCountMin else {
                throw Arguments.UsageError(
                    message: "--console-token-env \(variable): the variable is unset or shorter than \(LedgerConsole.operatorTokenByteCountMin) bytes")
            }
            guard token != bearerToken else {
                throw Arguments.UsageError(message: "--console-token-env: the operator token must differ from the game's bearer token")
            }
            return token
        }

        /// Whether `host` names a loopback address: `localhost`, `::1`, or 127.0.0.0/8.
        static func isLoopback(_ host: String) -> Bool {
            let parts = host.split(separator: ".", omittingEmptySubsequences: false)
            let isIPv4Loopback =
                parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
            return host == "localhost" || host == "::1" || host == "[::1]" || isIPv4Loopback
        }
    }
}
