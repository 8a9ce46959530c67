import Foundation

/// Sleeps between retries; injected so tests need not wait.
public typealias HTTPRetrySleep = @Sendable (_ delayMilliseconds: Int) async -> Void

/// Timeouts and the bounded, jittered exponential backoff of every store API request.
///
/// Retry `n` (1-based) waits `min(backoffCapMilliseconds, backoffBaseMilliseconds · 2^(n-1))`,
/// half of it fixed and half random ("equal jitter"), unless the response carries `Retry-After`,
/// which is honoured up to `retryAfterCapMilliseconds`.
public struct HTTPRetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt for a 429, 5xx, timeout or lost connection.
    public var retryCountMax: Int
    /// The first retry's backoff before jitter.
    public var backoffBaseMilliseconds: Int
    /// The largest backoff before jitter.
    public var backoffCapMilliseconds: Int
    /// The largest `Retry-After` honoured; longer requests are shortened to this.
    public var retryAfterCapMilliseconds: Int
    /// Each request's timeout (`URLRequest.timeoutInterval`).
    public var requestTimeoutSeconds: TimeInterval

    /// Creates a policy; the defaults suit a server-side fulfillment worker.
    public init(
        retryCountMax: Int = 3, backoffBaseMilliseconds: Int = 250, backoffCapMilliseconds: Int = 8_000,
        retryAfterCapMilliseconds: Int = 30_000, requestTimeoutSeconds: TimeInterval = 20
    ) {
        self.retryCountMax = max(0, retryCountMax)
        self.backoffBaseMilliseconds = max(0, backoffBaseMilliseconds)
        self.backoffCapMilliseconds = max(0, backoffCapMilliseconds)
        self.retryAfterCapMilliseconds = max(0, retryAfterCapMilliseconds)
        self.requestTimeoutSeconds = requestTimeoutSeconds
    }

    /// Sleeps with `Task.sleep`; returns early, without throwing, when cancelled.
    public static let taskSleep: HTTPRetrySleep = { delayMilliseconds in
        try? await Task.sleep(for: .milliseconds(delayMilliseconds))
    }

    /// The wait before retry `retryNumber` (1-based): `Retry-After` when given, else jittered backoff.
    /// `jitterFraction` in 0...1 picks the random half.
    public func delayMilliseconds(retryNumber: Int, retryAfterMilliseconds: Int?, jitterFraction: Double) -> Int {
        if let retryAfterMilliseconds { return min(max(0, retryAfterMilliseconds), retryAfterCapMilliseconds) }
        let exponent = min(max(0, retryNumber - 1), Self.backoffDoublingCountMax)
        let backoff = min(backoffCapMilliseconds, backoffBaseMilliseconds << exponent)
        let half = backoff / 2
        return backoff - half + Int((Double(half) * min(max(jitterFraction, 0), 1)).rounded(.down))
    }

    /// Doublings beyond this cannot matter (and would overflow the shift).
    private static let backoffDoublingCountMax = 30

    /// `Retry-After` in milliseconds: delta-seconds or an HTTP-date relative to `now`.
    package static func retryAfterMilliseconds(_ header: String?, now: Date) -> Int? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if let seconds = Int(header) { return max(0, seconds) * 1000 }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: header) else { return nil }
        return max(0, Int((date.timeIntervalSince(now) * 1000).rounded(.up)))
    }
}
