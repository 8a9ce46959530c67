import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// Google Play chargeback reviews: Google asks the game's view of a Play purchase's chargeback;
/// the push may meet an outage of `orders.reviewrefund` (Pub/Sub redelivers) or arrive after the
/// 24 hours. Invariants: Google receives at most one answer per order, none after the deadline,
/// and the answer's preference and player follow what the ledger delivered; a review changes no
/// balance.
extension SimulationRun {
    /// Percent of Play purchases whose order Google asks to review.
    static let refundReviewPercent = 20
    /// Percent of reviews whose first answer meets an outage.
    static let refundReviewOutagePercent = 30
    /// Percent of reviews whose (re)delivery comes after the 24 hours.
    static let refundReviewLatePercent = 15

    /// Maybe asks for the review of `token`'s order and delivers the push as Pub/Sub would.
    func refundReviewTraffic(token: String, player: String) async throws(SimulationViolation) {
        guard reviewRandom.chance(Self.refundReviewPercent), let orderID = playStore.storedPurchase(token)?.orderId else {
            return
        }
        guard let pushSigner else { throw violation("no simulated Pub/Sub push signer") }
        let ledger = try currentLedger()
        let key = TransactionKey(store: .playStore, transactionID: token)
        let delivered: Bool
        let before: [String: Int64]
        do throws(LedgerError) {
            delivered = try await ledger.purchaseRecord(key) != nil
            before = try await ledger.player(player).balances
        } catch {
            throw violation("cannot read \(player) before a review: \(error)")
        }
        // A late push was sent more than 24 hours ago (the run's clock is left alone, so the
        // other traffic of a seed is unchanged).
        let late = reviewRandom.chance(Self.refundReviewLatePercent)
        let requestedAt = late ? clock.now().addingTimeInterval(-PlayRefundReviewSender.answerDeadlineSeconds - 1) : clock.now()
        let (body, _) = playStore.requestRefundReview(orderID: orderID, requestedAt: requestedAt)
        var processor = PlayNotificationProcessor(
            api: playStore, packageName: Self.appStoreBundleID, ledger: ledger, authenticator: pushSigner.authenticator(),
            playerResolver: { $0 })
        processor.refundReviewSender = PlayRefundReviewSender(api: playStore, packageName: Self.appStoreBundleID, ledger: ledger)
        if reviewRandom.chance(Self.refundReviewOutagePercent) { playStore.fail(.reviewRefund, with: .retryable("HTTP 503")) }
        var outcome: PlayNotificationOutcome?
        for _ in 0..<Self.playAttemptCountMax where outcome == nil {
            let headers: [String: String]
            do {
                // Pub/Sub signs a fresh token for every attempt.
                headers = try pushSigner.headers()
            } catch {
                throw violation("the simulated Pub/Sub could not sign: \(error)")
            }
            do throws(LedgerError) {
                outcome = try await processor.process(headers: headers, body: body)
            } catch {
                note("play review \(orderID) push failed: \(error.code)")
            }
        }
        playStore.clearFailure(.reviewRefund)
        summary.refundReviews += 1
        try checkReview(outcome, orderID: orderID, delivered: delivered, player: player, requestedAt: requestedAt)
        let after: [String: Int64]
        do throws(LedgerError) {
            after = try await ledger.player(player).balances
        } catch {
            throw violation("cannot read \(player) after a review: \(error)")
        }
        guard before == after else { throw violation("the review of \(orderID) changed \(player)'s balances") }
    }

    /// The review's invariants (see the extension's summary).
    private func checkReview(
        _ outcome: PlayNotificationOutcome?, orderID: String, delivered: Bool, player: String, requestedAt: Date
    ) throws(SimulationViolation) {
        let answers = playStore.refundReviewAnswerCount(orderID: orderID)
        guard answers <= 1 else { throw violation("Google received \(answers) answers to the review of \(orderID)") }
        let deadline = PlayRefundReviewSender.deadline(requestedAt: requestedAt)
        switch outcome {
        case .refundReview(.sent(let answer), _):
            guard clock.now() <= deadline, answers == 1 else {
                throw violation("the review of \(orderID) was answered after its deadline, or not received")
            }
            let expected: PlayRefundReviewRequest.RefundPreference = delivered ? .neutral : .approve
            guard answer.refundPreference == expected, answer.playerID == (delivered ? player : nil) else {
                throw violation("the review of \(orderID) was answered \(answer.refundPreference) for \(answer.playerID ?? "no one")")
            }
            summary.refundReviewsAnswered += 1
            note("play review \(orderID) -> sent \(answer.refundPreference)")
        case .refundReview(.pastDeadline, _):
            guard clock.now() > deadline, answers == 0 else {
                throw violation("the review of \(orderID) was refused as late inside its 24 hours, or answered")
            }
            summary.refundReviewsLate += 1
            note("play review \(orderID) -> pastDeadline")
        case nil:
            // Every attempt met the outage: nothing recorded, Pub/Sub would deliver again.
            guard answers == 0 else { throw violation("a review whose pushes all failed was answered") }
            note("play review \(orderID) -> not yet answered")
        case let other?:
            throw violation("the review of \(orderID) was taken as \(other)")
        }
    }
}
