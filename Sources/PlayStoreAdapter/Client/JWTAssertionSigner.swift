import Foundation
import FulfillmentLedger

/// Builds and signs the OAuth 2.0 JWT bearer assertion (RFC 7523) a service account exchanges
/// for an Android Publisher access token: header `{alg: RS256, typ: JWT, kid}`, claims
/// `{iss, scope, aud, iat, exp}`, each segment unpadded base64url.
public struct JWTAssertionSigner: Sendable {
    /// The OAuth scope of the Google Play Developer API.
    public static let androidPublisherScope = "https://www.googleapis.com/auth/androidpublisher"
    /// How long an assertion is valid: Google accepts at most one hour.
    public static let assertionLifetimeSeconds = 3600

    /// The service account the assertions are for.
    public let credentials: ServiceAccountCredentials
    /// The scope claimed; the Android Publisher scope unless told otherwise.
    public let scope: String
    private let key: RSASigningKey

    /// Parses the credentials' private key, throwing `permanent` unless it is an RSA PEM key.
    public init(credentials: ServiceAccountCredentials, scope: String = androidPublisherScope) throws(PlayAPIError) {
        self.credentials = credentials
        self.scope = scope
        key = try RSASigningKey(pem: credentials.privateKeyPEM)
    }

    /// A signed assertion issued at `issuedAt` (whole seconds) and expiring an hour later.
    public func assertion(issuedAt: Date) throws(PlayAPIError) -> String {
        let issuedAtSeconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let header = JOSEHeader(alg: JOSEHeader.rs256, typ: "JWT", kid: credentials.privateKeyID)
        let claims = Claims(
            iss: credentials.clientEmail, scope: scope, aud: credentials.tokenURI.absoluteString,
            iat: issuedAtSeconds, exp: issuedAtSeconds + Int64(Self.assertionLifetimeSeconds))
        return try CompactJWT.signRS256(header: header, claims: claims, key: key)
    }

    /// The JWT claims set.
    private struct Claims: Encodable {
        var iss: String
        var scope: String
        var aud: String
        var iat: Int64
        var exp: Int64
    }
}
