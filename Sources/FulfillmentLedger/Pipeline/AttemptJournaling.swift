import Foundation

/// Writes the attempts journal: every submission that granted nothing, so support can answer
/// "I paid and got nothing" from what the ledger recorded.
///
/// The write comes after the pipeline has answered, in a deferred write of its own, so it
/// never takes part in a grant: a journal that cannot be written is reported to the observer
/// and changes no outcome. Input refused before anything is looked up (`invalidArgument`: an
/// empty, over-long or control-character ID) is not journaled; nothing could find it.
extension Ledger {
    /// Journals a rejection.
    func journal(
        _ submission: TransactionSubmission, verified: VerifiedTransaction?, via entryPoint: DeliveryEntryPoint,
        rejection: Rejection
    ) async {
        // An unverified rejection is anyone's input: it goes to its own budget, even when the
        // verifier read facts first (a mismatch between the proof and the submission).
        let isVerified = verified != nil && rejection.reason != .unverified
        await append(
            attempt(
                submission, verified: verified, via: entryPoint, outcome: .rejected, code: rejection.reason.rawValue,
                reason: rejection.message, isVerified: isVerified))
    }

    /// Journals an infrastructure failure.
    func journal(
        _ submission: TransactionSubmission, verified: VerifiedTransaction?, via entryPoint: DeliveryEntryPoint,
        failure: LedgerError
    ) async {
        if case .invalidArgument = failure { return }
        await append(
            attempt(
                submission, verified: verified, via: entryPoint, outcome: .failed, code: failure.codeName,
                reason: failure.description, isVerified: verified != nil))
    }

    /// Journals a verified purchase the store delivered to the server without its player
    /// (`accountUnassigned`: App Store `ONE_TIME_CHARGE` whose account token names no player), so
    /// support finds it by any of its IDs and an operator can assign it. The row names no player
    /// (an empty `playerID`); nothing is granted. A failure to write is observed, never thrown.
    public func journalUnassigned(
        _ submission: TransactionSubmission, purchaseID: String?, reason: String, via entryPoint: DeliveryEntryPoint
    ) async {
        let rejection = Rejection(.accountUnassigned, reason)
        await append(
            AttemptRecord(
                store: submission.store, deliveryID: submission.transactionID,
                purchaseID: purchaseID == submission.transactionID ? nil : purchaseID, orderID: nil,
                storeProductID: submission.storeProductID, playerID: "", outcome: .rejected,
                code: rejection.reason.rawValue, reason: configuration.attemptRetention.clipped(rejection.message),
                at: clock.now(), entryPoint: entryPoint, isVerified: true))
    }

    /// The journal row of a submission, with what the verifier vouched for when it did.
    private func attempt(
        _ submission: TransactionSubmission, verified: VerifiedTransaction?, via entryPoint: DeliveryEntryPoint,
        outcome: AttemptOutcome, code: String, reason: String, isVerified: Bool
    ) -> AttemptRecord {
        let purchaseID = verified.flatMap { facts in facts.subscriptionPeriod?.periodID ?? facts.originalTransactionID }
        return AttemptRecord(
            store: submission.store, deliveryID: submission.transactionID,
            purchaseID: purchaseID == submission.transactionID ? nil : purchaseID, orderID: verified?.orderID,
            storeProductID: submission.storeProductID, playerID: submission.playerID, outcome: outcome, code: code,
            reason: configuration.attemptRetention.clipped(reason), at: clock.now(), entryPoint: entryPoint,
            isVerified: isVerified)
    }

    /// Writes one row; a failure is observed, never thrown.
    private func append(_ record: AttemptRecord) async {
        let start = ContinuousClock.now
        let retention = configuration.attemptRetention
        do throws(LedgerError) {
            _ = try await commit(.deferred) { writer throws(LedgerError) in
                try writer.appendAttempt(record, retention: retention)
            }
        } catch {
            observe(.failure(operation: "journal", error: error), since: start)
        }
    }
}
