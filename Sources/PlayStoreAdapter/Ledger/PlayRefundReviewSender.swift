import Foundation
import FulfillmentLedger

/// Answers Google Play's collaborative chargeback reviews (`pendingRefundReviewNotification`)
/// with `orders.reviewrefund`, once per order, within Google's 24 hours, with evidence from the
/// ledger: the share of the grant the player has used up (`ConsumptionShare`, the rule the App
/// Store's consumption answer uses) and, as a usage event, the delivery the ledger recorded.
///
/// The answer is recorded as the sync cursor `cursorName(orderID:)` after Google accepted it.
/// Google records only the first answer to a review and ignores later ones, so a crash between
/// the send and the record, or two deliveries at once, at worst sends an answer Google ignores.
///
/// An outage (`retryable`) throws, so the push is not recorded and Pub/Sub redelivers it; once
/// the deadline has passed the answer is `pastDeadline` and nothing is sent: retries stop there.
public struct PlayRefundReviewSender: Sendable {
    /// Google's window: an answer must arrive within 24 hours of the notification.
    public static let answerDeadlineSeconds: TimeInterval = 24 * 60 * 60
    /// The prefix of each answered order's sync cursor name.
    public static let cursorNamePrefix = "playstore.refundreview."
    /// Grant lines the delivery's usage event names; Google cuts its text at 5,000 characters.
    public static let describedGrantLineCountMax = 20

    /// The Play Developer API the answer is sent through.
    public let api: any PlayPurchasesAPI
    /// The app's package name.
    public let packageName: String
    /// The ledger the evidence comes from and the answer is recorded in.
    public let ledger: Ledger
    /// The preference sent when the ledger delivered the order: `NEUTRAL` unless told otherwise.
    public var deliveredPreference: PlayRefundReviewRequest.RefundPreference
    /// The preference sent when the ledger holds no delivery for the order: `APPROVE` unless
    /// told otherwise (the player did not receive what they paid for).
    public var undeliveredPreference: PlayRefundReviewRequest.RefundPreference
    /// Whether the game offered a free sample, trial or description before purchase.
    public var sampleContentProvided: Bool

    /// Creates a sender.
    public init(
        api: any PlayPurchasesAPI, packageName: String, ledger: Ledger,
        deliveredPreference: PlayRefundReviewRequest.RefundPreference = .neutral,
        undeliveredPreference: PlayRefundReviewRequest.RefundPreference = .approve, sampleContentProvided: Bool = false
    ) {
        self.api = api
        self.packageName = packageName
        self.ledger = ledger
        self.deliveredPreference = deliveredPreference
        self.undeliveredPreference = undeliveredPreference
        self.sampleContentProvided = sampleContentProvided
    }

    /// The sync cursor that records the answer for `orderID`.
    public static func cursorName(orderID: String) -> String { cursorNamePrefix + orderID }

    /// The deadline of a review Google asked for at `requestedAt`.
    public static func deadline(requestedAt: Date) -> Date { requestedAt.addingTimeInterval(answerDeadlineSeconds) }

    /// Answers the review of `orderID`, once. `requestedAt` is the notification's event time;
    /// without it (an operator's answer with no notification at hand) the deadline is not checked.
    ///
    /// Throws only infrastructure failures: the ledger's, an identifier the ledger refuses
    /// (`invalidArgument`), and a send that may succeed later (`transactionSourceUnavailable`).
    public func answer(
        orderID: String, pendingRefundToken: String, requestedAt: Date?, messageID: String? = nil
    ) async throws(LedgerError) -> PlayRefundReviewOutcome {
        guard !orderID.isEmpty, orderID.utf8.count <= PlayPayloadLimits.orderIDByteCountMax else {
            throw .invalidArgument("orderId must be 1 to \(PlayPayloadLimits.orderIDByteCountMax) bytes")
        }
        // Read first: it checks the order ID before it becomes part of a cursor name.
        let record = try await ledger.purchaseRecord(store: .playStore, orderID: orderID)
        guard !pendingRefundToken.isEmpty, pendingRefundToken.utf8.count <= PlayPayloadLimits.purchaseTokenByteCountMax
        else { throw .invalidArgument("pendingRefundToken must be 1 to \(PlayPayloadLimits.purchaseTokenByteCountMax) bytes") }
        if let sent = try await sentAnswer(orderID: orderID) { return .alreadySent(sent) }
        if let requestedAt, ledger.clock.now() > Self.deadline(requestedAt: requestedAt) {
            return .pastDeadline(orderID: orderID, deadline: Self.deadline(requestedAt: requestedAt))
        }
        let body = try await evidence(for: record, pendingRefundToken: pendingRefundToken)
        do {
            try await api.reviewRefund(packageName: packageName, orderID: orderID, request: body)
        } catch {
            guard !error.isRetryable else {
                throw .transactionSourceUnavailable("Google Play orders.reviewrefund failed: \(error)")
            }
            return .refused(orderID: orderID, code: error.code, detail: error.description)
        }
        let answer = PlayRefundReviewOutcome.Answer(
            orderID: orderID, playerID: record?.playerID, deliveredAt: record?.fulfilledAt, messageID: messageID,
            sentAt: ledger.clock.now(), refundPreference: body.refundPreference,
            consumptionPercentageMilliunits: body.consumptionPercentageMilliunits)
        let value = String(decoding: LedgerJSON.encode(answer), as: UTF8.self)
        try await ledger.saveSyncCursor(name: Self.cursorName(orderID: orderID), value: value)
        return .sent(answer)
    }

    /// The body for `record` (nil: the ledger delivered nothing for the order). Delivered: the
    /// share used up (omitted for a grant of entitlements only) and one usage event, the
    /// delivery, at its time, naming what was granted and the player's account binding when
    /// Google takes it. Not delivered: a share of 0 and no event.
    func evidence(for record: TransactionRecord?, pendingRefundToken: String) async throws(LedgerError)
        -> PlayRefundReviewRequest
    {
        guard let record else {
            return PlayRefundReviewRequest(
                pendingRefundToken: pendingRefundToken, sampleContentProvided: sampleContentProvided,
                refundPreference: undeliveredPreference, consumptionPercentageMilliunits: 0)
        }
        let snapshot = try await ledger.player(record.playerID)
        let share = ConsumptionShare.milliunits(of: record, balances: snapshot.balances, inventory: snapshot.inventory)
        let account = ledger.configuration.accountBinding(for: .playStore, playerID: record.playerID)
        let granted = record.grants.prefix(Self.describedGrantLineCountMax).map { "\($0.quantity) \($0.id)" }
            .joined(separator: ", ")
        let delivery = PlayRefundReviewRequest.ConsumptionUsageEvent(
            consumptionTime: record.fulfilledAt.ledgerISO8601,
            consumptionItemDescription: "delivered \(record.storeProductID) x\(record.quantity): \(granted)",
            obfuscatedAccountId: PlayExternalAccountIDs.isAcceptable(account) ? account : nil)
        return PlayRefundReviewRequest(
            pendingRefundToken: pendingRefundToken, sampleContentProvided: sampleContentProvided,
            refundPreference: deliveredPreference, consumptionPercentageMilliunits: share,
            consumptionUsageEvents: [delivery])
    }

    /// The answer recorded for `orderID`, if one was sent. A record that does not decode (a
    /// hand-edited row) throws `configuration` rather than let the order be answered again.
    public func sentAnswer(orderID: String) async throws(LedgerError) -> PlayRefundReviewOutcome.Answer? {
        let name = Self.cursorName(orderID: orderID)
        guard let value = try await ledger.syncCursor(name: name) else { return nil }
        do {
            return try LedgerJSON.decoder().decode(PlayRefundReviewOutcome.Answer.self, from: Data(value.utf8))
        } catch {
            throw .configuration("sync cursor \(name) does not hold a refund review answer: \(error)")
        }
    }
}
