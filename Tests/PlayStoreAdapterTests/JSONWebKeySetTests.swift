import COpenSSL
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Google's key set: parsing JWKs into RSA keys through OpenSSL, and the fetching cache.
@Suite struct JSONWebKeySetTests {
    static func jwk(kid: String, key: RSATestKey, kty: String = "RSA", alg: String? = "RS256", use: String? = "sig") throws
        -> [String: String]
    {
        let (modulus, exponent) = try key.publicComponents()
        var entry = ["kty": kty, "kid": kid, "n": Base64URL.encode(modulus), "e": Base64URL.encode(exponent)]
        entry["alg"] = alg
        entry["use"] = use
        return entry
    }

    static func document(_ keys: [[String: String]]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["keys": keys])
    }

    @Test func onlyUsableRS256KeysAreKept() throws {
        let key = PlayClientTestKey.key
        let set = try JSONWebKeySet(
            jsonData: Self.document([
                try Self.jwk(kid: "good", key: key), try Self.jwk(kid: "no-alg", key: key, alg: nil, use: nil),
                try Self.jwk(kid: "ec", key: key, kty: "EC"), try Self.jwk(kid: "es256", key: key, alg: "ES256"),
                try Self.jwk(kid: "enc", key: key, use: "enc"),
                ["kty": "RSA", "kid": "short", "n": Base64URL.encode([UInt8](repeating: 0xC5, count: 128)), "e": "AQAB"],
                ["kty": "RSA", "kid": "garbage", "n": "!!", "e": "AQAB"], ["kty": "RSA", "n": "AQAB", "e": "AQAB"],
            ]))
        #expect(set.keyIDs == ["good", "no-alg"])
        #expect(throws: PlayAPIError.self) { try JSONWebKeySet(jsonData: Data(#"{"keys":[]}"#.utf8)) }
        #expect(throws: PlayAPIError.self) { try JSONWebKeySet(jsonData: Data("not json".utf8)) }
        let many = try Self.document(Array(repeating: try Self.jwk(kid: "k", key: key), count: JSONWebKeySet.keyCountMax + 1))
        #expect(throws: PlayAPIError.self) { try JSONWebKeySet(jsonData: many) }
        #expect(throws: PlayAPIError.self) { try JSONWebKeySet(jsonData: Data(count: JSONWebKeySet.byteCountMax + 1)) }
    }

    @Test func theOpenSSLParameterNamesAreTheRSAOnes() {
        // RSAPublicKey passes static copies of these names; they must stay what OpenSSL calls them.
        #expect(OSSL_PKEY_PARAM_RSA_N == "n" && OSSL_PKEY_PARAM_RSA_E == "e")
    }

    /// Serves a key set and counts the fetches.
    final class KeyServer: HTTPTransport, Sendable {
        let state = Mutex<(body: Data, cacheControl: String?, status: Int, count: Int)>((Data(), nil, 200, 0))

        func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse {
            let reply = state.withLock { state in
                state.count += 1
                return state
            }
            var headers: [String: String] = [:]
            headers["Cache-Control"] = reply.cacheControl
            return HTTPResponse(statusCode: reply.status, headers: headers, body: reply.body)
        }

        var fetchCount: Int { state.withLock { $0.count } }
    }

    @Test func googleKeysAreCachedForMaxAgeAndRefetchedForANewKidAtMostOncePerInterval() async throws {
        let clock = ManualClock()
        let server = KeyServer()
        let first = try Self.document([try Self.jwk(kid: "k1", key: PlayClientTestKey.key)])
        server.state.withLock { $0 = (first, "public, max-age=600, must-revalidate", 200, 0) }
        let keys = GoogleSigningKeys(transport: server, clock: clock, sleep: { _ in })
        #expect(try await keys.keySet(refresh: false).keyIDs == ["k1"])
        #expect(try await keys.keySet(refresh: false).keyIDs == ["k1"] && server.fetchCount == 1)
        // An unknown kid right after a fetch does not refetch.
        #expect(try await keys.keySet(refresh: true).keyIDs == ["k1"] && server.fetchCount == 1)
        clock.advance(seconds: GoogleSigningKeys.refreshIntervalSecondsMin)
        let rotated = try Self.document([
            try Self.jwk(kid: "k1", key: PlayClientTestKey.key), try Self.jwk(kid: "k2", key: PlayClientTestKey.key),
        ])
        server.state.withLock { $0.body = rotated }
        #expect(try await keys.keySet(refresh: true).keyIDs == ["k1", "k2"] && server.fetchCount == 2)
        clock.advance(seconds: 599)
        #expect(try await keys.keySet(refresh: false).keyIDs == ["k1", "k2"] && server.fetchCount == 2)
        clock.advance(seconds: 1)
        _ = try await keys.keySet(refresh: false)
        #expect(server.fetchCount == 3, "max-age 600 expired")
        // A max-age beyond the cap is cut to it; a failed fetch after expiry throws.
        server.state.withLock { $0.cacheControl = "max-age=999999" }
        clock.advance(seconds: 600)
        _ = try await keys.keySet(refresh: false)
        let fetches = server.fetchCount
        clock.advance(seconds: GoogleSigningKeys.cacheTTLSecondsMax - 1)
        _ = try await keys.keySet(refresh: false)
        #expect(server.fetchCount == fetches)
        clock.advance(seconds: 1)
        server.state.withLock { $0.status = 500 }
        await #expect(throws: PlayAPIError.self) { _ = try await keys.keySet(refresh: false) }
        #expect(GoogleSigningKeys.maxAgeSeconds("no-cache, max-age=30") == 30)
        #expect(GoogleSigningKeys.maxAgeSeconds("max-age=-1") == nil && GoogleSigningKeys.maxAgeSeconds(nil) == nil)
    }

    @Test func unreadableKeysMakeTheAuthenticatorThrowSoPubSubRedelivers() async throws {
        let clock = ManualClock()
        let server = KeyServer()
        server.state.withLock { $0 = (Data("{}".utf8), nil, 200, 0) }
        let signer = try PubSubPushSigner(clock: clock, key: PlayClientTestKey.key)
        let authenticator = PubSubPushAuthenticator(
            configuration: signer.authentication, keys: GoogleSigningKeys(transport: server, clock: clock, sleep: { _ in }),
            clock: clock)
        await #expect(throws: LedgerError.self) {
            _ = try await authenticator.authenticate(authorization: "Bearer " + (try signer.token()))
        }
    }
}
