import Foundation

/// A JWS header's fields the store clients write and read (RFC 7515 §4.1).
package struct JOSEHeader: Codable, Sendable {
    /// RSASSA-PKCS1-v1_5 with SHA-256: Google's service-account and Pub/Sub tokens.
    package static let rs256 = "RS256"
    /// ECDSA P-256 with SHA-256: App Store Server API tokens.
    package static let es256 = "ES256"

    /// The signature algorithm.
    package var alg: String?
    /// The media type, `JWT`.
    package var typ: String?
    /// The signing key's ID.
    package var kid: String?

    /// Creates a header.
    package init(alg: String?, typ: String?, kid: String?) {
        self.alg = alg
        self.typ = typ
        self.kid = kid
    }
}
