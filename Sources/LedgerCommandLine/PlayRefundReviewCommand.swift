import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// `ledger playstore refund-review`: answers a Google Play chargeback review for one order with
/// `orders.reviewrefund`, built from the ledger and sent once (`PlayRefundReviewSender`); and the
/// preference options `ledger playstore rtdn` and `ledger serve` answer pushed reviews with.
enum PlayRefundReviewCommand {
    /// The group of the preference options, shared by every command that answers reviews.
    static let preferenceGroup = OptionGroup(
        title: "Play refund reviews",
        summary: "How a Google Play chargeback review (pendingRefundReviewNotification) is answered: with the "
            + "ledger's evidence, once, within Google's 24 hours.")
    /// The answers a review takes.
    static let preferences = PlayRefundReviewRequest.RefundPreference.known.map(\.rawValue)
    /// `--refund-preference-delivered P`.
    static let deliveredPreference = CommandOption(
        "refund-preference-delivered", "P", default: PlayRefundReviewRequest.RefundPreference.neutral.rawValue,
        constraint: .choices(preferences), help: "the answer for an order the ledger delivered", group: preferenceGroup)
    /// `--refund-preference-undelivered P`.
    static let undeliveredPreference = CommandOption(
        "refund-preference-undelivered", "P", default: PlayRefundReviewRequest.RefundPreference.approve.rawValue,
        constraint: .choices(preferences), help: "the answer for an order it holds no delivery for", group: preferenceGroup)
    /// `--sample-content-provided`.
    static let sampleContentProvided = CommandOption.flag(
        "sample-content-provided", help: "the game offered a sample, trial or description before purchase",
        group: preferenceGroup)
    /// The preference options.
    static let preferenceOptions = [deliveredPreference, undeliveredPreference, sampleContentProvided]
    /// `--order-id ID`.
    static let orderID = CommandOption("order-id", "ID", required: true, help: "the orderId of the notification")
    /// `--pending-refund-token TOKEN`.
    static let pendingRefundToken = CommandOption(
        "pending-refund-token", "TOKEN", required: true, help: "the notification's pendingRefundToken")

    static let command = Command(
        words: ["playstore", "refund-review"],
        summary: "answer Google Play's review of a chargeback for one order, once",
        description: """
            Builds the answer to a pendingRefundReviewNotification from the ledger (the share of
            the granted units the player no longer holds, in milliunits, and the delivery as a
            usage event; a share of 0 and no event when the ledger delivered nothing for the
            order) and sends it with orders.reviewrefund, once: the answer is recorded in the
            ledger, and a second run prints it as alreadySent without sending. Google takes the
            first answer within 24 hours of its notification (this command has no notification
            to check the deadline against). The database must exist. Needs --service-account.

            prints: {"outcome": "sent" | "alreadySent", "answer": {"orderID", "playerID",
              "deliveredAt", "sentAt", "refundPreference", "consumptionPercentageMilliunits"}} or
              {"outcome": "refused", "orderID", "code", "detail"}

            exit codes: 0 sent or already sent, 3 refused by Google, 1 infrastructure error
              (Google unavailable included), 64 usage, 65 invalid input or catalog, 66 database
              or catalog missing
            """,
        options: [LedgerDatabase.option, CommonOptions.catalog.required, orderID, pendingRefundToken]
            + StorePortOptions.playOptions + preferenceOptions,
        run: { arguments, io in await run(arguments, io: io) })

    static func run(_ arguments: Arguments, io: CommandIO) async -> ExitCode {
        let (database, api, package, environment): (LedgerDatabase, any PlayPurchasesAPI, String, StoreEnvironment)
        let orderID: String
        let token: String
        let preferences: Preferences
        do throws(Arguments.UsageError) {
            (database, api, package, environment) = try PlayStoreLedgerCommands.ledgerOptions(parsing: arguments, io: io)
            orderID = try arguments.required(Self.orderID)
            token = try arguments.required(pendingRefundToken)
            preferences = try Preferences(arguments)
        } catch {
            return LedgerCommandLine.usageError(error.message, io: io, command: "playstore refund-review")
        }
        do throws(LedgerError) {
            return try await PlayStoreCommands.withLedger(
                arguments, database: database, api: api, package: package, environment: environment) { ledger throws(LedgerError) in
                let sender = preferences.sender(api: api, packageName: package, ledger: ledger)
                let outcome = try await sender.answer(orderID: orderID, pendingRefundToken: token, requestedAt: nil)
                io.printJSON(outcome)
                switch outcome {
                case .sent, .alreadySent: return .ok
                case .pastDeadline, .refused: return .rejected
                }
            }
        } catch {
            return LedgerCommandLine.report(error, io: io, command: "playstore refund-review")
        }
    }

    /// What the options say to answer with.
    struct Preferences {
        var delivered: PlayRefundReviewRequest.RefundPreference = .neutral
        var undelivered: PlayRefundReviewRequest.RefundPreference = .approve
        var sampleContentProvided = false

        /// Reads the options; an unknown preference is a usage error.
        init(_ arguments: Arguments) throws(Arguments.UsageError) {
            delivered = try Self.preference(arguments, PlayRefundReviewCommand.deliveredPreference) ?? delivered
            undelivered = try Self.preference(arguments, PlayRefundReviewCommand.undeliveredPreference) ?? undelivered
            sampleContentProvided = arguments.flag(PlayRefundReviewCommand.sampleContentProvided)
        }

        /// A sender answering with these preferences.
        func sender(api: any PlayPurchasesAPI, packageName: String, ledger: Ledger) -> PlayRefundReviewSender {
            PlayRefundReviewSender(
                api: api, packageName: packageName, ledger: ledger, deliveredPreference: delivered,
                undeliveredPreference: undelivered, sampleContentProvided: sampleContentProvided)
        }

        private static func preference(_ arguments: Arguments, _ option: CommandOption) throws(Arguments.UsageError)
            -> PlayRefundReviewRequest.RefundPreference?
        {
            guard let text = arguments.value(option) else { return nil }
            guard let preference = PlayRefundReviewRequest.RefundPreference.known.first(where: { $0.rawValue == text })
            else {
                let names = PlayRefundReviewRequest.RefundPreference.known.map(\.rawValue).joined(separator: ", ")
                throw Arguments.UsageError(message: "--\(option.name) \(text): expected one of \(names)")
            }
            return preference
        }
    }
}
