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
        description: """
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
            {"formatVersion": 1, "listening": "HOST:PORT"} once bound, then serves until SIGTERM or SIGINT:
            it stops accepting, finishes requests in flight, closes the store, and exits 0.

            The ledger must exist (`ledger init`, or --create): a missing SQLite file, an
            empty PostgreSQL database or another application's is refused at start, and
            nothing is created, since an empty ledger would grant every old purchase again.

            What the store options enable: --root signed App Store transactions and
            /appstore/notifications; --app-store-key the App Store reconcile and the
            /appstore account routes; the Play API options the Play reconcile; --audience
            (with the Play API options) /playstore/notifications, whose chargeback reviews
            are answered with the ledger's evidence, once, within Google's 24 hours; the
            Stripe options Stripe purchases and POST /stripe/webhooks; the Steam options
            Steam orders, POST /steam/orders, its authorization and POST /steam/sync (the
            report sync also runs with recover(): at start and every interval).

            exit codes: 0 stopped by a signal, 1 infrastructure error (the port is taken),
              64 usage (also: a non-loopback --host without a bearer token), 65 invalid
              catalog or not a ledger, 66 database (without --create) or catalog missing
            """,
        options: [LedgerDatabase.option, create, CommonOptions.catalog.required, host, port, bearerTokenEnv, console, consoleTokenEnv,
            recoverIntervalSeconds, noRecover, readTimeoutMilliseconds, connectionCountMax]
            + ServeAccountBindings.options + StorePortOptions.options + AppStoreAPIOptions.prefixedOptions
            + PlayStoreLedgerCommands.pushOptions + PlayRefundReviewCommand.preferenceOptions + StripeOptions.options
            + SteamOptions.options,
        run: { arguments, io in await run(arguments, io: io) })

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
            await ledger.store.close()
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
        await ledger.store.close()
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
        let store = try await options.database.open(createIfMissing: options.create)
        let ledger: Ledger
        do throws(LedgerError) {
            ledger = try Ledger(
                catalog: catalog, store: store, verifier: options.ports.verifier(for: catalog),
                finisher: options.ports.finisher(for: configuration), observer: metrics, configuration: configuration)
        } catch {
            await store.close()
            throw error
        }
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
