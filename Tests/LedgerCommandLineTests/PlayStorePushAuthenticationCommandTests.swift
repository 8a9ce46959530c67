import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// `ledger playstore rtdn` refuses every push that does not carry Pub/Sub's OIDC token, and
/// applies a void only once Google confirms it.
@Suite struct PlayStorePushAuthenticationCommandTests {
    typealias Fixture = PlayCommandFixture

    /// A fixture where p1 holds 200 gems bought as `tok-1`.
    static func bought() async throws -> (Fixture, purchases: String) {
        let fixture = try await Fixture()
        let purchases = try fixture.purchasesFile(["tok-1": Fixture.gems(quantity: 2)])
        let granted = try await fixture.rtdn(
            Fixture.purchasedBody(messageID: "m-buy", token: "tok-1", sku: "gems_small"), purchases: purchases)
        try #require(granted.code == 0, "\(granted.output)\(granted.error)")
        return (fixture, purchases)
    }

    @Test func aForgedVoidChangesNothingAndLeavesItsMessageIDFree() async throws {
        let (fixture, _) = try await Self.bought()
        // The file lists the void, so only authentication stands between the push and a refund.
        let listed = try fixture.purchasesFile(
            ["tok-1": Fixture.gems(quantity: 2, refundable: 0)], voided: [Fixture.voided("tok-1", at: Fixture.hourAgoMilliseconds)])
        let body = try Fixture.voidBody(messageID: "m-void", token: "tok-1", refundType: 1)
        var audience = PubSubPushSigner.Token()
        audience.audience = "https://attacker.example"
        var email = PubSubPushSigner.Token()
        email.email = "someone@attacker.example"
        var expired = PubSubPushSigner.Token()
        expired.issuedAt = Date().addingTimeInterval(-2 * 3_600)
        let otherKey = try PubSubPushSigner(clock: SystemClock())
        let forgeries: [(String?, Int, Int)] = [
            ("", 8001, 401), ("Basic dXNlcjpwYXNz", 8001, 401), ("Bearer not.a.jwt", 8002, 403),
            ("Bearer " + (try fixture.signer.token(audience)), 8005, 403),
            ("Bearer " + (try fixture.signer.token(email)), 8006, 403),
            ("Bearer " + (try fixture.signer.token(expired)), 8010, 403),
            ("Bearer " + (try otherKey.token()), 8012, 403),
        ]
        for (authorization, code, status) in forgeries {
            let refused = try await fixture.rtdn(body, purchases: listed, authorization: authorization)
            #expect(refused.code == 77, "\(code): \(refused.output)\(refused.error)")
            let json = try refused.json()
            #expect(json["outcome"] as? String == "unauthenticated", "\(json)")
            #expect((json["error"] as? [String: Any])?["code"] as? Int == code, "\(json)")
            #expect(json["httpStatus"] as? Int == status)
            #expect(try await balances("p1", db: fixture.db) == ["gems": 200])
        }
        // The genuine push with the same message ID is processed, not "already processed".
        let applied = try await fixture.rtdn(body, purchases: listed)
        #expect(try applied.revocationRecord()["disposition"] as? String == "applied", "\(applied.output)")
        #expect(try await balances("p1", db: fixture.db).isEmpty)
        #expect(try await fixture.rtdn(body, purchases: listed).json()["outcome"] as? String == "alreadyProcessed")
    }

    @Test func anAuthenticatedVoidGoogleHasNotVoidedIsUnconfirmedThenTheSyncAppliesItOnce() async throws {
        let (fixture, purchases) = try await Self.bought()
        let body = try Fixture.voidBody(messageID: "m-void", token: "tok-1", refundType: 1)
        let unconfirmed = try await fixture.rtdn(body, purchases: purchases)
        #expect(unconfirmed.code == 0, "\(unconfirmed.output)\(unconfirmed.error)")
        #expect(try unconfirmed.json()["outcome"] as? String == "unconfirmed")
        #expect(try await balances("p1", db: fixture.db) == ["gems": 200])
        #expect(try await fixture.voidedSync(purchases: purchases).json()["recorded"] as? Int == 0)
        #expect(try await balances("p1", db: fixture.db) == ["gems": 200])

        let listed = try fixture.purchasesFile(
            ["tok-1": Fixture.gems(quantity: 2, refundable: 0)], voided: [Fixture.voided("tok-1", at: Fixture.hourAgoMilliseconds)])
        #expect(try await fixture.voidedSync(purchases: listed).json()["recorded"] as? Int == 1)
        #expect(try await balances("p1", db: fixture.db).isEmpty)
        let later = try Fixture.voidBody(messageID: "m-void-2", token: "tok-1", refundType: 1)
        let again = try await fixture.rtdn(later, purchases: listed).json()
        #expect(again["outcome"] as? String == "revocation", "\(again)")
        #expect((again["revocation"] as? [String: Any])?["outcome"] as? String == "alreadyRecorded", "\(again)")
        #expect(try await fixture.voidedSync(purchases: listed).json()["alreadyRecorded"] as? Int == 1)
        #expect(try await balances("p1", db: fixture.db).isEmpty)
    }

    @Test func theTokenMayComeFromTheEnvironmentAndTheOptionsAreRequired() async throws {
        let fixture = try await Fixture()
        let purchases = try fixture.purchasesFile(["tok-1": Fixture.gems(quantity: 1)])
        let test = try Fixture.pushBody(messageID: "m-test", ["testNotification": ["version": "1.0"]])
        let arguments = ["playstore", "rtdn"] + fixture.common(purchases) + fixture.pushOptions
        let fromEnvironment = await ledger(
            arguments, input: test, environment: ["LEDGER_PUSH_AUTHORIZATION": "Bearer " + (try fixture.signer.token())])
        #expect(fromEnvironment.code == 0, "\(fromEnvironment.output)\(fromEnvironment.error)")
        #expect(try fromEnvironment.json()["outcome"] as? String == "logged")
        #expect(await ledger(arguments, input: test).code == 77, "no token at all is refused")
        let missingAudience = arguments.filter { $0 != "--audience" && $0 != fixture.signer.authentication.audience }
        #expect(await ledger(missingAudience, input: test).code == 64)
        let badKeys = try fixture.scratch.write(#"{"keys":[]}"#, to: "empty-jwks.json")
        #expect(await ledger(arguments + ["--jwks", badKeys], input: test).code == 64)
    }
}
