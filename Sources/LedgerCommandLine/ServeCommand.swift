import AppStoreAdapter
import Foundation
import FulfillmentLedger
import LedgerConsole
import LedgerHTTP
import LedgerHTTPServer
import PlayStoreAdapter
import SteamAdapter
import StripeAdapter

/// `ledger serve`: the `LedgerHTTPHandler` routes on HTTP/1.1, for game servers in any
/// language. It recovers at start and on an interval, and shuts down gracefully on SIGTERM.
enum ServeCommand {
    /// Default interval between `recover()` runs, in seconds.
    static let recoverIntervalSecondsDefault = 60
    /// Longest interval accepted, in seconds (a day).
    static let recoverIntervalSecondsMax = 86_400
    /// The read timeouts accepted: how long a request may take to arrive once begun.
    static let readTimeoutMillisecondsRange = 100...600_000
    /// The connection limits accepted: each connection is served on a thread of its own.
    static let connectionCountMaxRange = 1...4_096

    static let command = Command(
        words: ["serve"],
        summary: "serve the ledger's HTTP handlers (purchases, notifications, reads, metrics)",
        help: """
            usage: ledger serve --db DB --catalog FILE [--host H] [--port P] [options]

            Serves POST /purchases, POST /operations, POST /revocations, GET /players/P,
            GET /players/P/entitlements, GET /players/P/eligibility?product=ID,
            GET /players/P/subscriptions, GET /players/P/history, POST /players/P/reset,
            POST /players/P/restore, POST /players/P/account-token, POST
            /players/P/reconcile, GET /lookup/ID, GET /changes?after=N, GET
            /appstore/app-transactions/ID, POST /appstore/transactions/ID/app-account-token,
            POST /appstore/notifications, POST /playstore/notifications, POST
            /stripe/webhooks, POST /steam/orders, POST /steam/orders/ID/authorization,
            POST /steam/sync, GET /healthz, GET
            /readyz, GET /metrics and GET /openapi.json, the OpenAPI 3.1 document of them
            all (Docs/openapi.json;
            Docs/Integration.md, "HTTP handlers"). Prints
            {"listening": "HOST:PORT"} once bound, then serves until SIGTERM or SIGINT:
            it stops accepting, finishes requests in flight, closes the store, and exits 0.

            The ledger must exist (`ledger init`, or --create): a missing SQLite file, an
            empty PostgreSQL database or another application's is refused at start, and
            nothing is created, since an empty ledger would grant every old purchase again.

            options:
              --db DB                 the ledger: a SQLite file or a postgresql:// URL
                                      (default: $LEDGER_DATABASE_URL)
              --create                create the ledger if it is missing (a first deployment)
              --catalog FILE          the product catalog
              --host H                address to bind (default 127.0.0.1: loopback only;
                                      any other address needs --bearer-token-env)
              --port P                port (default 8080; 0 picks a free one)
              --bearer-token-env VAR  require "Authorization: Bearer $VAR" on the game's
                                      routes (/purchases, /operations, /revocations,
                                      /players, /lookup, /changes, /appstore/transactions,
                                      /appstore/app-transactions, /steam); the token is read
                                      from the environment, never from the command line
              --console               serve the operator console under /console: search by
                                      player or any store ID, a player's timeline, and
                                      "retry finish" (Docs/Support.md); needs
              --console-token-env VAR the operator token (16 bytes or more, not the game's
                                      bearer token), read from the environment
              --recover-interval-seconds N
                                      run recover() at start and every N seconds (default
                                      60; 0 only at start; at most 86400)
              --no-recover            never run recover() here (another process of the
                                      fleet runs it)
              --read-timeout-milliseconds N
                                      answer 408 and close when a request has not fully
                                      arrived N ms after it began (a first one: after the
                                      connection opened); default 10000, 100...600000
              --connection-count-max N
                                      most connections at once (default 512, 1...4096); at
                                      it the one idle longest is closed to make room, and
                                      with none idle a new one is answered 503
              --account-binding B     identity (default: the store's account ID is the player
                                      ID) or app-account-token (AppAccountToken.forPlayer)
              --store-account-binding STORE=B
                                      B for one store (appStore, playStore, stripe, steam, test) in place of
                                      --account-binding; e.g. appStore=app-account-token
            \(StorePortOptions.help)
            \(AppStoreAPIOptions.prefixedHelp)
                                      (--root enables signed transactions and
                                      /appstore/notifications; --app-store-key the App
                                      Store reconcile and the /appstore account routes;
                                      the Play API options the Play reconcile)
              --audience AUD          Google Play push: the Pub/Sub audience, with
                                      --push-service-account EMAIL [--jwks FILE]: enables
                                      /playstore/notifications (needs the Play API options);
                                      its chargeback reviews are answered with the ledger's
                                      evidence, once, within Google's 24 hours:
            \(PlayRefundReviewCommand.preferenceHelp)
            \(StripeOptions.help)
                                      (enables Stripe purchases and POST /stripe/webhooks)
            \(SteamOptions.help)
                                      (enables Steam orders, POST /steam/orders, its
                                      authorization and POST /steam/sync; the report sync
                                      also runs with recover(): at start and every interval)

            exit codes: 0 stopped by a signal, 1 infrastructure error (the port is taken),
              64 usage (also: a non-loopback --host without a bearer token), 65 invalid
              catalog or not a ledger, 66 database (without --create) or catalog missing
            """,
        valueOptions: StorePortOptions.names.union([
            "db", "catalog", "host", "port", "bearer-token-env", "console-token-env", "recover-interval-seconds", "read-timeout-milliseconds", "connection-count-max", "account-binding", "store-account-binding",
            "audience", "push-service-account", "jwks",
        ]).union(AppStoreAPIOptions.prefixedNames).union(PlayRefundReviewCommand.preferenceOptions).union(StripeOptions.names)
            .union(SteamOptions.names),
        flagOptions: ["create", "console", "no-recover", PlayRefundReviewCommand.sampleFlag],
        run: { arguments, io in await run(arguments, io: io) })

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
            create = arguments.flag("create")
            catalogPath = try arguments.required("catalog")
            (appStore, appStoreServerAPI) = try AppStoreAPIOptions.prefixed(arguments)
            stripe = try StripeOptions.parse(arguments, io: io)
            steam = try SteamOptions.parse(arguments, io: io, environment: try PlayStoreCommands.environment(arguments))
            ports = try StorePortOptions(
                arguments, appStore: appStore, appStoreServerAPI: appStoreServerAPI, stripe: stripe?.api, steam: steam?.api)
            host = arguments.value("host") ?? "127.0.0.1"
            port = try Self.integer(arguments, "port", default: 8080, range: 0...65_535)
            recoverIntervalSeconds = try Self.integer(
                arguments, "recover-interval-seconds", default: ServeCommand.recoverIntervalSecondsDefault,
                range: 0...ServeCommand.recoverIntervalSecondsMax)
            readTimeoutMilliseconds = try Self.integer(
                arguments, "read-timeout-milliseconds", default: LedgerHTTPServerLimits().readTimeoutMilliseconds,
                range: ServeCommand.readTimeoutMillisecondsRange)
            connectionCountMax = try Self.integer(
                arguments, "connection-count-max", default: LedgerHTTPServerLimits().connectionCountMax,
                range: ServeCommand.connectionCountMaxRange)
            if let variable = arguments.value("bearer-token-env") {
                guard let token = io.environmentValue(variable), !token.isEmpty else {
                    throw Arguments.UsageError(message: "--bearer-token-env \(variable): the variable is unset or empty")
                }
                bearerToken = token
            }
            accountBindings = try ServeAccountBindings(arguments)
            refundReviews = try PlayRefundReviewCommand.Preferences(arguments)
            consoleToken = try Self.consoleToken(arguments, io: io, bearerToken: bearerToken)
            if arguments.flag("no-recover") {
                guard arguments.value("recover-interval-seconds") == nil else {
                    throw Arguments.UsageError(message: "--no-recover and --recover-interval-seconds contradict each other")
                }
                recoverIntervalSeconds = nil
            }
            // Off loopback, anyone who reaches the port could grant purchases and read players.
            guard bearerToken != nil || Self.isLoopback(host) else {
                throw Arguments.UsageError(
                    message: "--host \(host) is not a loopback address: set --bearer-token-env so that only the game server is served")
            }
            if arguments.value("audience") != nil {
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
            let variable = arguments.value("console-token-env")
            guard arguments.flag("console") else {
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

        static func integer(_ arguments: Arguments, _ name: String, default value: Int, range: ClosedRange<Int>)
            throws(Arguments.UsageError) -> Int
        {
            guard let text = arguments.value(name) else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw Arguments.UsageError(message: "--\(name) \(text): expected a whole number in \(range)")
            }
            return number
        }
    }

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let options: Options
        do throws(Arguments.UsageError) {
            options = try Options(arguments, io: io)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "serve")
        }
        let handler: LedgerHTTPHandler
        let ledger: Ledger
        let serverStatistics = ServedServerStatistics()
        do throws(LedgerError) {
            (ledger, handler) = try await Self.handler(options, serverStatistics: serverStatistics)
        } catch {
            let code = LedgerCommandLine.report(error, io: io, command: "serve", catalogPath: options.catalogPath)
            switch error {
            case .ledgerMissing:
                io.printError(
                    "ledger serve: nothing was created; check --db, then run `ledger init --db DB` once (or pass --create) for a first deployment")
                return code
            case .foreignDatabase, .notALedger:
                // Not a ledger to serve: refused as bad input, like an invalid catalog.
                return .dataError
            default:
                return code
            }
        }
        // The server refuses a body over the handler's limit before reading it, so neither reads
        // more than the handler would decode.
        let limits = LedgerHTTPServerLimits(
            bodyByteCountMax: handler.bodyByteCountMax, connectionCountMax: options.connectionCountMax,
            readTimeoutMilliseconds: options.readTimeoutMilliseconds)
        let console = options.consoleToken.map { LedgerConsole(ledger: ledger, operatorToken: $0) }
        let server = LedgerHTTPServer(
            configuration: LedgerHTTPServerConfiguration(host: options.host, port: options.port, limits: limits),
            handler: { request in
                if let console, LedgerConsole.handles(request) { return await console.handle(request) }
                return await handler.handle(request)
            })
        serverStatistics.attach(server)
        let port: Int
        do throws(LedgerHTTPServerError) {
            port = try server.start()
        } catch {
            io.printError("ledger serve: \(error)")
            return .failure
        }
        io.printJSON(["listening": "\(options.host):\(port)"])
        let recovery = Task {
            guard let intervalSeconds = options.recoverIntervalSeconds else { return }
            await Self.recoverLoop(ledger, intervalSeconds: intervalSeconds, steam: handler.steamOrders, io: io)
        }
        await server.runUntilSignalled()
        recovery.cancel()
        _ = await recovery.value
        // Every request has been answered (or cut off past the grace): nothing uses the store now.
        await LedgerDatabase.close(ledger.store)
        io.printError("ledger serve: stopped")
        return .ok
    }

    /// The ledger with the ports the flags configure, and the handler over it, whose `/metrics`
    /// adds `serverStatistics`.
    static func handler(_ options: Options, serverStatistics: ServedServerStatistics) async throws(LedgerError)
        -> (Ledger, LedgerHTTPHandler)
    {
        let metrics = LedgerMetrics()
        var configuration = LedgerConfiguration(environment: options.ports.environment)
        options.accountBindings.apply(to: &configuration)
        let catalog = try CatalogLoader.load(path: options.catalogPath)
        let ledger = try Ledger(
            catalog: catalog, store: try await options.database.open(createIfMissing: options.create),
            verifier: options.ports.verifier(for: catalog), finisher: options.ports.finisher(for: configuration), observer: metrics, configuration: configuration)
        var play: PlayNotificationProcessor?
        if let authenticator = options.playPush, let (api, package) = options.ports.play {
            // A Play push names its player only when the account ID is the player ID itself.
            let named = options.accountBindings.binding(for: .playStore) == .identity
            var processor = PlayNotificationProcessor(
                api: api, packageName: package, ledger: ledger, authenticator: authenticator,
                playerResolver: { account in named ? account : nil })
            processor.refundReviewSender = options.refundReviews.sender(api: api, packageName: package, ledger: ledger)
            play = processor
        }
        let handler = LedgerHTTPHandler(
            ledger: ledger,
            appStoreNotifications: options.appStore.map { AppStoreNotificationProcessor(signedDataVerifier: $0, ledger: ledger) },
            playNotifications: play, metrics: metrics, bearerToken: options.bearerToken,
            additionalMetrics: { serverStatistics.prometheusText() }, appStoreServerAPI: options.appStoreServerAPI,
            playReconciler: options.ports.play.map { PlayReconciler(api: $0.api, packageName: $0.packageName, ledger: ledger) },
            stripeWebhooks: options.stripe.map {
                StripeWebhookProcessor(api: $0.api, ledger: ledger, authenticator: $0.authenticator)
            },
            steamOrders: options.steam.map { SteamOrderProcessor(api: $0.api, ledger: ledger) })
        return (ledger, handler)
    }

    /// `recover()` now and then every `intervalSeconds` (never again when 0), until cancelled.
    /// With `steam`, each round also runs the Steam report sync, which grants what Steam charged
    /// and the ledger does not hold (a crash between FinalizeTxn and the grant).
    static func recoverLoop(_ ledger: Ledger, intervalSeconds: Int, steam: SteamOrderProcessor? = nil, io: CommandIO) async {
        while !Task.isCancelled {
            do throws(LedgerError) {
                let report = try await ledger.recover()
                if !report.isClean { io.printError("ledger serve: recovery left work pending: \(report.finishesFailed.count) finish(es)") }
            } catch {
                io.printError("ledger serve: recovery failed: \(error)")
            }
            if let steam {
                do throws(LedgerError) {
                    let report = try await SteamReportSync(processor: steam).run()
                    if report.granted > 0 { io.printError("ledger serve: Steam sync granted \(report.granted) charged item(s)") }
                } catch {
                    io.printError("ledger serve: Steam sync failed: \(error)")
                }
            }
            guard intervalSeconds > 0 else { return }
            try? await Task.sleep(for: .seconds(intervalSeconds))
        }
    }
}
