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

    static let command = Command(
        words: ["appstore", "consumption"],
        summary: "send Apple the consumption information of a transaction, once",
        help: """
            usage: ledger appstore consumption --db DB --catalog FILE --transaction-id ID
                     --key FILE.p8 --key-id ID --issuer-id ID --root CERT.der --bundle-id ID
                     --environment E [--app-apple-id N] [--api-base URL] [--customer-consented]
                     [--refund-preference P]

            Builds the V2 ConsumptionRequest for transaction ID from the ledger (deliveryStatus
            DELIVERED when the ledger granted it, else UNDELIVERED_OTHER; consumptionPercentage
            the share of the granted units the player no longer holds, in milliunits) and sends
            it to the App Store Server API, once: the answer is recorded in the ledger, and a
            second run prints it as alreadySent without sending. Nothing is sent without
            --customer-consented, and nothing once Apple decided the request (a REFUND_DECLINED or
            REFUND the ledger processed closes the case). Answer within 12 hours of Apple's
            CONSUMPTION_REQUEST (this command has no notification to check the deadline against).
            The database must exist.

            options:
              --transaction-id ID  the transactionId of the CONSUMPTION_REQUEST
              --customer-consented the customer consented to sharing consumption data
              --refund-preference P
                                   DECLINE | GRANT_FULL | GRANT_PRORATED (omitted by default)
            \(AppStoreAPIOptions.help)

            prints: {"outcome": "sent" | "alreadySent", "answer": {"transactionID", "sentAt",
              "body"}}, {"outcome": "notConsented", "transactionID"}, {"outcome": "refused",
              "transactionID", "code", "detail"} or {"outcome": "caseClosed", "closure": {...}}

            exit codes: 0 sent or already sent, 3 not consented, refused by Apple or case closed, 1 infrastructure
              error (Apple unavailable included), 64 usage, 65 invalid catalog, 66 database or
              catalog missing
            """,
        valueOptions: AppStoreAPIOptions.valueOptions.union(["db", "catalog", "transaction-id", "refund-preference"]),
        flagOptions: ["customer-consented"],
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
            _ = try arguments.required("catalog")
            transactionID = try arguments.required("transaction-id")
            refundPreference = try Self.refundPreference(arguments)
            (verifier, environment) = try AppStoreCommands.signedDataVerifier(arguments)
            client = try AppStoreAPIOptions.client(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "appstore consumption")
        }
        do throws(LedgerError) {
            let ledger = try await AppStoreLedgerCommands.ledger(
                arguments, database: database, verifier: verifier, environment: environment, createIfMissing: false)
            let sender = AppStoreConsumptionSender(
                client: client, ledger: ledger, customerConsented: arguments.flag("customer-consented"),
                refundPreference: refundPreference)
            let outcome = try await sender.answer(transactionID: transactionID, notificationUUID: nil, signedDate: nil)
            io.printJSON(outcome)
            switch outcome {
            case .sent, .alreadySent: return .ok
            case .pastDeadline, .notConsented, .refused, .caseClosed: return .rejected
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "appstore consumption")
        }
    }

    /// `--refund-preference`, one of Apple's names, or nil when absent.
    static func refundPreference(_ arguments: Arguments) throws(Arguments.UsageError)
        -> AppStoreConsumptionRequest.RefundPreference?
    {
        guard let text = arguments.value("refund-preference") else { return nil }
        guard let preference = refundPreferences.first(where: { $0.rawValue == text }) else {
            let names = refundPreferences.map(\.rawValue).joined(separator: ", ")
            throw Arguments.UsageError(message: "--refund-preference \(text): expected one of \(names)")
        }
        return preference
    }
}
