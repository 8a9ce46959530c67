import Foundation

/// The claims of a Pub/Sub push's OIDC token that the authenticator checks.
/// Decoding never fails on a claim's type: a wrongly typed claim is read as absent, so the
/// check that needs it refuses the token with its own reason.
public struct PubSubPushClaims: Hashable, Sendable, Decodable {
    /// The issuer, `accounts.google.com` or `https://accounts.google.com`.
    public var iss: String?
    /// The audience, when it is a single string (as Pub/Sub sends it).
    public var aud: String?
    /// The push subscription's service account.
    public var email: String?
    /// Whether Google verified `email`.
    public var emailVerified: Bool?
    /// The service account's unique ID.
    public var sub: String?
    /// Issued at, seconds since 1970.
    public var iat: Double?
    /// Expires at, seconds since 1970.
    public var exp: Double?

    private enum CodingKeys: String, CodingKey {
        case iss, aud, email, sub, iat, exp
        case emailVerified = "email_verified"
    }

    /// Decodes the claims, reading every claim of another type as absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iss = try? container.decodeIfPresent(String.self, forKey: .iss)
        aud = try? container.decodeIfPresent(String.self, forKey: .aud)
        email = try? container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try? container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        sub = try? container.decodeIfPresent(String.self, forKey: .sub)
        iat = try? container.decodeIfPresent(Double.self, forKey: .iat)
        exp = try? container.decodeIfPresent(Double.self, forKey: .exp)
    }
}
