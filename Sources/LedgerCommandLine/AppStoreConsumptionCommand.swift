import AppStoreAdapter
import Foundation
import FulfillmentLedger

/// `ledger appstore consumption`: answers a `CONSUMPTION_REQUEST` for one transaction with
/// Send Consumption Information, built from the ledger and sent once (`AppStoreConsumptionSender`).
enum AppStoreConsumptionCommand {
    /// The values `--refund-preference` takes: Apple's names.
    static let refundPreferences: [AppStoreConsumptionRequest.RefundPreference] = [
        .decline, .grantFull, .grantProrated,
    ]

    /// `--transaction-id ID`.
    static let transactionID = CommonOptions.transactionID.required.helping("the transactionId of the CONSUMPTION_REQUEST")
    /// `--customer-consented`.
    static let customerConsented = CommandOption.flag(
        "customer-consented", help: "the customer consented to sharing consumption data")
    /// `--refund-preference P`.
    static let refundPreference = CommandOption(
        "refund-preference", "P", constraint: .choices(refundPreferences.map(\.rawValue)),
        help: "the refund preference sent (omitted by default)")

    static let command = Command(
        words: ["appstore", "consumption"],
        summary: "send Apple the consumption information of a transaction, once",
        description: """
            Builds the V2 ConsumptionRequest for transaction ID from the ledger (deliveryStatus
            DELIVERED when the ledger granted it, else UNDELIVERED_OTHER; consumptionPercentage
            the share of the granted units the player no longer holds, in milliunits) and sends
            it to the App Store Server API, once: the answer is recorded in the ledger, and a
            second run prints it as alreadySent without sending. Nothing is sent without
            --customer-consented, and nothing once Apple decided the request (a REFUND_DECLINED or
            REFUND the ledger processed closes the case). Answer within 12 hours of Apple's
            CONSUMPTION_REQUEST (this command has no notification to check the deadline against).
            The database must exist.

            prints: {"outcome": "sent" | "alreadySent", "answer": {"transactionID", "sentAt",
              "body"}}, {"outcome": "notConsented", "transactionID"}, {"outcome": "refused",
              "transactionID", "code", "detail"} or {"outcome": "caseClosed", "closure": {...}}

            exit codes: 0 sent or already sent, 3 not consented, refused by Apple or case closed, 1 infrastructure
              error (Apple unavailable included), 64 usage, 65 invalid catalog, 66 database or
              catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, transactionID, customerConsented, refundPreference] + AppStoreAPIOptions.requiredOptions,
        run: { arguments, io in await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let database: LedgerDatabase
        let client: AppStoreServerAPIClient
        let verifier: SignedDataVerifier
        let environment: AppStoreEnvironment
        let transactionID: String
        let refundPreference: AppStoreConsumptionRequest.RefundPreference?
        do throws(Arguments.UsageError) {
            try arguments.expectPositionals(max: 0)
            database = try LedgerDatabase(arguments, io: io)
            _ = try arguments.required(CommonOptions.catalog)
            transactionID = try arguments.required(Self.transactionID)
            refundPreference = try Self.refundPreference(parsing: arguments)
            (verifier, environment) = try AppStoreCommands.signedDataVerifier(arguments)
            client = try AppStoreAPIOptions.client(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore consumption")
        }
        do throws(LedgerError) {
            return try await AppStoreLedgerCommands.withLedger(
                arguments, database: database, verifier: verifier, environment: environment, createIfMissing: false) { ledger throws(LedgerError) in
                let sender = AppStoreConsumptionSender(
                    client: client, ledger: ledger, customerConsented: arguments.flag(customerConsented),
                    refundPreference: refundPreference)
                let outcome = try await sender.answer(transactionID: transactionID, notificationUUID: nil, signedDate: nil)
                io.printJSON(outcome)
                switch outcome {
                case .sent, .alreadySent: return .ok
                case .pastDeadline, .notConsented, .refused, .caseClosed: return .rejected
                }
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "appstore consumption")
        }
    }

    /// `--refund-preference`, one of Apple's names, or nil when absent.
    static func refundPreference(parsing arguments: Arguments) throws(Arguments.UsageError)
        -> AppStoreConsumptionRequest.RefundPreference?
    {
        guard let text = arguments.value(refundPreference) else { return nil }
        guard let preference = refundPreferences.first(where: { $0.rawValue == text }) else {
            let names = refundPreferences.map(\.rawValue).joined(separator: ", ")
            throw Arguments.UsageError(message: "--refund-preference \(text): expected one of \(names)")
        }
        return preference
    }
}
