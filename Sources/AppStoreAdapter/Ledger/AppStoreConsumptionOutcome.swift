import Foundation
import FulfillmentLedger

/// What `AppStoreConsumptionSender` did with one consumption request. Every case but `sent`
/// sent nothing now.
public enum AppStoreConsumptionOutcome: Hashable, Sendable {
    /// The body was sent to Apple (202) and the answer recorded in the ledger.
    case sent(Answer)
    /// This transaction was answered before (a repeated request or a redelivered
    /// notification): the recorded answer, not sent again.
    case alreadySent(Answer)
    /// Apple's deadline for this request has passed: sending now would be ignored.
    case pastDeadline(transactionID: String, deadline: Date)
    /// The customer did not consent to sharing consumption data; Apple refuses an answer without it.
    case notConsented(transactionID: String)
    /// Apple, or the client's configuration, refused the send for a reason a retry cannot fix
    /// (`code`: the `AppStoreServerAPIError` code, 7201–7209); nothing was recorded, so a
    /// corrected configuration can send it.
    case refused(transactionID: String, code: Int, detail: String)
    /// Apple closed this refund request (`REFUND_DECLINED`, or `REFUND` when it refunded) before
    /// an answer was sent: answering now would inform a decision already made.
    case caseClosed(Closure)

    /// How a refund request's consumption case closed, as the ledger records it.
    public struct Closure: Hashable, Sendable, Codable {
        /// The transaction whose refund request closed.
        public var transactionID: String
        /// The notification that closed it: `REFUND_DECLINED` or `REFUND`.
        public var notificationType: String
        /// That notification's `notificationUUID`.
        public var notificationUUID: String?
        /// When the ledger recorded the closure.
        public var closedAt: Date

        /// Creates a closure.
        public init(transactionID: String, notificationType: String, notificationUUID: String?, closedAt: Date) {
            self.transactionID = transactionID
            self.notificationType = notificationType
            self.notificationUUID = notificationUUID
            self.closedAt = closedAt
        }
    }

    /// An answer sent to Apple, as the ledger records it.
    public struct Answer: Hashable, Sendable, Codable {
        /// The transaction answered for.
        public var transactionID: String
        /// The `CONSUMPTION_REQUEST` it answered, when it was sent for a notification.
        public var notificationUUID: String?
        /// When it was sent.
        public var sentAt: Date
        /// The body sent.
        public var body: AppStoreConsumptionRequest

        /// Creates an answer.
        public init(transactionID: String, notificationUUID: String?, sentAt: Date, body: AppStoreConsumptionRequest) {
            self.transactionID = transactionID
            self.notificationUUID = notificationUUID
            self.sentAt = sentAt
            self.body = body
        }
    }

    /// `sent`, `alreadySent`, `pastDeadline`, `notConsented`, `refused` or `caseClosed`.
    public var name: String {
        switch self {
        case .sent: "sent"
        case .alreadySent: "alreadySent"
        case .pastDeadline: "pastDeadline"
        case .notConsented: "notConsented"
        case .refused: "refused"
        case .caseClosed: "caseClosed"
        }
    }

    /// The answer sent now or before; nil when nothing was sent.
    public var answer: Answer? {
        switch self {
        case .sent(let answer), .alreadySent(let answer): answer
        default: nil
        }
    }
}
