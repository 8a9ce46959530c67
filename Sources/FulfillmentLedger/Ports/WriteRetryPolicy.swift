/// How a store runs a write again after a retryable failure: a concurrent writer's conflict the
/// body reports (`StoreConflict`), a busy database, a serialization failure. Every store runs
/// its writes through one, so the rule is the same on every engine: at most `retryCountMax`
/// more attempts, a pause that doubles from `pauseMillisecondsBase` up to `pauseMillisecondsMax`
/// (a random share of it with `jitter`, so two writers that met do not meet again in step), and
/// never a retry of a failure whose outcome is unknown, which only the caller can settle by
/// delivering again.
public struct WriteRetryPolicy: Sendable, Hashable {
    /// Largest `retryCountMax` accepted.
    public static let retryCountMaxLimit = 100
    /// Largest pause accepted, in milliseconds.
    public static let pauseMillisecondsLimit = 10_000

    /// Most attempts after the first.
    public var retryCountMax: Int
    /// The pause before the first retry, in milliseconds (0: none).
    public var pauseMillisecondsBase: Int
    /// No pause is longer than this, in milliseconds.
    public var pauseMillisecondsMax: Int
    /// Whether each pause is a random share of its ceiling rather than the ceiling itself.
    public var jitter: Bool

    /// A policy; limits out of range are clamped into range.
    public init(retryCountMax: Int, pauseMillisecondsBase: Int = 0, pauseMillisecondsMax: Int = 0, jitter: Bool = false) {
        self.retryCountMax = min(max(retryCountMax, 0), Self.retryCountMaxLimit)
        self.pauseMillisecondsBase = min(max(pauseMillisecondsBase, 0), Self.pauseMillisecondsLimit)
        self.pauseMillisecondsMax = min(max(pauseMillisecondsMax, self.pauseMillisecondsBase), Self.pauseMillisecondsLimit)
        self.jitter = jitter
    }

    /// Whether `error` lets a write run again: a retryable storage failure whose outcome is known.
    public static func allowsRetry(_ error: LedgerError) -> Bool {
        guard case .storage(let failure) = error else { return false }
        return failure.isRetryable && !failure.outcomeUnknown
    }

    /// Runs `attempt`, retrying the failures `allowsRetry` accepts.
    public func run<T>(_ attempt: () async throws(LedgerError) -> T) async throws(LedgerError) -> T {
        try await run(retryable: Self.allowsRetry, attempt)
    }

    /// The ceiling of the pause before retry number `retry` (1 for the first), in milliseconds.
    public func pauseCeilingMilliseconds(retry: Int) -> Int {
        guard pauseMillisecondsBase > 0, retry > 0 else { return 0 }
        return min(pauseMillisecondsMax, pauseMillisecondsBase << min(retry - 1, 16))
    }

    /// Runs `attempt` until it returns, throws an error `retryable` refuses, the task is
    /// cancelled, or `retryCountMax` retries failed; then throws the last error. `retryable` is
    /// asked only while a retry is still allowed, so it may count the retries it grants.
    public func run<T, E: Error>(
        retryable: (E) -> Bool, _ attempt: () async throws(E) -> T
    ) async throws(E) -> T {
        var retry = 0
        while true {
            do throws(E) {
                return try await attempt()
            } catch {
                guard retry < retryCountMax, !Task.isCancelled, retryable(error) else { throw error }
                retry += 1
                let ceiling = pauseCeilingMilliseconds(retry: retry)
                let pause = jitter ? Int.random(in: 0...ceiling) : ceiling
                // A cancelled sleep ends early; the next attempt then sees the cancellation.
                if pause > 0 { try? await Task.sleep(for: .milliseconds(pause)) }
            }
        }
    }
}
