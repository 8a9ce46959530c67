import Foundation
import FulfillmentLedger
import LedgerHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request through the shared `RetryingHTTPSender` with Google's error bodies and
/// `Retry-After` forms, mapping what it cannot return to `PlayAPIError`.
struct RetryingHTTPExecutor: Sendable {
    private let sender: RetryingHTTPSender
    let policy: PlayRetryPolicy

    init(transport: any HTTPTransport, policy: PlayRetryPolicy, clock: any LedgerClock, sleep: @escaping PlayRetrySleep) {
        self.policy = policy
        sender = RetryingHTTPSender(
            transport: transport, policy: policy, clock: clock, sleep: sleep,
            dialect: HTTPErrorDialect(
                retryAfterMilliseconds: { response, now in
                    PlayRetryPolicy.retryAfterMilliseconds(response.headers["retry-after"], now: now)
                },
                failureMessage: { body in PlayErrorBody.message(in: body) }))
    }

    /// The response to `request`, or `retryable` once `policy.retryCountMax` retries failed,
    /// or `permanent` for a transport failure retrying cannot fix.
    func send(_ request: URLRequest, describedAs label: String) async throws(PlayAPIError) -> HTTPResponse {
        do {
            return try await sender.send(request)
        } catch {
            switch error.kind {
            case .permanent: throw .permanent("\(label): \(error.lastFailure)")
            case .exhausted: throw .retryable("\(label): \(error.lastFailure) after \(policy.retryCountMax) retries")
            }
        }
    }

    /// 408, 429 and every 5xx.
    static func isRetryableStatus(_ statusCode: Int) -> Bool { RetryingHTTPSender.isRetryableStatus(statusCode) }
}
