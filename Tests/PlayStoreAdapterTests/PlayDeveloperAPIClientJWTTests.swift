import COpenSSL
import Foundation
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// The service-account key file and the RS256 JWT bearer assertion.
@Suite struct PlayDeveloperAPIClientJWTTests {
    @Test func assertionVerifiesWithThePublicKeyAndCarriesTheClaims() throws {
        let key = try RSATestKey()
        let tokenURI = URL(string: "https://oauth2.googleapis.com/token")!
        let credentials = ServiceAccountCredentials(
            clientEmail: "svc@p.iam.gserviceaccount.com", privateKeyPEM: try key.privateKeyPEM(),
            privateKeyID: "key-7", tokenURI: tokenURI)
        let issuedAt = Date(timeIntervalSince1970: 1_767_571_200.75)
        let assertion = try JWTAssertionSigner(credentials: credentials).assertion(issuedAt: issuedAt)

        let segments = assertion.split(separator: ".", omittingEmptySubsequences: false)
        try #require(segments.count == 3)
        #expect(!assertion.contains("=") && !assertion.contains("+") && !assertion.contains("/"))
        let header = jwtSegmentObject(segments[0])
        #expect(header["alg"] as? String == "RS256" && header["typ"] as? String == "JWT")
        #expect(header["kid"] as? String == "key-7")
        let claims = jwtSegmentObject(segments[1])
        #expect(claims["iss"] as? String == "svc@p.iam.gserviceaccount.com")
        #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/androidpublisher")
        #expect(claims["aud"] as? String == "https://oauth2.googleapis.com/token")
        #expect(claims["iat"] as? Int == 1_767_571_200)
        #expect(claims["exp"] as? Int == 1_767_571_200 + 3600)

        let signingInput = Array(segments[0...1].joined(separator: ".").utf8)
        let signature = try #require(Self.base64URLDecode(segments[2]))
        #expect(signature.count == 256)
        #expect(Self.verifyRS256(key: key.pointer, signature: signature, message: signingInput))
        var tampered = signingInput
        tampered[tampered.count - 1] ^= 1
        #expect(!Self.verifyRS256(key: key.pointer, signature: signature, message: tampered))
    }

    @Test func keyFileDecodesAndRedactsThePrivateKey() throws {
        let keyFile: [String: String] = [
            "type": "service_account", "project_id": "game", "private_key_id": "abc123",
            "private_key": PlayClientTestKey.privateKeyPEM, "client_email": "svc@game.iam.gserviceaccount.com",
            "token_uri": "https://oauth2.googleapis.com/token",
        ]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("play-key-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: keyFile).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let credentials = try ServiceAccountCredentials(contentsOfFile: path.path)
        #expect(credentials.clientEmail == "svc@game.iam.gserviceaccount.com" && credentials.privateKeyID == "abc123")
        #expect(credentials.tokenURI == ServiceAccountCredentials.defaultTokenURI)
        #expect(!credentials.description.contains("PRIVATE KEY") && credentials.description.contains("redacted"))
        #expect(throws: Never.self) { try JWTAssertionSigner(credentials: credentials) }
    }

    @Test func unusableKeysAreRefused() {
        #expect(throws: PlayAPIError.self) { try ServiceAccountCredentials(jsonData: Data(#"{"client_email":"a"}"#.utf8)) }
        let garbage = ServiceAccountCredentials(
            clientEmail: "a@b", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
            privateKeyID: nil)
        #expect(throws: PlayAPIError.self) { try JWTAssertionSigner(credentials: garbage) }
    }

    static func verifyRS256(key: OpaquePointer, signature: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        let result = EVP_DigestVerify(context, signature, signature.count, message, message.count)
        ERR_clear_error()
        return result == 1
    }

    static func base64URLDecode(_ segment: Substring) -> [UInt8]? {
        var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
