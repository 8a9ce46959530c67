import Foundation
import FulfillmentLedger
import LedgerHTTPClient
import Synchronization

/// Signs the ES256 JWT every App Store Server API request carries as `Authorization: Bearer`,
/// and reuses it until `renewalMarginSeconds` before it expires.
///
/// Header `{alg: ES256, kid, typ: JWT}`; claims `{iss, iat, exp, aud: appstoreconnect-v1, bid}`
/// as Apple's "Generating JSON Web Tokens for API requests" documents them.
public final class AppStoreAPITokenProvider: Sendable {
    /// The audience Apple requires.
    public static let audience = "appstoreconnect-v1"
    /// How long a token is valid. Apple refuses an `exp` more than 60 minutes after `iat`;
    /// 20 minutes keeps a leaked token's use short while signing rarely.
    public static let tokenLifetimeSeconds = 1_200
    /// A token is replaced this long before its `exp`, so one in flight does not expire.
    public static let renewalMarginSeconds = 60

    /// The key's ID from App Store Connect (the header's `kid`).
    public let keyID: String
    /// The issuer ID from App Store Connect (`iss`).
    public let issuerID: String
    /// The app's bundle ID (`bid`).
    public let bundleID: String
    private let key: AppStoreAPISigningKey
    private let clock: any LedgerClock
    private let cached = Mutex<(token: String, replaceAfter: Date)?>(nil)

    /// Creates a provider for `key`.
    public init(key: AppStoreAPISigningKey, keyID: String, issuerID: String, bundleID: String, clock: any LedgerClock) {
        self.key = key
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.clock = clock
    }

    /// The cached token while fresh, else a newly signed one.
    public func token() throws(AppStoreServerAPIError) -> String {
        let now = clock.now()
        if let cached = cached.withLock({ $0 }), now < cached.replaceAfter { return cached.token }
        let issuedAtSeconds = Int64(now.timeIntervalSince1970.rounded(.down))
        let token = try signedToken(issuedAtSeconds: issuedAtSeconds)
        let replaceAfter = Date(
            timeIntervalSince1970: TimeInterval(issuedAtSeconds + Int64(Self.tokenLifetimeSeconds - Self.renewalMarginSeconds)))
        cached.withLock { $0 = (token, replaceAfter) }
        return token
    }

    /// Drops the cached token, so the next request signs a new one.
    public func invalidate() {
        cached.withLock { $0 = nil }
    }

    /// `base64url(header).base64url(claims).base64url(r ‖ s)`, the JSON with sorted keys.
    func signedToken(issuedAtSeconds: Int64) throws(AppStoreServerAPIError) -> String {
        let header = JOSEHeader(alg: JOSEHeader.es256, typ: "JWT", kid: keyID)
        let claims = Claims(
            iss: issuerID, aud: Self.audience, bid: bundleID, iat: issuedAtSeconds,
            exp: issuedAtSeconds + Int64(Self.tokenLifetimeSeconds))
        let signingInput: String
        do {
            signingInput = try Base64URL.encodeJSON(header) + "." + Base64URL.encodeJSON(claims)
        } catch {
            throw .configuration("JWT: cannot encode: \(error)")
        }
        let signature = try key.signatureES256(of: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Apple's claims; the encoder sorts the keys.
    private struct Claims: Encodable {
        var iss, aud, bid: String
        var iat, exp: Int64
    }
}
