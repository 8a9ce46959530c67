import Foundation

/// Steps 6 and 7 of the pipeline: tell the platform, then mark the outbox row done.
extension Ledger {
    /// The result of one finish attempt.
    struct FinishAttempt: Sendable {
        var record: TransactionRecord
        var finished: Bool
        var error: String?
        /// Another call in this process was already finishing it; not a failure.
        var inFlightElsewhere = false

        /// The receipt a fulfillment reports for this attempt.
        var receipt: FulfillmentReceipt {
            FulfillmentReceipt(record: record, finished: finished, finishError: error, finishInProgressElsewhere: inFlightElsewhere)
        }
    }

    /// Calls the platform finish for a committed transaction and marks it finished.
    ///
    /// Never throws: a failure leaves the outbox row in place for the next retry and is
    /// returned so the caller can report it. `retry` names a later attempt (a redelivery, or
    /// `recover()`): its success is written to the history as `finishSucceeded`, so a
    /// transaction whose history shows `finishFailed` also shows when it was finished. The first
    /// attempt, right after the grant, writes no event: its record's `finishedAt` tells it, and
    /// the write path stays one row.
    func finishPending(_ record: TransactionRecord, retry: FinishRetry? = nil) async -> FinishAttempt {
        let start = ContinuousClock.now
        let attempt = await runFinish(record)
        if let retry, attempt.finished {
            let event = LedgerEvent(
                kind: .finishSucceeded, playerID: record.playerID, transaction: record.key, at: clock.now(),
                detail: retry.detail)
            // Best effort, like the mark: the record's `finishedAt` is what counts.
            _ = try? await commit(.deferred) { writer throws(LedgerError) in try writer.appendEvent(event) }
        }
        observe(
            .finishAttempt(
                transaction: record.key, finished: attempt.finished, error: attempt.error,
                inProgressElsewhere: attempt.inFlightElsewhere),
            since: start)
        return attempt
    }

    /// Which later attempt finished a transaction, for its `finishSucceeded` event.
    enum FinishRetry: Sendable {
        /// The same transaction delivered again (`alreadyFulfilled`).
        case redelivery
        /// `recover()`.
        case recovery
        /// An operator's `retryFinish(_:)` (the console's "retry finish").
        case operatorRequest

        /// The event's detail.
        var detail: String {
            switch self {
            case .redelivery: "finished when the transaction was delivered again"
            case .recovery: "finished by recovery"
            case .operatorRequest: "finished when an operator retried the finish"
            }
        }
    }

    /// The finish itself, unobserved.
    private func runFinish(_ record: TransactionRecord) async -> FinishAttempt {
        let key = record.key
        // One finish per transaction at a time in this process; concurrent duplicate
        // deliveries leave it to the call already running.
        guard finishesInFlight.withLock({ $0.insert(key).inserted }) else {
            return FinishAttempt(record: record, finished: false, error: nil, inFlightElsewhere: true)
        }
        defer { _ = finishesInFlight.withLock { $0.remove(key) } }

        do {
            try faults.check(.insideFinish)
            try await finisher.finish(FinishRequest(record: record))
        } catch {
            let message = error.description
            let now = clock.now()
            // Best effort: if even this write fails, the row is still pending and is retried.
            _ = try? await commit(.deferred) { writer throws(LedgerError) in
                try writer.recordFinishFailure(key, message: message)
                try writer.appendEvent(
                    LedgerEvent(kind: .finishFailed, playerID: record.playerID, transaction: key, at: now, detail: message))
            }
            return FinishAttempt(record: record, finished: false, error: message)
        }

        let now = clock.now()
        do {
            try faults.check(.afterFinish)
            // Deferred: losing this mark only means finishing again, so it pays no sync of
            // its own, and a store may carry it into its next transaction (the SQLite store
            // does). The record's `finishedAt` is the history of a finish: no event of its
            // own, so the mark writes one row and its pending index entry.
            try await commitFinishMark(key, at: now)
        } catch {
            // The platform finished but the mark was lost; finishing again later is harmless.
            return FinishAttempt(record: record, finished: false, error: error.description)
        }
        var finishedRecord = record
        finishedRecord.finishedAt = now.truncatedToLedgerMilliseconds
        return FinishAttempt(record: finishedRecord, finished: true, error: nil)
    }
}
