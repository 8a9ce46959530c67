import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// `ledger playstore rtdn` and `ledger playstore voided-sync`: Google Play notifications and
/// voided purchases into a ledger.
enum PlayStoreLedgerCommands {
    /// Largest push body read.
    static let bodyByteCountMax = 64 * 1024
    /// The environment variable holding the push's `Authorization` header when `--authorization` is not given.
    static let authorizationVariable = "LEDGER_PUSH_AUTHORIZATION"
    /// The group of the push's authentication.
    static let pushGroup = OptionGroup(
        title: "Google Play push",
        summary: "The Pub/Sub push subscription whose OIDC token a push must carry: RS256, signed by a key of "
            + "Google's key set, issued by Google for the audience and the service account, not expired.")
    /// `--audience AUD`.
    static let audience = CommandOption("audience", "AUD", help: "the push subscription's token audience", group: pushGroup)
    /// `--push-service-account EMAIL`.
    static let pushServiceAccount = CommandOption(
        "push-service-account", "EMAIL", help: "the push subscription's service account", group: pushGroup)
    /// `--jwks FILE`.
    static let jwks = CommandOption(
        "jwks", "FILE", help: "Google's key set from a file (offline trials); without it, fetched from Google (cached, retried)",
        group: pushGroup)
    /// The push options.
    static let pushOptions = [audience, pushServiceAccount, jwks]
    /// `--authorization VALUE`.
    static let authorization = CommandOption(
        "authorization", "VALUE", default: "$\(authorizationVariable)",
        help: "the push's Authorization header; prefer the variable, which other users cannot see")
    /// The options both ledger commands take.
    static let ledgerCommandOptions = [LedgerDatabase.option, CommonOptions.catalog.required] + StorePortOptions.playOptions

    static let rtdn = Command(
        words: ["playstore", "rtdn"],
        summary: "apply one Google Play real-time developer notification read from stdin",
        description: """
            Reads one Pub/Sub push body ({"message": {"data": BASE64, "messageId": ...}}) on
            stdin. The push's Authorization header (--authorization, else the environment
            variable \(authorizationVariable)) must carry Pub/Sub's OIDC token: RS256, signed
            by a key of Google's key set, issued by Google for AUD and EMAIL, not expired.
            Otherwise nothing is read or recorded. An authenticated push is applied once by
            messageId: a purchased or canceled one-time product is read back from Google and
            goes through the pipeline for the player named by obfuscatedExternalAccountId (set
            it to the player ID at purchase); a void becomes a refund once Google confirms it
            (voidedpurchases.list lists it, or purchases.products.get shows the purchase
            canceled or wholly refunded), else it is recorded as unconfirmed for voided-sync;
            a chargeback review (pendingRefundReviewNotification) is answered once with
            orders.reviewrefund, with the ledger's evidence, within Google's 24 hours; a test
            notification is logged. The database must exist. Needs --service-account or
            --purchases.

            exit codes: 0 processed (or already processed, or a void left unconfirmed),
              3 rejected (or a chargeback review Google refused, or past its deadline), 77 the push did not authenticate, 1 infrastructure error (answer
              5xx), 64 usage, 65 invalid input or catalog, 66 database or catalog missing
            """,
        options: ledgerCommandOptions + [audience.required, pushServiceAccount.required, jwks, authorization]
            + PlayRefundReviewCommand.preferenceOptions,
        run: { arguments, io in await runRTDN(arguments, io: io) })

    static let voidedSync = Command(
        words: ["playstore", "voided-sync"],
        summary: "apply Google Play's voided purchases since the saved watermark",
        description: """
            Pages through voidedpurchases.list (quantity-based partial refunds included) from
            the saved watermark (less an overlap window, at most 30 days back), applies each
            voided purchase once as a refund (a partial refund takes back its voidedQuantity
            units), checks each purchase it changed against Google's refundableQuantity, and
            saves the new watermark. Running it again applies nothing twice. The database must
            exist. Needs --service-account or --purchases.

            exit codes: 0 done, 1 the API or the ledger failed, 64 usage, 65 invalid catalog,
              66 database or catalog missing
            """,
        options: ledgerCommandOptions,
        run: { arguments, io in await runVoidedSync(arguments, io: io) })

    /// The options both ledger commands take: the API, the package and the environment.
    static func ledgerOptions(
        parsing arguments: Arguments, io: CommandIO
    ) throws(Arguments.UsageError) -> (LedgerDatabase, any PlayPurchasesAPI, String, StoreEnvironment) {
        try arguments.expectPositionals(max: 0)
        let database = try LedgerDatabase(arguments, io: io)
        _ = try arguments.required(CommonOptions.catalog)
        return (
            database,
            try PlayStoreCommands.api(arguments), try arguments.required(StorePortOptions.package),
            try PlayStoreCommands.environment(arguments)
        )
    }

    /// The authenticator the push options describe: Google's key set from `--jwks FILE`, else
    /// fetched from Google.
    static func authenticator(_ arguments: Arguments) throws(Arguments.UsageError) -> PubSubPushAuthenticator {
        let authentication = PubSubPushAuthentication(
            audience: try arguments.required(audience), serviceAccountEmail: try arguments.required(pushServiceAccount))
        guard let path = arguments.value(jwks) else {
            return PubSubPushAuthenticator(configuration: authentication, keys: GoogleSigningKeys())
        }
        do throws(PlayAPIError) {
            return PubSubPushAuthenticator(configuration: authentication, keys: try StaticSigningKeys(contentsOfFile: path))
        } catch {
            throw Arguments.UsageError(message: "--jwks \(path) is not a usable key set: \(error)")
        }
    }

    static func runRTDN(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let (database, api, package, environment): (LedgerDatabase, any PlayPurchasesAPI, String, StoreEnvironment)
        let authenticator: PubSubPushAuthenticator
        let preferences: PlayRefundReviewCommand.Preferences
        do throws(Arguments.UsageError) {
            (database, api, package, environment) = try ledgerOptions(parsing: arguments, io: io)
            authenticator = try Self.authenticator(arguments)
            preferences = try PlayRefundReviewCommand.Preferences(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "playstore rtdn")
        }
        let authorization = arguments.value(Self.authorization) ?? io.environmentValue(authorizationVariable)
        guard let body = io.readInput(bodyByteCountMax) else {
            io.printError("ledger playstore rtdn: stdin is larger than \(bodyByteCountMax) bytes")
            return .dataError
        }
        do throws(LedgerError) {
            return try await PlayStoreCommands.withLedger(
                arguments, database: database, api: api, package: package, environment: environment) { ledger throws(LedgerError) in
                var processor = PlayNotificationProcessor(
                    api: api, packageName: package, ledger: ledger, authenticator: authenticator,
                    playerResolver: { account in account })
                processor.refundReviewSender = preferences.sender(api: api, packageName: package, ledger: ledger)
                let outcome = try await processor.process(
                    headers: authorization.map { ["Authorization": $0] } ?? [:], body: body)
                return printRTDN(outcome, io: io)
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "playstore rtdn")
        }
    }

    /// Prints one outcome as JSON and returns its exit code.
    static func printRTDN(_ outcome: PlayNotificationOutcome, io: CommandIO) -> ExitCode {
        io.printJSON(outcome)
        switch outcome {
        case .unauthenticated: return .noPermission
        case .rejected: return .rejected
        case .fulfillment(let fulfillment): return fulfillment.rejection == nil ? .ok : .rejected
        case .revocation(let revocation, _): return revocation.record == nil ? .rejected : .ok
        case .subscription(let effect): return effect.period?.rejection == nil ? .ok : .rejected
        case .alreadyProcessed, .unresolved, .unconfirmed, .logged: return .ok
        case .refundReview(let review, _): return review.answer == nil ? .rejected : .ok
        }
    }

    struct SyncOutput: Encodable {
        var pagesRead: Int
        var voidedSeen: Int
        var recorded: Int
        var alreadyRecorded: Int
        var skipped: Int
        /// Voids recorded now that Google made because a purchase was not acknowledged in time.
        var unacknowledgedVoids: Int
        var refundChecks: [String: String]
        var truncated: Bool
        var watermarkMilliseconds: Int64?
    }

    static func runVoidedSync(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let (database, api, package, environment): (LedgerDatabase, any PlayPurchasesAPI, String, StoreEnvironment)
        do throws(Arguments.UsageError) {
            (database, api, package, environment) = try ledgerOptions(parsing: arguments, io: io)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "playstore voided-sync")
        }
        do throws(LedgerError) {
            return try await PlayStoreCommands.withLedger(
                arguments, database: database, api: api, package: package, environment: environment) { ledger throws(LedgerError) in
                let report = try await VoidedPurchasesSync(api: api, packageName: package, ledger: ledger).run()
                io.printJSON(
                    SyncOutput(
                        pagesRead: report.pagesRead, voidedSeen: report.voidedSeen, recorded: report.recorded,
                        alreadyRecorded: report.alreadyRecorded, skipped: report.skipped,
                        unacknowledgedVoids: report.unacknowledgedVoids, refundChecks: report.refundChecks.mapValues(\.description), truncated: report.truncated,
                        watermarkMilliseconds: report.watermarkSaved))
                return .ok
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "playstore voided-sync")
        }
    }
}

extension RevocationOutcome {
    /// Whether the event was recorded before (by the sync or another notification).
    fileprivate var isAlreadyRecorded: Bool {
        if case .alreadyRecorded = self { return true }
        return false
    }
}
