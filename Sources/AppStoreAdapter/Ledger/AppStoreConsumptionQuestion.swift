import Foundation
import FulfillmentLedger

/// A `CONSUMPTION_REQUEST` as `AppStoreNotificationProcessor` read it: which transaction Apple
/// asks about, by when, the V2 body the ledger answers with, and what the processor's
/// `consumptionSender` did with it, if it has one.
public struct AppStoreConsumptionQuestion: Hashable, Sendable {
    /// The transaction the customer asked a refund for.
    public var transactionID: String
    /// The notification that asked.
    public var notificationUUID: String
    /// When Apple signed the notification; the deadline runs from it.
    public var signedDate: Date?
    /// The reason the customer gave (`consumptionRequestReason`).
    public var reason: ConsumptionRequestReason?
    /// The V2 `ConsumptionRequest` built from the ledger with the processor's settings, or the
    /// body the sender sent (now or before) when it answered `sent` or `alreadySent`.
    public var body: AppStoreConsumptionRequest
    /// What the processor's sender did; nil when the processor has no sender.
    public var answer: AppStoreConsumptionOutcome?

    /// Creates a question.
    public init(
        transactionID: String, notificationUUID: String, signedDate: Date?, reason: ConsumptionRequestReason?,
        body: AppStoreConsumptionRequest, answer: AppStoreConsumptionOutcome? = nil
    ) {
        self.transactionID = transactionID
        self.notificationUUID = notificationUUID
        self.signedDate = signedDate
        self.reason = reason
        self.body = body
        self.answer = answer
    }

    /// The latest time Apple takes an answer: `signedDate` plus
    /// `AppStoreConsumptionSender.answerDeadlineSeconds`.
    public var deadline: Date? { signedDate.map(AppStoreConsumptionSender.deadline(signedDate:)) }
}
