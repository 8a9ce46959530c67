import Foundation
import FulfillmentLedger

/// Why an App Store Server API call gave no usable answer.
///
/// Expected outcomes such as "transaction not found" are values of the endpoint's result, not
/// errors. What is here is either permanent (the configuration, a rejected request, an answer
/// that fails verification) or retryable later (`isRetryable`).
public enum AppStoreServerAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `.p8` key file could not be used.
    case keyFile(AppStoreAPIKeyProblem, String)
    /// The client cannot be built or a request cannot be made as configured (such as an
    /// environment the API does not serve, or a date range Apple would refuse).
    case configuration(String)
    /// HTTP 401 or 403: the key ID, issuer ID, bundle ID or key is wrong or revoked. Permanent:
    /// retrying cannot fix the configuration.
    case unauthorized(statusCode: Int, detail: String)
    /// Apple answered 4xx with its error body (such as an invalid transaction ID or revision).
    case rejected(AppStoreAPIErrorResponse)
    /// HTTP 429 outlasted the retries, or asked for a wait longer than the retry policy allows.
    /// `retryAfter` is when Apple will accept the next request, when it said.
    case rateLimited(retryAfter: Date?, detail: String)
    /// 5xx, a timeout or a lost connection outlasted the retries.
    case unavailable(String)
    /// The request could not be sent at all (bad URL, TLS refusal): not retried.
    case transport(String)
    /// A 2xx answer whose body is not what the endpoint documents.
    case invalidResponse(String)
    /// A JWS in Apple's answer failed `SignedDataVerifier`: nothing of it is used.
    case verification(AppStoreVerificationError)

    /// Whether the same call may succeed later without a configuration change.
    public var isRetryable: Bool {
        switch self {
        case .rateLimited, .unavailable: true
        case .rejected(let response): response.errorCode?.isRetryable ?? false
        default: false
        }
    }

    /// The kind's name, such as `rateLimited`, beside its stable `code` in JSON output.
    public var kindName: String {
        switch self {
        case .keyFile: "keyFile"
        case .configuration: "configuration"
        case .unauthorized: "unauthorized"
        case .rejected: "rejected"
        case .rateLimited: "rateLimited"
        case .unavailable: "unavailable"
        case .transport: "transport"
        case .invalidResponse: "invalidResponse"
        case .verification: "verification"
        }
    }

    /// The stable code of the kind (Docs/ErrorCodes.md), never renumbered.
    public var code: Int {
        switch self {
        case .keyFile: 7201
        case .configuration: 7202
        case .unauthorized: 7203
        case .rejected: 7204
        case .rateLimited: 7205
        case .unavailable: 7206
        case .transport: 7207
        case .invalidResponse: 7208
        case .verification: 7209
        }
    }

    /// A human-readable account, without secrets.
    public var description: String {
        switch self {
        case .keyFile(let problem, let detail): "key file \(problem.rawValue): \(detail)"
        case .configuration(let detail): "configuration: \(detail)"
        case .unauthorized(let status, let detail): "unauthorized (HTTP \(status)): \(detail)"
        case .rejected(let response): "rejected: \(response)"
        case .rateLimited(let retryAfter, let detail):
            "rate limited\(retryAfter.map { " until \($0.ledgerMilliseconds) ms" } ?? ""): \(detail)"
        case .unavailable(let detail): "unavailable: \(detail)"
        case .transport(let detail): "transport: \(detail)"
        case .invalidResponse(let detail): "invalid response: \(detail)"
        case .verification(let error): "verification: \(error)"
        }
    }
}

/// What is wrong with the `.p8` key file.
public enum AppStoreAPIKeyProblem: String, Hashable, Sendable {
    /// No file at the path.
    case missing
    /// The file exists but cannot be read as text.
    case unreadable
    /// The text is not a PEM private key.
    case notPrivateKey
    /// A private key, but not EC on P-256 (App Store Connect keys always are).
    case notECP256
}
