import Foundation

/// Why a Pub/Sub push was refused before anything in it was read: its `Authorization` header
/// did not carry a valid Google-signed OIDC token for this endpoint. Nothing changed and the
/// push's `messageId` was not recorded.
public struct PubSubPushAuthenticationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The failed check, in the order they run.
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// No `Authorization` header, or not `Bearer <token>`, or longer than the limit.
        case missingAuthorization
        /// Not three base64url segments, or a header or claims set that is not the expected JSON.
        case malformedToken
        /// `alg` is not `RS256`.
        case unsupportedAlgorithm
        /// `iss` is not Google's.
        case wrongIssuer
        /// `aud` is not the configured audience.
        case wrongAudience
        /// `email` is not the configured push service account.
        case wrongEmail
        /// `email_verified` is not true.
        case emailNotVerified
        /// `iat` or `exp` missing or out of range, `exp` not after `iat`, or a lifetime above the limit.
        case invalidLifetime
        /// `iat` lies further in the future than the clock skew allows.
        case notYetValid
        /// `exp` lies further in the past than the clock skew allows.
        case expired
        /// No `kid`, or one Google's key set does not hold.
        case unknownKey
        /// The signature does not verify with the named key.
        case badSignature

        /// The stable numeric code (Docs/ErrorCodes.md).
        public var code: Int {
            switch self {
            case .missingAuthorization: 8001
            case .malformedToken: 8002
            case .unsupportedAlgorithm: 8003
            case .wrongIssuer: 8004
            case .wrongAudience: 8005
            case .wrongEmail: 8006
            case .emailNotVerified: 8007
            case .invalidLifetime: 8008
            case .notYetValid: 8009
            case .expired: 8010
            case .unknownKey: 8011
            case .badSignature: 8012
            }
        }
    }

    /// The failed check.
    public var reason: Reason
    /// What was found, for logs (never the token itself).
    public var detail: String

    /// Creates an error.
    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// The HTTP status to answer the push with: 401 when no token came, 403 for a token that
    /// failed. Both are non-2xx, so Pub/Sub redelivers the message (a misconfigured audience or
    /// account shows up as unacknowledged messages and push errors, and nothing is lost meanwhile);
    /// a forged push is never acknowledged as applied.
    public var httpStatus: Int { reason == .missingAuthorization ? 401 : 403 }

    /// `reason (code): detail`.
    public var description: String { "\(reason.rawValue) (\(reason.code)): \(detail)" }
}
