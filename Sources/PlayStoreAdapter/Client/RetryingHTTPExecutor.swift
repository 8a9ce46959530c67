import Foundation
import FulfillmentLedger

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request through an `HTTPTransport`, retrying 429, 5xx and transient transport
/// failures under a `PlayRetryPolicy`. Every other response is returned for the caller to map.
struct RetryingHTTPExecutor: Sendable {
    let transport: any HTTPTransport
    let policy: PlayRetryPolicy
    let clock: any LedgerClock
    let sleep: PlayRetrySleep

    /// The response to `request`, or `retryable` once `policy.retryCountMax` retries failed,
    /// or `permanent` for a transport failure retrying cannot fix.
    func send(_ request: URLRequest, describedAs label: String) async throws(PlayAPIError) -> HTTPResponse {
        var request = request
        request.timeoutInterval = policy.requestTimeoutSeconds
        var lastFailure = "no attempt"
        var retryAfterMilliseconds: Int?
        for attempt in 0...policy.retryCountMax {
            if attempt > 0 {
                let delay = policy.delayMilliseconds(
                    retryNumber: attempt, retryAfterMilliseconds: retryAfterMilliseconds,
                    jitterFraction: Double.random(in: 0...1))
                await sleep(delay)
            }
            retryAfterMilliseconds = nil
            do {
                let response = try await transport.send(request)
                guard Self.isRetryableStatus(response.statusCode) else { return response }
                lastFailure = "HTTP \(response.statusCode)\(PlayErrorBody.message(in: response.body).map { ": \($0)" } ?? "")"
                retryAfterMilliseconds = PlayRetryPolicy.retryAfterMilliseconds(
                    response.headers["retry-after"], now: clock.now())
            } catch {
                guard error.isTransient else { throw .permanent("\(label): \(error.detail)") }
                lastFailure = error.description
            }
        }
        throw .retryable("\(label): \(lastFailure) after \(policy.retryCountMax) retries")
    }

    /// 408, 429 and every 5xx.
    static func isRetryableStatus(_ statusCode: Int) -> Bool {
        statusCode == 408 || statusCode == 429 || (500...599).contains(statusCode)
    }
}
