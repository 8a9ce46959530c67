import FulfillmentLedger
import Synchronization
import Testing

/// The one retry rule every store runs its writes through.
@Suite struct WriteRetryPolicyTests {
    static func storage(retryable: Bool, outcomeUnknown: Bool = false) -> LedgerError {
        .storage(
            StorageFailure(
                engine: "test", code: "busy", message: "busy", sql: nil,
                kind: outcomeUnknown ? .commitOutcomeUnknown : retryable ? .busy : .other))
    }

    /// Runs `policy` on an attempt that fails `failures` times with `error`, then returns 7.
    static func attempts(
        _ policy: WriteRetryPolicy, failing failures: Int, with error: LedgerError
    ) async -> (result: Result<Int, LedgerError>, attempts: Int) {
        let count = Mutex(0)
        do throws(LedgerError) {
            let value = try await policy.run { () throws(LedgerError) -> Int in
                let attempt = count.withLock { value in
                    value += 1
                    return value
                }
                if attempt <= failures { throw error }
                return 7
            }
            return (.success(value), count.withLock { $0 })
        } catch {
            return (.failure(error), count.withLock { $0 })
        }
    }

    @Test("a retryable failure runs again, at most retryCountMax more times, then the last error is thrown")
    func boundedRetries() async {
        let policy = WriteRetryPolicy(retryCountMax: 3)
        let recovered = await Self.attempts(policy, failing: 3, with: Self.storage(retryable: true))
        #expect(recovered.attempts == 4 && (try? recovered.result.get()) == 7)
        let exhausted = await Self.attempts(policy, failing: 4, with: Self.storage(retryable: true))
        #expect(exhausted.attempts == 4)
        #expect(throws: LedgerError.self) { try exhausted.result.get() }
    }

    @Test("a failure that is not retryable, or whose outcome is unknown, or not a storage failure, is thrown at once")
    func noRetryWhereARetryCouldGrantTwice() async {
        let policy = WriteRetryPolicy(retryCountMax: 5)
        for error in [
            Self.storage(retryable: false), Self.storage(retryable: true, outcomeUnknown: true),
            LedgerError.invalidArgument("no"),
        ] {
            let run = await Self.attempts(policy, failing: 1, with: error)
            #expect(run.attempts == 1, "\(error)")
            #expect(!WriteRetryPolicy.allowsRetry(error))
        }
    }

    @Test("the pause doubles from its base up to its maximum; limits are clamped into range")
    func pausesAndLimits() {
        let policy = WriteRetryPolicy(retryCountMax: 8, pauseMillisecondsBase: 2, pauseMillisecondsMax: 64, jitter: true)
        #expect((1...8).map { policy.pauseCeilingMilliseconds(retry: $0) } == [2, 4, 8, 16, 32, 64, 64, 64])
        #expect(policy.pauseCeilingMilliseconds(retry: 60) == 64)
        #expect(WriteRetryPolicy(retryCountMax: 3).pauseCeilingMilliseconds(retry: 2) == 0)
        let clamped = WriteRetryPolicy(retryCountMax: 1_000, pauseMillisecondsBase: -1, pauseMillisecondsMax: 1_000_000)
        #expect(clamped.retryCountMax == WriteRetryPolicy.retryCountMaxLimit)
        #expect(clamped.pauseMillisecondsBase == 0 && clamped.pauseMillisecondsMax == WriteRetryPolicy.pauseMillisecondsLimit)
    }

    @Test("the retryable predicate is asked only while a retry is still allowed, so it may count the retries")
    func predicateCountsGrantedRetries() async {
        let asked = Mutex(0)
        let policy = WriteRetryPolicy(retryCountMax: 2)
        do throws(LedgerError) {
            _ = try await policy.run(retryable: { (_: LedgerError) -> Bool in
                asked.withLock { $0 += 1 }
                return true
            }) { () throws(LedgerError) -> Int in throw Self.storage(retryable: true) }
            Issue.record("the attempt always fails")
        } catch {
            #expect(asked.withLock { $0 } == 2)
        }
    }
}
