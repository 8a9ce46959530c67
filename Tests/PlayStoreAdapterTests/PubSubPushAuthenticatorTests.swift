import COpenSSL
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// The OIDC token Pub/Sub sends with every push: each check refuses its own forgery.
@Suite struct PubSubPushAuthenticatorTests {
    static let clock = ManualClock()
    static let signer: PubSubPushSigner = {
        do { return try PubSubPushSigner(clock: clock, key: PlayClientTestKey.key) } catch {
            preconditionFailure("cannot build the push signer: \(error)")
        }
    }()

    /// The refusal reason of `authorization`, or nil when it authenticates.
    static func refusal(_ authorization: String?, signer: PubSubPushSigner = signer) async throws
        -> PubSubPushAuthenticationError.Reason?
    {
        switch try await signer.authenticator().authenticate(authorization: authorization) {
        case .success: return nil
        case .failure(let error): return error.reason
        }
    }

    static func bearer(_ change: (inout PubSubPushSigner.Token) -> Void = { _ in }) throws -> String {
        var token = PubSubPushSigner.Token()
        change(&token)
        return "Bearer " + (try signer.token(token))
    }

    @Test func aGenuineTokenAuthenticatesWithEitherGoogleIssuer() async throws {
        let claims = try await Self.signer.authenticator().authenticate(headers: ["authorization": try Self.bearer()]).get()
        #expect(claims.aud == PubSubPushSigner.defaultAudience && claims.email == PubSubPushSigner.defaultServiceAccountEmail)
        #expect(claims.emailVerified == true && claims.iss == "https://accounts.google.com")
        #expect(try await Self.refusal(try Self.bearer { $0.issuer = "accounts.google.com" }) == nil)
        #expect(try await Self.refusal(try Self.bearer().replacingOccurrences(of: "Bearer", with: "bearer")) == nil)
        var upper = PubSubPushSigner.Token()
        upper.email = PubSubPushSigner.defaultServiceAccountEmail.uppercased()
        #expect(try await Self.refusal("Bearer " + (try Self.signer.token(upper))) == nil, "emails compare ignoring case")
    }

    @Test func eachClaimCheckRefusesItsForgery() async throws {
        let now = Self.clock.now()
        let skew = PubSubPushAuthentication.defaultClockSkewSeconds
        let cases: [(PubSubPushAuthenticationError.Reason, String)] = [
            (.wrongIssuer, try Self.bearer { $0.issuer = "https://evil.example" }),
            (.wrongAudience, try Self.bearer { $0.audience = "https://game.example.com/other" }),
            (.wrongEmail, try Self.bearer { $0.email = "intruder@game-project.iam.gserviceaccount.com" }),
            (.emailNotVerified, try Self.bearer { $0.emailVerified = false }),
            (.invalidLifetime, try Self.bearer { $0.lifetimeSeconds = 2 * 3_600 }),
            (.invalidLifetime, try Self.bearer { $0.lifetimeSeconds = 0 }),
            (.notYetValid, try Self.bearer { $0.issuedAt = now.addingTimeInterval(skew + 60) }),
            (.expired, try Self.bearer { $0.issuedAt = now.addingTimeInterval(-3_600 - skew - 1) }),
            (.unsupportedAlgorithm, try Self.bearer { $0.algorithm = "HS256" }),
            (.unsupportedAlgorithm, try Self.bearer { $0.algorithm = "none" }),
            (.unknownKey, try Self.bearer { $0.keyID = "retired-key" }),
            (.unknownKey, try Self.bearer { $0.keyID = "" }),
        ]
        for (reason, authorization) in cases {
            #expect(try await Self.refusal(authorization) == reason, "\(reason)")
        }
        // Inside the skew on either side still authenticates.
        #expect(try await Self.refusal(try Self.bearer { $0.issuedAt = now.addingTimeInterval(skew - 1) }) == nil)
        #expect(try await Self.refusal(try Self.bearer { $0.issuedAt = now.addingTimeInterval(-3_600 - skew + 1) }) == nil)
    }

    @Test func malformedHeadersAndBadSignaturesAreRefused() async throws {
        let genuine = try Self.bearer()
        let segments = genuine.dropFirst("Bearer ".count).split(separator: ".").map(String.init)
        var claims = try #require(Base64URL.decode(segments[1]))
        claims[claims.count - 2] ^= 1
        let tampered = "Bearer " + [segments[0], Base64URL.encode(claims), segments[2]].joined(separator: ".")
        let otherKey = try PubSubPushSigner(clock: Self.clock)
        let cases: [(PubSubPushAuthenticationError.Reason, String?)] = [
            (.missingAuthorization, nil), (.missingAuthorization, ""), (.missingAuthorization, "Basic YTpi"),
            (.missingAuthorization, String(genuine.dropFirst("Bearer ".count))),
            (.missingAuthorization, "Bearer " + String(repeating: "a", count: PubSubPushAuthentication.authorizationByteCountMax)),
            (.malformedToken, "Bearer a.b"), (.malformedToken, genuine + ".extra"), (.malformedToken, "Bearer !!.??.**"),
            (.badSignature, "Bearer " + (try otherKey.token())),
            (.badSignature, "Bearer " + segments[0] + "." + segments[1] + "." + Base64URL.encode([UInt8](repeating: 7, count: 256))),
        ]
        for (reason, authorization) in cases {
            #expect(try await Self.refusal(authorization) == reason, "\(reason): \(authorization?.prefix(40) ?? "nil")")
        }
        // A flipped claim either breaks the JSON or the signature: never accepted.
        #expect(try await Self.refusal(tampered) != nil)
        let missing = try await Self.signer.authenticator().authenticate(headers: [:])
        #expect((try? missing.get()) == nil)
        if case .failure(let error) = missing { #expect(error.httpStatus == 401 && error.reason.code == 8001) }
        if case .failure(let error) = try await Self.signer.authenticator().authenticate(authorization: try Self.bearer { $0.audience = "x" }) {
            #expect(error.httpStatus == 403 && error.reason.code == 8005 && !error.description.contains(segments[2]))
        }
    }

    @Test func errorCodesAreStableAndDistinct() {
        let codes = PubSubPushAuthenticationError.Reason.allCases.map(\.code)
        #expect(codes == Array(8001...8012))
        #expect(PlayPushRejection.Reason.allCases.map(\.code) == Array(8101...8106))
    }
}
