import Foundation
import FulfillmentLedger

/// Authenticates Stripe webhooks by their `Stripe-Signature` header, as Stripe's own libraries
/// do: HMAC-SHA256 of `"<t>.<raw body>"` under the endpoint's signing secret (`whsec_…`),
/// compared in constant time with each `v1` signature, and `t` within a tolerance of the
/// server's clock, so a captured webhook cannot be replayed later.
///
/// While a secret is rolled, Stripe signs with both the old and the new one for a while: give
/// both (`secrets`), and any one matching authenticates. Nothing from the body is read before
/// this passes.
public struct StripeWebhookAuthenticator: Sendable {
    /// Stripe's libraries' default tolerance: five minutes.
    public static let toleranceSecondsDefault: Int64 = 300
    /// The widest tolerance accepted: one hour.
    public static let toleranceSecondsMax: Int64 = 3_600
    /// Most secrets one endpoint is checked against.
    public static let secretCountMax = 4
    /// Largest body authenticated, in bytes: far above any event Stripe sends.
    public static let bodyByteCountMax = 512 * 1024

    /// The endpoint's signing secrets (`whsec_…`), newest first.
    public let secrets: [String]
    /// How far `t` may be from the clock, either way.
    public let toleranceSeconds: Int64
    /// The server's clock.
    public let clock: any LedgerClock

    /// An authenticator for `secrets` (1 to `secretCountMax`, each non-empty), accepting a
    /// signature time within `toleranceSeconds` (1 to `toleranceSecondsMax`) of `clock`; nil
    /// when an argument is out of range.
    public init?(
        secrets: [String], toleranceSeconds: Int64 = toleranceSecondsDefault, clock: any LedgerClock = SystemClock()
    ) {
        guard (1...Self.secretCountMax).contains(secrets.count), secrets.allSatisfy({ !$0.isEmpty }),
            (1...Self.toleranceSecondsMax).contains(toleranceSeconds)
        else { return nil }
        self.secrets = secrets
        self.toleranceSeconds = toleranceSeconds
        self.clock = clock
    }

    /// Whether `body` came from Stripe, by the `Stripe-Signature` header `signatureHeader`.
    public func authenticate(signatureHeader: String?, body: [UInt8]) -> Result<Void, StripeWebhookRefusal> {
        guard body.count <= Self.bodyByteCountMax else { return .failure(.bodyTooLarge(byteCount: body.count)) }
        guard let signatureHeader else { return .failure(.missingHeader) }
        let header: StripeSignatureHeader
        switch StripeSignatureHeader.parse(signatureHeader) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let parsed): header = parsed
        }
        let nowSeconds = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        let (skew, overflow) = nowSeconds.subtractingReportingOverflow(header.timestampSeconds)
        guard !overflow, skew.magnitude <= UInt64(toleranceSeconds) else {
            return .failure(.timestampOutOfTolerance(skewSeconds: overflow ? Int64.max : skew))
        }
        let signed = Array("\(header.timestampSeconds).".utf8) + body
        var matched = false
        for secret in secrets {
            guard let mac = HMACSHA256.mac(key: Array(secret.utf8), message: signed) else { continue }
            let expected = Array(SHA256.hex(mac).utf8)
            // Every signature is compared in full, so the time taken says nothing of which matched.
            for signature in header.signatures where ConstantTime.equal(expected, Array(signature.utf8)) {
                matched = true
            }
        }
        return matched ? .success(()) : .failure(.signatureMismatch)
    }

    /// The `Stripe-Signature` header Stripe would send for `body` signed at `timestampSeconds`
    /// under `secret`: for simulators and tests.
    public static func signatureHeader(body: [UInt8], secret: String, timestampSeconds: Int64) -> String {
        let mac = HMACSHA256.mac(key: Array(secret.utf8), message: Array("\(timestampSeconds).".utf8) + body) ?? []
        return "t=\(timestampSeconds),v1=\(SHA256.hex(mac))"
    }
}
