import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// Signs Pub/Sub push OIDC tokens the way Google does (RS256, Google's issuer, the push
/// subscription's audience and service account, one hour of life) with a generated key, and
/// publishes that key as a JSON Web Key Set, so tests can drive the real authenticator.
/// Every claim can be overridden to forge a token that must be refused.
public final class PubSubPushSigner: Sendable {
    /// The audience tokens carry unless told otherwise.
    public static let defaultAudience = "https://game.example.com/play/rtdn"
    /// The push service account tokens carry unless told otherwise.
    public static let defaultServiceAccountEmail = "rtdn-push@game-project.iam.gserviceaccount.com"
    /// How long a token lives, as Google's do.
    public static let tokenLifetimeSeconds: TimeInterval = 60 * 60

    /// What the authenticator is configured to require.
    public let authentication: PubSubPushAuthentication
    /// The signing key's ID (`kid`).
    public let keyID: String
    /// The time tokens are issued at.
    public let clock: any LedgerClock
    /// The key set (JWKS) document publishing the public key.
    public let jwksData: Data
    private let key: RSASigningKey
    private let publishedKeys: JSONWebKeySet

    /// Creates a signer with a freshly generated key.
    public convenience init(
        audience: String = defaultAudience, serviceAccountEmail: String = defaultServiceAccountEmail,
        keyID: String = "simulated-google-key-1", clock: any LedgerClock
    ) throws {
        try self.init(
            audience: audience, serviceAccountEmail: serviceAccountEmail, keyID: keyID, clock: clock, key: RSATestKey())
    }

    /// Creates a signer with `key` (suites share one key, as generating one takes a while).
    package init(
        audience: String = defaultAudience, serviceAccountEmail: String = defaultServiceAccountEmail,
        keyID: String = "simulated-google-key-1", clock: any LedgerClock, key generated: RSATestKey
    ) throws {
        authentication = PubSubPushAuthentication(audience: audience, serviceAccountEmail: serviceAccountEmail)
        self.keyID = keyID
        self.clock = clock
        key = try RSASigningKey(pem: generated.privateKeyPEM())
        let (modulus, exponent) = try generated.publicComponents()
        let jwk: [String: String] = [
            "kty": "RSA", "alg": "RS256", "use": "sig", "kid": keyID, "n": Base64URL.encode(modulus),
            "e": Base64URL.encode(exponent),
        ]
        jwksData = try JSONSerialization.data(withJSONObject: ["keys": [jwk]], options: [.sortedKeys])
        publishedKeys = try JSONWebKeySet(jsonData: jwksData)
    }

    /// The published key set, as a key source.
    public var keys: StaticSigningKeys { StaticSigningKeys(publishedKeys) }

    /// An authenticator that requires what this signer's genuine tokens say.
    public func authenticator() -> PubSubPushAuthenticator {
        PubSubPushAuthenticator(configuration: authentication, keys: keys, clock: clock)
    }

    /// The claims and header of one token; every field defaults to what Pub/Sub sends.
    public struct Token: Sendable {
        /// `iss`.
        public var issuer = "https://accounts.google.com"
        /// `aud`; nil for the configured audience.
        public var audience: String?
        /// `email`; nil for the configured service account.
        public var email: String?
        /// `email_verified`.
        public var emailVerified = true
        /// `iat`; nil for the clock's now.
        public var issuedAt: Date?
        /// `exp - iat`.
        public var lifetimeSeconds = PubSubPushSigner.tokenLifetimeSeconds
        /// The header's `alg`.
        public var algorithm = "RS256"
        /// The header's `kid`; nil for the signer's key ID.
        public var keyID: String?

        /// A genuine token's settings.
        public init() {}
    }

    /// A signed token (`header.claims.signature`).
    public func token(_ token: Token = Token()) throws -> String {
        let issuedAt = Int64((token.issuedAt ?? clock.now()).timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            iss: token.issuer, aud: token.audience ?? authentication.audience,
            email: token.email ?? authentication.serviceAccountEmail, emailVerified: token.emailVerified,
            sub: "113774264463038321964", iat: issuedAt, exp: issuedAt + Int64(token.lifetimeSeconds))
        let header = JOSEHeader(alg: token.algorithm, typ: "JWT", kid: token.keyID ?? keyID)
        return try CompactJWT.signRS256(header: header, claims: claims, key: key)
    }

    /// The headers of a push carrying `token`.
    public func headers(_ token: Token = Token()) throws -> [String: String] {
        ["Authorization": "Bearer " + (try self.token(token)), "Content-Type": "application/json"]
    }

    private struct Claims: Encodable {
        var iss: String
        var aud: String
        var email: String
        var emailVerified: Bool
        var sub: String
        var iat: Int64
        var exp: Int64

        enum CodingKeys: String, CodingKey {
            case iss, aud, email, sub, iat, exp
            case emailVerified = "email_verified"
        }
    }
}
