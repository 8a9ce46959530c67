import Foundation
import FulfillmentLedger

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why `RetryingHTTPSender` returned no response for the caller to map.
package struct HTTPSendFailure: Error, Sendable {
    /// The two outcomes callers treat differently.
    package enum Kind: Sendable {
        /// A 408, 429, 5xx or transient transport failure outlasted the retries.
        case exhausted
        /// A transport failure retrying cannot fix.
        case permanent
    }

    /// What happened.
    package var kind: Kind
    /// The last failure, such as `HTTP 503: …` or a transport error.
    package var lastFailure: String
    /// The last retryable response, when the last attempt got one.
    package var lastResponse: HTTPResponse?
}

/// How one store API words its retry hints and errors, for `RetryingHTTPSender`.
package struct HTTPErrorDialect: Sendable {
    /// Reads a response's `Retry-After` as a delay in milliseconds from `now`.
    package var retryAfterMilliseconds: @Sendable (_ response: HTTPResponse, _ now: Date) -> Int?
    /// A short human-readable message from an error body, if it has one.
    package var failureMessage: @Sendable (_ body: Data) -> String?
    /// Whether a `Retry-After` beyond the policy's cap ends the retries at once (a wait that long
    /// belongs to the caller's queue) rather than being shortened to the cap.
    package var stopsBeyondRetryAfterCap: Bool

    /// Creates a dialect.
    package init(
        retryAfterMilliseconds: @escaping @Sendable (HTTPResponse, Date) -> Int?,
        failureMessage: @escaping @Sendable (Data) -> String?, stopsBeyondRetryAfterCap: Bool = false
    ) {
        self.retryAfterMilliseconds = retryAfterMilliseconds
        self.failureMessage = failureMessage
        self.stopsBeyondRetryAfterCap = stopsBeyondRetryAfterCap
    }
}

/// Sends a request through an `HTTPTransport`, retrying 408, 429, 5xx and transient transport
/// failures under an `HTTPRetryPolicy`. Every other response is returned for the caller to map,
/// because what a status means differs between the store APIs.
package struct RetryingHTTPSender: Sendable {
    let transport: any HTTPTransport
    let policy: HTTPRetryPolicy
    let clock: any LedgerClock
    let sleep: HTTPRetrySleep
    let dialect: HTTPErrorDialect

    /// Creates a sender.
    package init(
        transport: any HTTPTransport, policy: HTTPRetryPolicy, clock: any LedgerClock, sleep: @escaping HTTPRetrySleep,
        dialect: HTTPErrorDialect
    ) {
        self.transport = transport
        self.policy = policy
        self.clock = clock
        self.sleep = sleep
        self.dialect = dialect
    }

    /// The first response that is not retryable, or a failure once `policy.retryCountMax`
    /// retries failed or a transport failure cannot be retried.
    package func send(_ request: URLRequest) async throws(HTTPSendFailure) -> HTTPResponse {
        var request = request
        request.timeoutInterval = policy.requestTimeoutSeconds
        var lastFailure = "no attempt"
        var lastResponse: HTTPResponse?
        var retryAfterMilliseconds: Int?
        for attempt in 0...policy.retryCountMax {
            if attempt > 0 {
                let delay = policy.delayMilliseconds(
                    retryNumber: attempt, retryAfterMilliseconds: retryAfterMilliseconds,
                    jitterFraction: Double.random(in: 0...1))
                await sleep(delay)
            }
            retryAfterMilliseconds = nil
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch {
                guard error.isTransient else {
                    throw HTTPSendFailure(kind: .permanent, lastFailure: error.detail, lastResponse: nil)
                }
                lastFailure = error.description
                lastResponse = nil
                continue
            }
            guard Self.isRetryableStatus(response.statusCode) else { return response }
            lastFailure = "HTTP \(response.statusCode)\(dialect.failureMessage(response.body).map { ": \($0)" } ?? "")"
            lastResponse = response
            retryAfterMilliseconds = dialect.retryAfterMilliseconds(response, clock.now())
            if dialect.stopsBeyondRetryAfterCap, let wait = retryAfterMilliseconds, wait > policy.retryAfterCapMilliseconds {
                throw HTTPSendFailure(kind: .exhausted, lastFailure: lastFailure, lastResponse: response)
            }
        }
        throw HTTPSendFailure(kind: .exhausted, lastFailure: lastFailure, lastResponse: lastResponse)
    }

    /// 408, 429 and every 5xx.
    package static func isRetryableStatus(_ statusCode: Int) -> Bool {
        statusCode == 408 || statusCode == 429 || (500...599).contains(statusCode)
    }
}
