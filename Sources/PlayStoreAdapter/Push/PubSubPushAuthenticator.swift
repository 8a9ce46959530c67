import Foundation
import FulfillmentLedger

/// Checks that a push request came from Cloud Pub/Sub for this endpoint: its
/// `Authorization: Bearer <JWT>` must be an RS256 token signed by one of Google's keys, issued
/// by Google, for the configured audience and push service account, and inside its lifetime.
///
/// The checks run in a fixed order (`PubSubPushAuthenticationError.Reason`), the cheap claim
/// checks before the key lookup, so a forged token rarely costs a key fetch. Only failing to
/// get Google's keys throws; every refusal is a value.
public struct PubSubPushAuthenticator: Sendable {
    /// What the token must say.
    public let configuration: PubSubPushAuthentication
    /// Google's signing keys.
    public let keys: any PubSubSigningKeySource
    /// The time `iat` and `exp` are checked against.
    public let clock: any LedgerClock

    /// Largest `iat` or `exp` read, seconds since 1970 (the end of year 9999).
    static let timeSecondsMax = Double(Date.ledgerMillisecondsRange.upperBound / 1000)

    /// Creates an authenticator.
    public init(
        configuration: PubSubPushAuthentication, keys: any PubSubSigningKeySource, clock: any LedgerClock = SystemClock()
    ) {
        self.configuration = configuration
        self.keys = keys
        self.clock = clock
    }

    /// Authenticates a request by its headers (the `Authorization` name in any case).
    public func authenticate(headers: [String: String]) async throws(LedgerError)
        -> Result<PubSubPushClaims, PubSubPushAuthenticationError>
    {
        let authorization = headers.first { $0.key.caseInsensitiveCompare("Authorization") == .orderedSame }?.value
        return try await authenticate(authorization: authorization)
    }

    /// Authenticates the value of an `Authorization` header. Throws `verifierUnavailable` only
    /// when Google's key set cannot be had: answer with a 5xx so Pub/Sub redelivers.
    public func authenticate(authorization: String?) async throws(LedgerError)
        -> Result<PubSubPushClaims, PubSubPushAuthenticationError>
    {
        let token: CompactJWT
        let header: JOSEHeader
        let claims: PubSubPushClaims
        switch Self.parse(authorization) {
        case .failure(let error): return .failure(error)
        case .success(let parsed): (token, header, claims) = parsed
        }
        if let refusal = check(claims) { return .failure(refusal) }
        guard let kid = header.kid, !kid.isEmpty else { return .failure(.init(.unknownKey, "the token names no kid")) }
        guard let key = try await key(kid) else {
            return .failure(.init(.unknownKey, "kid \(kid) is not in Google's key set"))
        }
        guard key.isValidRS256Signature(token.signature, for: token.signingInput) else {
            return .failure(.init(.badSignature, "the signature does not verify with kid \(kid)"))
        }
        return .success(claims)
    }

    /// Splits the header value and decodes the token's header and claims.
    private static func parse(_ authorization: String?) -> Result<
        (CompactJWT, JOSEHeader, PubSubPushClaims), PubSubPushAuthenticationError
    > {
        guard let authorization, authorization.utf8.count <= PubSubPushAuthentication.authorizationByteCountMax else {
            return .failure(.init(.missingAuthorization, "no Authorization header, or one above the size limit"))
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].caseInsensitiveCompare("Bearer") == .orderedSame else {
            return .failure(.init(.missingAuthorization, "the Authorization header is not a Bearer token"))
        }
        guard let token = CompactJWT(parts[1].trimmingCharacters(in: .whitespaces)),
            let header = try? JSONDecoder().decode(JOSEHeader.self, from: Data(token.header)),
            let claims = try? JSONDecoder().decode(PubSubPushClaims.self, from: Data(token.claims))
        else { return .failure(.init(.malformedToken, "the bearer token is not a JWT with JSON header and claims")) }
        guard header.alg == JOSEHeader.rs256 else {
            return .failure(.init(.unsupportedAlgorithm, "alg \(header.alg ?? "(none)") is not RS256"))
        }
        return .success((token, header, claims))
    }

    /// The first claim check that fails, if any.
    private func check(_ claims: PubSubPushClaims) -> PubSubPushAuthenticationError? {
        guard let issuer = claims.iss, PubSubPushAuthentication.googleIssuers.contains(issuer) else {
            return .init(.wrongIssuer, "iss \(claims.iss ?? "(none)") is not Google's")
        }
        guard claims.aud == configuration.audience else {
            return .init(.wrongAudience, "aud \(claims.aud ?? "(none or not one string)") is not \(configuration.audience)")
        }
        guard let email = claims.email, email.caseInsensitiveCompare(configuration.serviceAccountEmail) == .orderedSame else {
            return .init(.wrongEmail, "email \(claims.email ?? "(none)") is not \(configuration.serviceAccountEmail)")
        }
        guard claims.emailVerified == true else { return .init(.emailNotVerified, "email_verified is not true") }
        let range = 0...Self.timeSecondsMax
        guard let iat = claims.iat, let exp = claims.exp, range.contains(iat), range.contains(exp), exp > iat,
            exp - iat <= configuration.tokenLifetimeSecondsMax
        else {
            return .init(
                .invalidLifetime,
                "iat and exp must be times with exp after iat, at most \(Int(configuration.tokenLifetimeSecondsMax)) s apart")
        }
        let now = clock.now().timeIntervalSince1970
        guard iat <= now + configuration.clockSkewSeconds else {
            return .init(.notYetValid, "iat \(Int64(iat)) is more than \(Int(configuration.clockSkewSeconds)) s ahead")
        }
        guard exp >= now - configuration.clockSkewSeconds else {
            return .init(.expired, "exp \(Int64(exp)) is more than \(Int(configuration.clockSkewSeconds)) s past")
        }
        return nil
    }

    /// The key `kid`, asking the source for a fresh set once when the current one lacks it.
    private func key(_ kid: String) async throws(LedgerError) -> RSAPublicKey? {
        do throws(PlayAPIError) {
            if let key = try await keys.keySet(refresh: false).keys[kid] { return key }
            return try await keys.keySet(refresh: true).keys[kid]
        } catch {
            throw LedgerError.verifierUnavailable("Google's signing keys could not be read: \(error)")
        }
    }
}
