/// Why a Stripe API call gave no answer to use. Only infrastructure and configuration fail this
/// way; an object Stripe does not have is a value (`nil`) of the call.
public enum StripeAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The secret key was refused (401) or lacks the permission (403): fix the configuration.
    case unauthorized(statusCode: Int, detail: String)
    /// Stripe refused the request (400, 402, 409): its `error.type`, `error.code` and message.
    case rejected(statusCode: Int, detail: String)
    /// 429, 5xx or a transient transport failure outlasted the retries: try again later.
    case unavailable(String)
    /// A transport failure retrying cannot fix (a bad URL, TLS).
    case transport(String)
    /// The answer is not the object asked for, or breaks a limit: its reason.
    case invalidResponse(String)

    /// The stable code (Docs/ErrorCodes.md).
    public var code: Int {
        switch self {
        case .unauthorized: 10101
        case .rejected: 10102
        case .unavailable: 10103
        case .transport: 10104
        case .invalidResponse: 10105
        }
    }

    /// Whether the same call later may succeed.
    public var isRetryable: Bool {
        if case .unavailable = self { return true }
        return false
    }

    /// The failure in words.
    public var description: String {
        switch self {
        case .unauthorized(let status, let detail): "Stripe refused the key (HTTP \(status)): \(detail)"
        case .rejected(let status, let detail): "Stripe refused the request (HTTP \(status)): \(detail)"
        case .unavailable(let detail): "Stripe is unavailable: \(detail)"
        case .transport(let detail): "cannot reach Stripe: \(detail)"
        case .invalidResponse(let detail): "Stripe's answer is unusable: \(detail)"
        }
    }
}
