import Foundation
import FulfillmentLedger

/// What `PlayRefundReviewSender` did with one chargeback review. Every case but `sent` sent
/// nothing now.
public enum PlayRefundReviewOutcome: Hashable, Sendable {
    /// The answer went to Google and is recorded in the ledger.
    case sent(Answer)
    /// This order's review was answered before (a redelivered push, an operator's second try):
    /// the recorded answer, not sent again. Google would ignore a second answer anyway.
    case alreadySent(Answer)
    /// Google's 24 hours have passed: an answer now would not count, so none is sent.
    case pastDeadline(orderID: String, deadline: Date)
    /// Google (or the client's configuration) refused the answer for a reason a retry cannot
    /// fix (`code`: the `PlayAPIError` code, 8301–8305); nothing is recorded, so a corrected
    /// configuration can still answer before the deadline.
    case refused(orderID: String, code: Int, detail: String)

    /// An answer sent to Google, as the ledger records it: what was decided, without the
    /// pending refund token and the usage event's text (kept short, so the record stays within
    /// the ledger's bookkeeping limit whatever the token's length).
    public struct Answer: Hashable, Sendable, Codable {
        /// The order reviewed.
        public var orderID: String
        /// The player the ledger granted the order to, nil when it granted nothing for it.
        public var playerID: String?
        /// When the ledger delivered the order, nil when it did not.
        public var deliveredAt: Date?
        /// The Pub/Sub message that asked, when it was sent for a push.
        public var messageID: String?
        /// When it was sent.
        public var sentAt: Date
        /// The preference sent.
        public var refundPreference: PlayRefundReviewRequest.RefundPreference
        /// The share used up that was sent; nil when none was (entitlements only).
        public var consumptionPercentageMilliunits: Int?

        /// Creates an answer.
        public init(
            orderID: String, playerID: String?, deliveredAt: Date?, messageID: String?, sentAt: Date,
            refundPreference: PlayRefundReviewRequest.RefundPreference, consumptionPercentageMilliunits: Int?
        ) {
            self.orderID = orderID
            self.playerID = playerID
            self.deliveredAt = deliveredAt
            self.messageID = messageID
            self.sentAt = sentAt
            self.refundPreference = refundPreference
            self.consumptionPercentageMilliunits = consumptionPercentageMilliunits
        }
    }

    /// `sent`, `alreadySent`, `pastDeadline` or `refused`.
    public var name: String {
        switch self {
        case .sent: "sent"
        case .alreadySent: "alreadySent"
        case .pastDeadline: "pastDeadline"
        case .refused: "refused"
        }
    }

    /// The answer sent now or before; nil when nothing was sent.
    public var answer: Answer? {
        switch self {
        case .sent(let answer), .alreadySent(let answer): answer
        case .pastDeadline, .refused: nil
        }
    }

    /// One line for the notification record: `refund review sent (DECLINE, 45200 milliunits consumed)`.
    public var summary: String {
        switch self {
        case .sent(let answer), .alreadySent(let answer):
            let share = answer.consumptionPercentageMilliunits.map { ", \($0) milliunits consumed" } ?? ""
            return "refund review \(name) (\(answer.refundPreference)\(share))"
        case .pastDeadline(_, let deadline): return "refund review pastDeadline (\(deadline.ledgerISO8601))"
        case .refused(_, let code, let detail): return "refund review refused (\(code)): \(detail)"
        }
    }
}

/// A `PlayRefundReviewOutcome` in JSON: `outcome` names the case, with `answer` (`sent`,
/// `alreadySent`), `orderID` and `deadline` (`pastDeadline`), or `orderID`, `code` and `detail`
/// (`refused`).
extension PlayRefundReviewOutcome: Encodable {
    /// Encodes the object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .sent(let answer), .alreadySent(let answer):
            try container.encode(answer, forKey: "answer")
        case .pastDeadline(let orderID, let deadline):
            try container.encode(orderID, forKey: "orderID")
            try container.encode(deadline, forKey: "deadline")
        case .refused(let orderID, let code, let detail):
            try container.encode(orderID, forKey: "orderID")
            try container.encode(code, forKey: "code")
            try container.encode(detail, forKey: "detail")
        }
    }
}
