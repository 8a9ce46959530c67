import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// One chargeback the simulated Google asks the game to review.
struct SimulatedRefundReview {
    /// The token the answer must carry.
    var pendingRefundToken: String
    /// The first answer, the one Google records.
    var recorded: PlayRefundReviewRequest?
    /// Every answer received, the ignored ones too.
    var answerCount = 0
}

/// Collaborative chargebacks: Google sends a `pendingRefundReviewNotification` for an order
/// and takes the game's first `orders.reviewrefund` answer; later answers are ignored, still OK.
extension PlayStoreSimulator {
    /// Opens a chargeback review of `orderID` (a one-time purchase's order or a subscription
    /// period's) and returns the Pub/Sub push body announcing it and the pending refund token.
    /// `accountID` is the buyer's obfuscated account ID the notification carries, if any;
    /// `requestedAt` the notification's event time (now unless given: an earlier time makes a
    /// push Pub/Sub delivers late).
    public func requestRefundReview(
        orderID: String, accountID: String? = nil, messageID: String? = nil, requestedAt: Date? = nil
    ) -> (body: Data, pendingRefundToken: String) {
        let token = state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial += 1
            let token = "pending-refund-\(serial)"
            state.refundReviews[orderID] = SimulatedRefundReview(pendingRefundToken: token)
            return token
        }
        let body = reviewBody(
            orderID: orderID, pendingRefundToken: token, accountID: accountID, messageID: messageID, requestedAt: requestedAt)
        return (body, token)
    }

    /// Another push for the review of `orderID` already open with `pendingRefundToken` (Google
    /// sending the same review in a second message).
    public func requestRefundReviewPush(orderID: String, pendingRefundToken: String, messageID: String? = nil) -> Data {
        reviewBody(orderID: orderID, pendingRefundToken: pendingRefundToken, accountID: nil, messageID: messageID, requestedAt: nil)
    }

    /// The push body of a review, dated `requestedAt` (now when nil).
    private func reviewBody(
        orderID: String, pendingRefundToken: String, accountID: String?, messageID: String?, requestedAt: Date?
    ) -> Data {
        var notification = DeveloperNotification()
        notification.pendingRefundReviewNotification = DeveloperNotification.PendingRefundReviewNotification(
            pendingRefundToken: pendingRefundToken, orderId: orderID, refundReason: Self.chargebackRefundReason,
            obfuscatedAccountId: accountID)
        notification.eventTimeMillis = requestedAt.map { String($0.ledgerMilliseconds) }
        return envelope(notification, messageID: messageID)
    }

    /// The refund reason a chargeback review carries.
    public static let chargebackRefundReason = 7

    /// The answer Google recorded for `orderID`'s review: the first one received.
    public func refundReviewAnswer(orderID: String) -> PlayRefundReviewRequest? {
        state.withLock { $0.refundReviews[orderID]?.recorded }
    }

    /// How many answers `orderID`'s review received, ignored ones included.
    public func refundReviewAnswerCount(orderID: String) -> Int {
        state.withLock { $0.refundReviews[orderID]?.answerCount ?? 0 }
    }

    /// `orders.reviewrefund`: an order with no open review is `notFound`; a wrong token, a share
    /// outside 0...100 000 or over 1,000 usage events is refused (HTTP 400, `invalidToken`); the
    /// first valid answer is recorded and later ones are accepted and ignored.
    public func reviewRefund(packageName: String, orderID: String, request: PlayRefundReviewRequest)
        async throws(PlayAPIError)
    {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.reviewRefund, &state)
            guard packageName == self.packageName else { throw PlayAPIError.notFound("no app \(packageName)") }
            guard var review = state.refundReviews[orderID] else {
                throw PlayAPIError.notFound("no refund review for order \(orderID)")
            }
            guard request.pendingRefundToken == review.pendingRefundToken else {
                throw PlayAPIError.invalidToken("the pending refund token is not this order's")
            }
            let share = request.consumptionPercentageMilliunits ?? 0
            guard (0...ConsumptionShare.milliunitsMax).contains(share),
                (request.consumptionUsageEvents?.count ?? 0) <= PlayRefundReviewRequest.usageEventCountMax,
                PlayRefundReviewRequest.RefundPreference.known.contains(request.refundPreference)
            else { throw PlayAPIError.invalidToken("the answer is out of range") }
            review.answerCount += 1
            if review.recorded == nil { review.recorded = request }
            state.refundReviews[orderID] = review
        }
    }
}
