/// Why a Stripe webhook was refused before anything in its body was read. Nothing changed and
/// nothing was recorded; answer 400 so that Stripe's dashboard shows the failure (Stripe retries
/// an event it could not deliver for up to three days).
public enum StripeWebhookRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// No `Stripe-Signature` header.
    case missingHeader
    /// The header is not one Stripe sends: its reason.
    case malformedHeader(String)
    /// The header carries no `v1` signature (only other schemes).
    case noSignature
    /// The signed time is further from the server's clock than the tolerance, in seconds.
    case timestampOutOfTolerance(skewSeconds: Int64)
    /// No `v1` signature matches the body under any configured secret.
    case signatureMismatch
    /// The body is larger than the limit.
    case bodyTooLarge(byteCount: Int)

    /// The stable code (Docs/ErrorCodes.md).
    public var code: Int {
        switch self {
        case .missingHeader: 10001
        case .malformedHeader: 10002
        case .noSignature: 10003
        case .timestampOutOfTolerance: 10004
        case .signatureMismatch: 10005
        case .bodyTooLarge: 10006
        }
    }

    /// The stable name.
    public var name: String {
        switch self {
        case .missingHeader: "missingHeader"
        case .malformedHeader: "malformedHeader"
        case .noSignature: "noSignature"
        case .timestampOutOfTolerance: "timestampOutOfTolerance"
        case .signatureMismatch: "signatureMismatch"
        case .bodyTooLarge: "bodyTooLarge"
        }
    }

    /// The reason in words.
    public var description: String {
        switch self {
        case .missingHeader: "no Stripe-Signature header"
        case .malformedHeader(let reason): "the Stripe-Signature header is malformed: \(reason)"
        case .noSignature: "the Stripe-Signature header carries no v1 signature"
        case .timestampOutOfTolerance(let skew): "the signature is \(skew) s from the server's clock, beyond the tolerance"
        case .signatureMismatch: "no v1 signature matches the body under the endpoint's secrets"
        case .bodyTooLarge(let count): "the body is \(count) bytes, more than the limit"
        }
    }
}
