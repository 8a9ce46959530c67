import AppStoreAdapter
import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// `ledger appstore fulfill` and `ledger appstore notify`: signed App Store input into a ledger.
enum AppStoreLedgerCommands {
    /// `--transaction-id ID`.
    static let transactionID = CommonOptions.transactionID.helping("fulfill by transaction ID alone, from Apple's answer")

    static let fulfill = Command(
        words: ["appstore", "fulfill"],
        summary: "fulfill a StoreKit 2 signed transaction for a player",
        positionals: "[JWS-FILE]",
        description: """
            Verifies the signed transaction (JWS-FILE, or - for stdin) offline and runs it
            through the pipeline for player P, printing the outcome like `ledger fulfill`.
            The transaction's appAccountToken must be the player's (AppAccountToken.forPlayer).

            With --transaction-id and the App Store Server API options (--key, --key-id,
            --issuer-id) instead of JWS-FILE, the purchase
            is fetched from Apple (Get Transaction Info) and verified, granted once, and then
            finished on Apple's server (Finish Transaction); a finish that fails stays pending
            for `ledger recover` with the same options.

            exit codes: 0 granted or alreadyFulfilled, 3 rejected (or unknown to Apple),
              1 infrastructure error, 64 usage, 65 invalid catalog or an unreadable JWS,
              66 catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, CommonOptions.player.required, transactionID] + AppStoreAPIOptions.options,
        run: { arguments, io in await runFulfill(arguments, io: io) })

    static let notify = Command(
        words: ["appstore", "notify"],
        summary: "apply a signed App Store Server Notification V2 to a ledger",
        positionals: "JWS-FILE",
        description: """
            Verifies the notification (and its nested signed transaction) offline and applies
            it once by notificationUUID: REFUND, REFUND_REVERSED and REVOKE become revocation
            events (a REFUND_PRORATED refund takes back its share of the units, rounded half
            up; a subscription's refund names its period); CONSUMPTION_REQUEST prints the V2
            ConsumptionRequest body built from the ledger (`ledger appstore consumption` sends
            it); a notification about an auto-renewable subscription (SUBSCRIBED, DID_RENEW,
            OFFER_REDEEMED, DID_CHANGE_RENEWAL_PREF, DID_CHANGE_RENEWAL_STATUS, DID_FAIL_TO_RENEW,
            GRACE_PERIOD_EXPIRED, EXPIRED, RENEWAL_EXTENDED) fulfils the period it carries for
            the chain's player and updates the chain, in signedDate order ("outcome":
            "subscription"); ONE_TIME_CHARGE grants the purchase to the player its appAccountToken
            names (`ledger appstore bind`), or, when it names none, journals it as an
            accountUnassigned attempt for an operator ("outcome": "oneTimeCharge"); other types
            are logged. A rejected notification changes nothing and
            is not recorded, so Apple's redelivery is processed again. The database must exist.

            exit codes: 0 processed (or already processed), 3 not verified, its payload refused
              (a subscription's transaction without webOrderLineItemId, say), its revocation
              rejected, or the subscription period it carried rejected (another player's
              account, dates out of order), or its one-time charge rejected or unassigned;
              1 infrastructure error, 64 usage, 65 invalid
              catalog, 66 database or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required] + AppStoreCommands.verifierOptions,
        run: { arguments, io in await runNotify(arguments, io: io) })

    /// Runs `body` with the ledger for App Store input, then closes its store: `verifier`
    /// checks signed transactions offline, or `serverAPI`, when given, fetches them by ID and
    /// finishes them on Apple's server.
    static func withLedger<T>(
        _ arguments: Arguments, database: LedgerDatabase, verifier: SignedDataVerifier, environment: AppStoreEnvironment,
        createIfMissing: Bool, serverAPI: AppStoreServerAPIClient? = nil, _ body: (Ledger) async throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let catalog = try CatalogLoader.load(path: try required(arguments, CommonOptions.catalog))
        var configuration = LedgerConfiguration(environment: environment.storeEnvironment)
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        return try await LedgerSetup.withStore(database, createIfMissing: createIfMissing) { store throws(LedgerError) in
            if let serverAPI {
                return try await body(
                    try Ledger(
                        catalog: catalog, store: store, verifier: AppStoreServerTransactionVerifier(client: serverAPI),
                        finisher: AppStoreServerFinisher(client: serverAPI), configuration: configuration))
            }
            return try await body(
                try Ledger(
                    catalog: catalog, store: store, verifier: AppStoreTransactionVerifier(signedDataVerifier: verifier),
                    finisher: AppStoreFinisher(), configuration: configuration))
        }
    }

    private static func required(_ arguments: Arguments, _ option: CommandOption) throws(LedgerError) -> String {
        guard let value = arguments.value(option) else { throw LedgerError.invalidArgument("--\(option.name) is required") }
        return value
    }

    static func runFulfill(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        if arguments.value(transactionID) != nil { return await runFulfillByID(arguments, io: io) }
        let verifier: SignedDataVerifier
        let environment: AppStoreEnvironment
        let jws: String
        let player: String
        let database: LedgerDatabase
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 1)
            database = try LedgerDatabase(arguments, io: io)
            _ = try arguments.required(CommonOptions.catalog)
            player = try arguments.required(CommonOptions.player)
            (verifier, environment) = try AppStoreCommands.signedDataVerifier(arguments)
            jws = try AppStoreCommands.readJWS(arguments, io: io)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore fulfill")
        }
        guard let submission = AppStoreTransactionVerifier.submission(jws: jws, playerID: player) else {
            return AppStoreCommands.printFailure(
                AppStoreVerificationError(.verificationFailure, "not a readable signed transaction"), io: io)
        }
        do throws(LedgerError) {
            return try await withLedger(
                arguments, database: database, verifier: verifier, environment: environment, createIfMissing: true) { ledger throws(LedgerError) in
                let outcome = try await ledger.fulfill(submission, via: .operator)
                io.printJSON(FulfillCommand.output(outcome, transactionID: submission.transactionID,
                    productID: submission.storeProductID, playerID: player))
                return outcome.rejection == nil ? .ok : .rejected
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "appstore fulfill")
        }
    }

    /// `appstore fulfill --transaction-id`: Apple's answer names the product; the pipeline
    /// fetches it again through the server verifier, which is the one that decides.
    static func runFulfillByID(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let client: AppStoreServerAPIClient
        let transactionID: String
        let player: String
        let database: LedgerDatabase
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            _ = try arguments.required(CommonOptions.catalog)
            player = try arguments.required(CommonOptions.player)
            transactionID = try arguments.required(Self.transactionID)
            client = try AppStoreAPIOptions.client(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore fulfill")
        }
        let storeProductID: String
        do throws(AppStoreServerAPIError) {
            guard case .found(let signed) = try await client.transactionInfo(transactionID: transactionID),
                let productID = signed.transaction.productId
            else {
                io.printJSON(AppStoreServerAPICommands.LookupOutput(found: false))
                io.printError("ledger appstore fulfill: Apple does not know \(transactionID) in \(client.environment.rawValue)")
                return .rejected
            }
            storeProductID = productID
        } catch {
            return AppStoreServerAPICommands.report(error, io: io, command: "appstore fulfill")
        }
        do throws(LedgerError) {
            return try await withLedger(
                arguments, database: database, verifier: client.verifier, environment: client.environment,
                createIfMissing: true, serverAPI: client) { ledger throws(LedgerError) in
                let submission = AppStoreServerTransactionVerifier.submission(
                    transactionID: transactionID, storeProductID: storeProductID, playerID: player)
                let outcome = try await ledger.fulfill(submission, via: .operator)
                io.printJSON(FulfillCommand.output(outcome, transactionID: transactionID, productID: storeProductID, playerID: player))
                return outcome.rejection == nil ? .ok : .rejected
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "appstore fulfill")
        }
    }

    static func runNotify(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let verifier: SignedDataVerifier
        let environment: AppStoreEnvironment
        let jws: String
        let database: LedgerDatabase
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 1)
            database = try LedgerDatabase(arguments, io: io)
            _ = try arguments.required(CommonOptions.catalog)
            (verifier, environment) = try AppStoreCommands.signedDataVerifier(arguments)
            jws = try AppStoreCommands.readJWS(arguments, io: io)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore notify")
        }
        do throws(LedgerError) {
            return try await withLedger(
                arguments, database: database, verifier: verifier, environment: environment, createIfMissing: false) { ledger throws(LedgerError) in
                let processor = AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger)
                let outcome = try await processor.process(jws)
                io.printJSON(outcome)
                switch outcome {
                case .rejected: return .rejected
                case .revocation(let revocation): return revocation.record == nil ? .rejected : .ok
                case .subscription(let effect): return effect.period?.rejection == nil ? .ok : .rejected
                case .oneTimeCharge(let charge): return charge.fulfillment == nil || charge.rejection != nil ? .rejected : .ok
                case .alreadyProcessed, .consumptionRequest, .consentRescinded, .logged: return .ok
                }
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "appstore notify")
        }
    }
}
