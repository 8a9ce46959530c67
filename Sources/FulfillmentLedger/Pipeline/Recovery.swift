/// What one `recover()` call did.
public struct RecoveryReport: Hashable, Sendable {
    /// Pending finishes retried, and how each ended.
    public var finishesSucceeded: [TransactionKey] = []
    /// Pending finishes that failed again, with the error; they stay in the outbox.
    public var finishesFailed: [TransactionKey: String] = [:]
    /// Pending finishes another call in this process was already running; not failures.
    public var finishesInFlight: [TransactionKey] = []
    /// Unfinished transactions the source reported, and the outcome of re-submitting each.
    public var resubmitted: [TransactionKey: FulfillmentOutcome] = [:]
    /// Re-submissions that failed with an infrastructure error; the platform still holds them.
    public var resubmitErrors: [TransactionKey: LedgerError] = [:]
    /// Why the transaction source could not be listed, if it could not.
    public var sourceError: LedgerError?

    /// Whether everything recovered: no finish or re-submission is still failing.
    public var isClean: Bool { finishesFailed.isEmpty && resubmitErrors.isEmpty && sourceError == nil }
}

extension Ledger {
    /// Retries every pending finish, then re-submits every unfinished transaction the
    /// transaction source reports through the same pipeline. There is no second reward path.
    ///
    /// Throws only when the ledger itself cannot be read; port failures are in the report.
    public func recover() async throws(LedgerError) -> RecoveryReport {
        let start = ContinuousClock.now
        do throws(LedgerError) {
            let report = try await runRecovery()
            observe(.recovery(report), since: start)
            return report
        } catch {
            observe(.failure(operation: "recover", error: error), since: start)
            throw error
        }
    }

    /// The recovery itself, unobserved.
    private func runRecovery() async throws(LedgerError) -> RecoveryReport {
        var report = RecoveryReport()
        let limit = configuration.recoveryFinishCountMax
        let pending = try await store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: limit) }
        for row in pending {
            let key = row.key
            guard let record = try await store.read({ reader throws(LedgerError) in try reader.transaction(key) })
            else {
                // The store enforces this link; a missing record means the file was changed outside the ledger.
                throw LedgerError.integrityCheckFailed(
                    location: "ledger", detail: "pending finish \(row.key) has no ledger record")
            }
            let attempt = await finishPending(record, retry: .recovery)
            if attempt.finished {
                report.finishesSucceeded.append(row.key)
            } else if attempt.inFlightElsewhere {
                report.finishesInFlight.append(row.key)
            } else {
                report.finishesFailed[row.key] = attempt.error ?? "not finished"
            }
        }

        let submissions: [TransactionSubmission]
        do {
            submissions = try await source.unfinishedTransactions(limit: configuration.recoverySourceCountMax)
        } catch {
            report.sourceError = error
            return report
        }
        for submission in submissions.prefix(configuration.recoverySourceCountMax) {
            do {
                report.resubmitted[submission.key] = try await fulfill(submission, via: .recover)
            } catch {
                report.resubmitErrors[submission.key] = error
            }
        }
        return report
    }
}
