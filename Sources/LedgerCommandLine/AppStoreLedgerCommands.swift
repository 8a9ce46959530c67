import AppStoreAdapter
import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// `ledger appstore fulfill` and `ledger appstore notify`: signed App Store input into a ledger.
enum AppStoreLedgerCommands {
    static let fulfill = Command(
        words: ["appstore", "fulfill"],
        summary: "fulfill a StoreKit 2 signed transaction for a player",
        help: """
            usage: ledger appstore fulfill --db DB --catalog FILE --player P --root CERT.der
                     --bundle-id ID --environment E [--app-apple-id N] JWS-FILE

            Verifies the signed transaction (JWS-FILE, or - for stdin) offline and runs it
            through the pipeline for player P, printing the outcome like `ledger fulfill`.
            The transaction's appAccountToken must be the player's (AppAccountToken.forPlayer).

            options:
            \(AppStoreCommands.verifierHelp)

            exit codes: 0 granted or alreadyFulfilled, 3 rejected, 1 infrastructure error,
              64 usage, 65 invalid catalog or an unreadable JWS, 66 catalog missing
            """,
        valueOptions: AppStoreCommands.verifierOptions.union(["db", "catalog", "player"]),
        run: { arguments, io in await runFulfill(arguments, io: io) })

    static let notify = Command(
        words: ["appstore", "notify"],
        summary: "apply a signed App Store Server Notification V2 to a ledger",
        help: """
            usage: ledger appstore notify --db DB --catalog FILE --root CERT.der --bundle-id ID
                     --environment E [--app-apple-id N] JWS-FILE

            Verifies the notification (and its nested signed transaction) offline and applies
            it once by notificationUUID: REFUND, REFUND_REVERSED and REVOKE become revocation
            events (a REFUND_PRORATED refund takes back its share of the units, rounded half
            up); CONSUMPTION_REQUEST prints the consumption information to send to Apple;
            other types are logged. The database must exist.

            options:
            \(AppStoreCommands.verifierHelp)

            exit codes: 0 processed (or already processed), 3 not verified or rejected,
              1 infrastructure error, 64 usage, 65 invalid catalog, 66 database or catalog missing
            """,
        valueOptions: AppStoreCommands.verifierOptions.union(["db", "catalog"]),
        run: { arguments, io in await runNotify(arguments, io: io) })

    static func ledger(
        _ arguments: Arguments, database: LedgerDatabase, verifier: SignedDataVerifier, environment: AppStoreEnvironment,
        createIfMissing: Bool
    ) async throws(LedgerError) -> Ledger {
        let catalog = try CatalogLoader.load(path: try required(arguments, "catalog"))
        var configuration = LedgerConfiguration(environment: environment.storeEnvironment)
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        return try Ledger(
            catalog: catalog, store: try await database.open(createIfMissing: createIfMissing),
            verifier: AppStoreTransactionVerifier(signedDataVerifier: verifier),
            finisher: AppStoreFinisher(), configuration: configuration)
    }

    private static func required(_ arguments: Arguments, _ name: String) throws(LedgerError) -> String {
        guard let value = arguments.value(name) else { throw LedgerError.invalidArgument("--\(name) is required") }
        return value
    }

    static func runFulfill(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let verifier: SignedDataVerifier
        let environment: AppStoreEnvironment
        let jws: String
        let player: String
        let database: LedgerDatabase
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 1)
            database = try LedgerDatabase(arguments, io: io)
            _ = try arguments.required("catalog")
            player = try arguments.required("player")
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
            let ledger = try await ledger(
                arguments, database: database, verifier: verifier, environment: environment, createIfMissing: true)
            let outcome = try await ledger.fulfill(submission)
            io.printJSON(FulfillCommand.output(outcome, transactionID: submission.transactionID,
                productID: submission.storeProductID, playerID: player))
            return outcome.rejection == nil ? .ok : .rejected
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
            _ = try arguments.required("catalog")
            (verifier, environment) = try AppStoreCommands.signedDataVerifier(arguments)
            jws = try AppStoreCommands.readJWS(arguments, io: io)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore notify")
        }
        do throws(LedgerError) {
            let ledger = try await ledger(
                arguments, database: database, verifier: verifier, environment: environment, createIfMissing: false)
            let processor = AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger)
            let outcome = try await processor.process(jws)
            io.printJSON(outcome)
            switch outcome {
            case .rejected: return .rejected
            case .revocation(let revocation): return revocation.record == nil ? .rejected : .ok
            case .alreadyProcessed, .consumptionRequest, .logged: return .ok
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "appstore notify")
        }
    }
}
