import AppStoreSimulator
import Foundation
import FulfillmentLedgerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The App Store Server API JWT the CLI prints, decoded by a standard JWT library: Python's
/// PyJWT verifies the ES256 signature with the key's public half and checks the claims as
/// Apple would. `.ci/run` installs PyJWT and sets `LEDGER_REQUIRE_PYJWT=1`, so there the test
/// runs or fails; elsewhere it is skipped when PyJWT is missing.
struct AppStoreTokenPyJWTTests {
    /// A python3 that imports `jwt` and `cryptography`: Debian's first, then PATH's.
    static let pythonWithPyJWT: String? = {
        let candidates = ["/usr/bin/python3"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/python3" }
        return candidates.first { path in
            FileManager.default.isExecutableFile(atPath: path)
                && ProcessLaunchGuard.spawn(path, ["-c", "import jwt, cryptography"])?.status == 0
        }
    }()

    static let isRequired = ProcessInfo.processInfo.environment["LEDGER_REQUIRE_PYJWT"] == "1"

    /// Verifies argv[2] with the public key of the PKCS#8 key in argv[1]; prints the header
    /// and claims as JSON, or raises.
    static let script = """
        import json, sys, jwt
        from cryptography.hazmat.primitives import serialization
        key = serialization.load_pem_private_key(open(sys.argv[1], "rb").read(), password=None).public_key()
        token = sys.argv[2]
        claims = jwt.decode(token, key, algorithms=["ES256"], audience="appstoreconnect-v1", issuer=sys.argv[3],
                            options={"require": ["iss", "iat", "exp", "aud"]})
        print(json.dumps({"header": jwt.get_unverified_header(token), "claims": claims}))
        """

    @Test(.enabled(if: pythonWithPyJWT != nil || isRequired, "skipped: PyJWT is not installed (apt install python3-jwt)"))
    func pyJWTVerifiesTheTokenTheCLIPrints() async throws {
        let python = try #require(Self.pythonWithPyJWT, "PyJWT is required here (LEDGER_REQUIRE_PYJWT=1): apt install python3-jwt")
        let scratch = try ScratchDirectory()
        let key = try AppStoreAPITestKey()
        let keyFile = try scratch.write(key.privateKeyPEM, to: "SubscriptionKey.p8")
        let issuer = AppStoreServerAPICommandTests.issuerID
        let run = await ledger([
            "appstore", "token", "--key", keyFile, "--key-id", AppStoreServerAPICommandTests.keyID, "--issuer-id", issuer,
            "--bundle-id", AppStoreCommandTests.bundleID,
        ])
        #expect(run.code == 0, "\(run.error)")
        let token = run.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let decoded = try await Self.decode(python: python, keyFile: keyFile, token: token, issuer: issuer)
        let header = try #require(decoded["header"] as? [String: Any])
        let claims = try #require(decoded["claims"] as? [String: Any])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == AppStoreServerAPICommandTests.keyID)
        #expect(header["typ"] as? String == "JWT")
        #expect(claims["bid"] as? String == AppStoreCommandTests.bundleID)
        let issuedAt = try #require(claims["iat"] as? Int)
        let expiresAt = try #require(claims["exp"] as? Int)
        #expect(expiresAt > issuedAt && expiresAt - issuedAt <= 3_600)

        // A token signed by another key does not verify.
        let other = try AppStoreAPITestKey()
        let otherFile = try scratch.write(other.privateKeyPEM, to: "Other.p8")
        await #expect(throws: (any Error).self) {
            try await Self.decode(python: python, keyFile: otherFile, token: token, issuer: issuer)
        }
    }

    /// PyJWT's verdict on `token`, run on its own thread; throws when PyJWT refuses it.
    static func decode(python: String, keyFile: String, token: String, issuer: String) async throws -> [String: Any] {
        let output = try await onOwnThread { () throws -> Data in
            guard let run = ProcessLaunchGuard.spawn(python, ["-c", script, keyFile, token, issuer]), run.status == 0 else {
                throw PyJWTRefusal()
            }
            return run.output
        }
        return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
    }

    struct PyJWTRefusal: Error {}
}
