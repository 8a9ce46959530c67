import Foundation
import FulfillmentLedger

/// Answers App Store `CONSUMPTION_REQUEST`s with Send Consumption Information: builds the V2
/// `ConsumptionRequest` from the ledger (`AppStoreConsumptionRequest.build`), sends it once per
/// transaction, and records that it did in the ledger's store, so a repeated request or a
/// redelivered notification sends nothing the second time.
///
/// The record is the sync cursor `cursorName(transactionID:)`, holding the `Answer` as JSON:
/// any store engine keeps it, and it survives a restart. It is written after Apple accepted
/// the body, so a crash between the two (or two deliveries at the same moment) can send the
/// same information twice; recording first instead could lose the answer, and a failed send is
/// never recorded as answered.
public struct AppStoreConsumptionSender: Sendable {
    /// Who the consent question is about: the transaction, and its player when the ledger has
    /// a record of it.
    public typealias ConsentCheck = @Sendable (_ key: TransactionKey, _ playerID: String?) async -> Bool

    /// Apple's deadline: an answer must reach it within 12 hours of the notification's `signedDate`.
    public static let answerDeadlineSeconds: TimeInterval = 12 * 60 * 60
    /// The prefix of each answered transaction's sync cursor name.
    public static let cursorNamePrefix = "appstore.consumption."

    /// The App Store Server API client that sends the body.
    public let client: AppStoreServerAPIClient
    /// The ledger the body is built from and the answer recorded in.
    public let ledger: Ledger
    /// Whether the customer consented to sharing consumption data, asked before anything is
    /// built or sent: the game's consent record (or a fixed configuration). Nothing is sent
    /// while it answers false, and nothing is recorded, so a later consent can still answer.
    public var customerConsented: ConsentCheck
    /// The preferred outcome sent with every answer; nil omits it.
    public var refundPreference: AppStoreConsumptionRequest.RefundPreference?
    /// Whether the game offered a free sample, trial or description before purchase.
    public var sampleContentProvided: Bool

    /// Creates a sender whose consent comes from `customerConsented`, asked per transaction.
    public init(
        client: AppStoreServerAPIClient, ledger: Ledger,
        refundPreference: AppStoreConsumptionRequest.RefundPreference? = nil, sampleContentProvided: Bool = false,
        customerConsented: @escaping ConsentCheck
    ) {
        self.client = client
        self.ledger = ledger
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
        self.customerConsented = customerConsented
    }

    /// Creates a sender with one consent answer for every customer (the game's terms, say).
    public init(
        client: AppStoreServerAPIClient, ledger: Ledger, customerConsented: Bool,
        refundPreference: AppStoreConsumptionRequest.RefundPreference? = nil, sampleContentProvided: Bool = false
    ) {
        self.init(
            client: client, ledger: ledger, refundPreference: refundPreference,
            sampleContentProvided: sampleContentProvided, customerConsented: { _, _ in customerConsented })
    }

    /// The sync cursor that records the answer for `transactionID`.
    public static func cursorName(transactionID: String) -> String { cursorNamePrefix + transactionID }

    /// The deadline of a request Apple signed at `signedDate`.
    public static func deadline(signedDate: Date) -> Date { signedDate.addingTimeInterval(answerDeadlineSeconds) }

    /// Answers the request a processed notification carried.
    public func answer(
        _ question: AppStoreConsumptionQuestion
    ) async throws(LedgerError) -> AppStoreConsumptionOutcome {
        try await answer(
            transactionID: question.transactionID, notificationUUID: question.notificationUUID,
            signedDate: question.signedDate)
    }

    /// Answers a request for `transactionID`, once. `signedDate` is the notification's; without
    /// it (an operator's answer with no notification at hand) the deadline is not checked.
    ///
    /// Throws only infrastructure failures: the ledger's, and a send that may succeed later
    /// (`transactionSourceUnavailable`: Apple unavailable or rate limiting), so a notification
    /// processor leaves the notification for Apple's redelivery to try again.
    public func answer(
        transactionID: String, notificationUUID: String?, signedDate: Date?
    ) async throws(LedgerError) -> AppStoreConsumptionOutcome {
        let key = TransactionKey(store: .appStore, transactionID: transactionID)
        // Read first: it checks the transaction ID before it becomes part of a cursor name.
        let record = try await ledger.purchaseRecord(key)?.0
        if let sent = try await sentAnswer(transactionID: transactionID) { return .alreadySent(sent) }
        if let closure = try await Self.closure(transactionID: transactionID, ledger: ledger) { return .caseClosed(closure) }
        let now = ledger.clock.now()
        if let signedDate, now > Self.deadline(signedDate: signedDate) {
            return .pastDeadline(transactionID: transactionID, deadline: Self.deadline(signedDate: signedDate))
        }
        guard await customerConsented(key, record?.playerID) else { return .notConsented(transactionID: transactionID) }
        let body = try await AppStoreConsumptionRequest.build(
            for: key, ledger: ledger, customerConsented: true, refundPreference: refundPreference,
            sampleContentProvided: sampleContentProvided)
        do {
            try await client.sendConsumptionInformation(transactionID: transactionID, body)
        } catch {
            guard !error.isRetryable else {
                throw .transactionSourceUnavailable("App Store Send Consumption Information failed: \(error)")
            }
            return .refused(transactionID: transactionID, code: error.code, detail: error.description)
        }
        let answer = AppStoreConsumptionOutcome.Answer(
            transactionID: transactionID, notificationUUID: notificationUUID, sentAt: ledger.clock.now(), body: body)
        let value = String(decoding: LedgerJSON.encode(answer), as: UTF8.self)
        try await ledger.saveSyncCursor(name: Self.cursorName(transactionID: transactionID), value: value)
        return .sent(answer)
    }

    /// The prefix of each closed case's sync cursor name.
    public static let closedCursorNamePrefix = "appstore.consumption.closed."

    /// The notification types that close a transaction's consumption case: Apple declined the
    /// refund, or refunded it.
    public static let closingNotificationTypes: Set<NotificationTypeV2> = [.refundDeclined, .refund]

    /// Records that Apple closed the refund request of `transactionID` (`notificationType`, one
    /// of `closingNotificationTypes`), so that no answer is sent for it from now on, and returns
    /// the closure in force: the first one recorded stands.
    @discardableResult
    public static func closeCase(
        transactionID: String, notificationType: NotificationTypeV2, notificationUUID: String?, ledger: Ledger
    ) async throws(LedgerError) -> AppStoreConsumptionOutcome.Closure {
        // Checks the transaction ID before it becomes part of a cursor name.
        _ = try await ledger.purchaseRecord(TransactionKey(store: .appStore, transactionID: transactionID))
        if let closed = try await closure(transactionID: transactionID, ledger: ledger) { return closed }
        let closure = AppStoreConsumptionOutcome.Closure(
            transactionID: transactionID, notificationType: notificationType.rawValue, notificationUUID: notificationUUID,
            closedAt: ledger.clock.now())
        let value = String(decoding: LedgerJSON.encode(closure), as: UTF8.self)
        try await ledger.saveSyncCursor(name: closedCursorNamePrefix + transactionID, value: value)
        return closure
    }

    /// How the consumption case of `transactionID` closed, if it did. A record that does not
    /// decode throws `configuration`, rather than let a closed case be answered.
    public static func closure(
        transactionID: String, ledger: Ledger
    ) async throws(LedgerError) -> AppStoreConsumptionOutcome.Closure? {
        let name = closedCursorNamePrefix + transactionID
        guard let value = try await ledger.syncCursor(name: name) else { return nil }
        do {
            return try LedgerJSON.decoder().decode(AppStoreConsumptionOutcome.Closure.self, from: Data(value.utf8))
        } catch {
            throw .configuration("sync cursor \(name) does not hold a consumption case's closure: \(error)")
        }
    }

    /// The answer recorded for `transactionID`, if one was sent. A record that does not decode
    /// (a hand-edited row) throws `configuration` rather than let the transaction be answered again.
    public func sentAnswer(transactionID: String) async throws(LedgerError) -> AppStoreConsumptionOutcome.Answer? {
        let name = Self.cursorName(transactionID: transactionID)
        guard let value = try await ledger.syncCursor(name: name) else { return nil }
        do {
            return try LedgerJSON.decoder().decode(AppStoreConsumptionOutcome.Answer.self, from: Data(value.utf8))
        } catch {
            throw .configuration("sync cursor \(name) does not hold a consumption answer: \(error)")
        }
    }
}
