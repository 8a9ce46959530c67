import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import Testing

/// The App Store Server API client's JWT and key file.
@Suite struct AppStoreServerAPIAuthTests {
    @Test func theJWTCarriesApplesHeaderAndClaimsAndVerifiesWithThePublicKey() async throws {
        let fixture = try ServerAPIFixture()
        let transport = RecordingTransport(responses: [HTTPResponse(statusCode: 200)])
        let client = try fixture.client(transport)
        try await client.finishTransaction(transactionID: "2000000001")
        let token = try #require(transport.requests.first?.bearerToken)
        let (header, claims) = try #require(fixture.key.verifiedJWT(token))
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == ServerAPIFixture.keyID)
        #expect(header["typ"] as? String == "JWT")
        #expect(claims["iss"] as? String == ServerAPIFixture.issuerID)
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["bid"] as? String == ServerAPIFixture.bundleID)
        let issuedAt = try #require(claims["iat"] as? Int)
        let expiresAt = try #require(claims["exp"] as? Int)
        #expect(issuedAt == Int(fixture.clock.now().timeIntervalSince1970))
        #expect(expiresAt > issuedAt && expiresAt - issuedAt <= 3600)
        // A token signed by another key does not verify.
        #expect(try AppStoreAPITestKey().verifiedJWT(token) == nil)
        let tampered = token.dropLast(4) + "AAAA"
        #expect(fixture.key.verifiedJWT(String(tampered)) == nil)
    }

    @Test func theJWTIsReusedUntilShortlyBeforeItExpires() async throws {
        let fixture = try ServerAPIFixture()
        let transport = RecordingTransport(responses: [HTTPResponse(statusCode: 200)])
        let client = try fixture.client(transport)
        try await client.finishTransaction(transactionID: "1")
        try await client.finishTransaction(transactionID: "2")
        let reuseSeconds = AppStoreAPITokenProvider.tokenLifetimeSeconds - AppStoreAPITokenProvider.renewalMarginSeconds
        fixture.clock.advance(seconds: TimeInterval(reuseSeconds - 1))
        try await client.finishTransaction(transactionID: "3")
        fixture.clock.advance(seconds: 2)
        try await client.finishTransaction(transactionID: "4")
        let tokens = transport.requests.map(\.bearerToken)
        #expect(tokens[0] == tokens[1] && tokens[1] == tokens[2])
        #expect(tokens[3] != tokens[2])
        #expect(tokens.allSatisfy { $0.flatMap(fixture.key.verifiedJWT) != nil })
    }

    @Test func theKeyFileIsRefusedWhenMissingUnreadableOrNotAnECP256Key() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("asapi-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func problem(_ contents: Data?, _ name: String) -> AppStoreAPIKeyProblem? {
            let path = folder.appendingPathComponent(name).path
            if let contents { _ = FileManager.default.createFile(atPath: path, contents: contents) }
            do {
                _ = try AppStoreAPISigningKey(contentsOfFile: path)
                return nil
            } catch {
                guard case .keyFile(let problem, _) = error else { return nil }
                return problem
            }
        }
        #expect(problem(nil, "absent.p8") == .missing)
        #expect(problem(Data([0xFF, 0xFE, 0x00, 0xC3]), "binary.p8") == .unreadable)
        #expect(problem(Data(repeating: 0x41, count: AppStoreAPISigningKey.keyFileByteCountMax + 1), "huge.p8") == .unreadable)
        #expect(problem(Data("not a key".utf8), "text.p8") == .notPrivateKey)
        #expect(problem(Data(try AppStoreAPITestKey.privateKeyPEM(ecGroup: "P-384").utf8), "p384.p8") == .notECP256)
        #expect(problem(Data(try AppStoreAPITestKey().privateKeyPEM.utf8), "good.p8") == nil)
    }

    @Test func anEnvironmentWithoutAnAPIHostIsAConfigurationError() throws {
        let verifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(rootCertificates: [], bundleID: "b", environment: .xcode))
        let key = try AppStoreAPISigningKey(pem: try AppStoreAPITestKey().privateKeyPEM)
        #expect {
            try AppStoreServerAPIClient(key: key, keyID: "k", issuerID: "i", verifier: verifier)
        } throws: { error in
            guard case .configuration = error as? AppStoreServerAPIError else { return false }
            return true
        }
        let fixture = try ServerAPIFixture()
        let sandbox = try AppStoreServerAPIClient(key: key, keyID: "k", issuerID: "i", verifier: fixture.verifier)
        #expect(sandbox.baseURL == AppStoreServerAPIClient.sandboxBaseURL)
        #expect(sandbox.environment == .sandbox)
    }
}
