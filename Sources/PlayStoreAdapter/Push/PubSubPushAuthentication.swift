import Foundation

/// What a Pub/Sub push's OIDC token must say to be accepted: the push subscription's
/// authentication settings, and the tolerances of the checks.
///
/// `audience` is the subscription's `--push-auth-token-audience` (Pub/Sub uses the push
/// endpoint's URL when none was set); `serviceAccountEmail` is its `--push-auth-service-account`.
public struct PubSubPushAuthentication: Sendable, Hashable {
    /// The issuers Google signs ID tokens as.
    public static let googleIssuers: Set<String> = ["accounts.google.com", "https://accounts.google.com"]
    /// Default tolerance between Google's clock and the server's, for `iat` and `exp`.
    public static let defaultClockSkewSeconds: TimeInterval = 5 * 60
    /// Default longest `exp - iat`: Google's ID tokens live one hour.
    public static let defaultTokenLifetimeSecondsMax: TimeInterval = 60 * 60
    /// Longest `Authorization` header read; Google's tokens are about 1 KB.
    public static let authorizationByteCountMax = 16 * 1024

    /// The `aud` claim required, compared exactly.
    public var audience: String
    /// The `email` claim required (compared ignoring case), with `email_verified` true.
    public var serviceAccountEmail: String
    /// How far `iat` may lie in the future, and `exp` in the past.
    public var clockSkewSeconds: TimeInterval
    /// Longest `exp - iat` accepted.
    public var tokenLifetimeSecondsMax: TimeInterval

    /// Creates the settings with the default tolerances.
    public init(
        audience: String, serviceAccountEmail: String, clockSkewSeconds: TimeInterval = defaultClockSkewSeconds,
        tokenLifetimeSecondsMax: TimeInterval = defaultTokenLifetimeSecondsMax
    ) {
        self.audience = audience
        self.serviceAccountEmail = serviceAccountEmail
        self.clockSkewSeconds = clockSkewSeconds
        self.tokenLifetimeSecondsMax = tokenLifetimeSecondsMax
    }
}
