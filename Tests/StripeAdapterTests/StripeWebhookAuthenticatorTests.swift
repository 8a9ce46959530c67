import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import StripeAdapter
import Testing

/// `StripeWebhookAuthenticator`: Stripe's `Stripe-Signature` scheme (HMAC-SHA256 of `"t.body"`
/// under the endpoint secret, `v1`, a five-minute tolerance, several secrets while one is
/// rolled), cross-checked with the `openssl` tool, and every malformed header refused with its
/// reason.
@Suite struct StripeWebhookAuthenticatorTests {
    static let secret = "whsec_test_5bd7ff9b0f0a4c7e"
    static let body = Array(#"{"id":"evt_1","object":"event","type":"checkout.session.completed"}"#.utf8)
    static let signedAt: Int64 = 1_796_000_000

    static func authenticator(_ secrets: [String] = [secret], toleranceSeconds: Int64 = 300, at seconds: Int64 = signedAt)
        throws -> StripeWebhookAuthenticator
    {
        let clock = ManualClock(start: Date(timeIntervalSince1970: TimeInterval(seconds)))
        return try #require(StripeWebhookAuthenticator(secrets: secrets, toleranceSeconds: toleranceSeconds, clock: clock))
    }

    static func header(_ secret: String = secret, at seconds: Int64 = signedAt, body: [UInt8] = body) -> String {
        StripeWebhookAuthenticator.signatureHeader(body: body, secret: secret, timestampSeconds: seconds)
    }

    @Test func theSignatureIsStripesHMACAsTheOpenSSLToolComputesIt() throws {
        let scratch = try ScratchDirectory()
        let payload = "\(Self.signedAt)." + String(decoding: Self.body, as: UTF8.self)
        let file = try scratch.write(payload, to: "payload")
        let run = try #require(ProcessLaunchGuard.spawn("/usr/bin/env", ["openssl", "dgst", "-sha256", "-hmac", Self.secret, file]))
        let printed = String(decoding: run.output, as: UTF8.self)
        let digest = try #require(printed.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Self.header() == "t=\(Self.signedAt),v1=\(digest)")
        #expect(try Self.authenticator().authenticate(signatureHeader: Self.header(), body: Self.body) == .success(()))
    }

    @Test func aRolledSecretAndExtraSchemesAuthenticateAndAnythingElseIsRefused() throws {
        let old = "whsec_old_00000000"
        let both = try Self.authenticator([Self.secret, old])
        // Stripe signs with both while the secret rolls; either alone passes too.
        let newSignature = Self.header().split(separator: "=").last.map(String.init) ?? ""
        let oldHeader = Self.header(old)
        #expect(both.authenticate(signatureHeader: oldHeader, body: Self.body) == .success(()))
        #expect(both.authenticate(signatureHeader: oldHeader + ",v1=\(newSignature),v0=abc", body: Self.body) == .success(()))
        #expect(try Self.authenticator().authenticate(signatureHeader: oldHeader, body: Self.body) == .failure(.signatureMismatch))
        // A changed body, a changed time, and an upper-case copy of the right digest.
        let one = try Self.authenticator()
        #expect(one.authenticate(signatureHeader: Self.header(), body: Self.body + [0x20]) == .failure(.signatureMismatch))
        let moved = Self.header().replacingOccurrences(of: "t=\(Self.signedAt)", with: "t=\(Self.signedAt + 1)")
        #expect(one.authenticate(signatureHeader: moved, body: Self.body) == .failure(.signatureMismatch))
        #expect(one.authenticate(signatureHeader: Self.header().uppercased().replacingOccurrences(of: "T=", with: "t=").replacingOccurrences(of: "V1=", with: "v1="), body: Self.body) == .success(()))
    }

    @Test func theToleranceIsFiveMinutesEitherWay() throws {
        for (offset, passes) in [(-300, true), (300, true), (-301, false), (301, false), (0, true)] {
            let authenticator = try Self.authenticator(at: Self.signedAt + Int64(offset))
            let result = authenticator.authenticate(signatureHeader: Self.header(), body: Self.body)
            if passes {
                #expect(result == .success(()), "\(offset)")
            } else {
                #expect(result == .failure(.timestampOutOfTolerance(skewSeconds: Int64(offset))), "\(offset)")
            }
        }
        // A timestamp near the limits of Int64 is out of tolerance, not an overflow.
        let authenticator = try Self.authenticator()
        #expect(authenticator.authenticate(signatureHeader: Self.header(at: 999_999_999_999), body: Self.body).failureCode == 10004)
    }

    @Test func malformedHeadersAreRefusedWithTheirReason() throws {
        let authenticator = try Self.authenticator()
        let digest = String(repeating: "a", count: 64)
        let cases: [(String?, Int)] = [
            (nil, 10001), ("", 10002), ("t=\(Self.signedAt)", 10003), ("t=\(Self.signedAt),v0=\(digest)", 10003),
            ("v1=\(digest)", 10002), ("t=abc,v1=\(digest)", 10002), ("t=-5,v1=\(digest)", 10002),
            ("t=1,t=2,v1=\(digest)", 10002), ("t=\(Self.signedAt),v1=xyz", 10002), ("t=\(Self.signedAt),v1", 10002),
            ("t=\(Self.signedAt),v1=\(String(repeating: "g", count: 64))", 10002),
            ("t=\(Self.signedAt)," + Array(repeating: "v1=\(digest)", count: 40).joined(separator: ","), 10002),
            (String(repeating: "x", count: 9_000), 10002), ("t=99999999999999999999,v1=\(digest)", 10002),
        ]
        for (header, code) in cases {
            #expect(authenticator.authenticate(signatureHeader: header, body: Self.body).failureCode == code, "\(header ?? "nil")")
        }
        let huge = [UInt8](repeating: 0x20, count: StripeWebhookAuthenticator.bodyByteCountMax + 1)
        #expect(authenticator.authenticate(signatureHeader: Self.header(body: huge), body: huge).failureCode == 10006)
    }

    @Test func anAuthenticatorNeedsASecretAndASaneTolerance() {
        #expect(StripeWebhookAuthenticator(secrets: []) == nil)
        #expect(StripeWebhookAuthenticator(secrets: [""]) == nil)
        #expect(StripeWebhookAuthenticator(secrets: Array(repeating: "s", count: 5)) == nil)
        #expect(StripeWebhookAuthenticator(secrets: ["s"], toleranceSeconds: 0) == nil)
        #expect(StripeWebhookAuthenticator(secrets: ["s"], toleranceSeconds: 3_601) == nil)
        #expect(StripeWebhookAuthenticator(secrets: ["s"], toleranceSeconds: 3_600) != nil)
    }
}

extension Result where Success == Void, Failure == StripeWebhookRefusal {
    /// The refusal's code, nil on success.
    var failureCode: Int? {
        if case .failure(let refusal) = self { return refusal.code }
        return nil
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.success, .success): true
        case (.failure(let left), .failure(let right)): left == right
        default: false
        }
    }
}
