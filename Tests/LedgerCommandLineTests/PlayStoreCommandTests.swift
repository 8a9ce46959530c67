import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// `ledger playstore verify`, `rtdn` and `voided-sync`, answered from a purchases file.
@Suite struct PlayStoreCommandTests {
    typealias Fixture = PlayCommandFixture

    @Test func verifyPrintsWhatTheLedgerWouldSee() async throws {
        let fixture = try await Fixture()
        let file = try fixture.purchasesFile(["tok-1": Fixture.gems(quantity: 2)])
        let found = await ledger([
            "playstore", "verify", "--token", "tok-1", "--product", "gems_small", "--package", Fixture.package,
            "--purchases", file,
        ])
        #expect(found.code == 0, "\(found.output)\(found.error)")
        let json = try found.json()
        #expect(json["state"] as? String == "purchased" && json["quantity"] as? Int == 2)
        #expect(json["accountBinding"] as? String == "p1")
        let unknown = await ledger([
            "playstore", "verify", "--token", "nope", "--product", "gems_small", "--package", Fixture.package,
            "--purchases", file,
        ])
        #expect(unknown.code == 65)
        #expect(await ledger(["playstore", "verify", "--token", "t", "--product", "p", "--package", "x"]).code == 64)
    }

    /// A purchases file is read by the strict parser: a misspelt section, a duplicate key, a
    /// trailing comma or a document that is not an object is refused with its place (never read
    /// as a file with no purchases); a field Google adds to a purchase is ignored, as in Google's
    /// answers.
    @Test func aPurchasesFileIsReadStrictlyButGooglesFieldsAreKept() async throws {
        let scratch = try ScratchDirectory()
        let refused: [(String, String)] = [
            (#"{"purchase": {}}"#, #"1:2: $.purchase: unknown field "purchase"; did you mean "purchases"?"#),
            (#"{"purchases": {}, "purchases": {}}"#, #"duplicate key "purchases""#),
            (#"{"purchases": {},}"#, "1:18"),
            ("[]", "expected an object"),
        ]
        for (text, expected) in refused {
            let file = try scratch.write(text, to: "purchases.json")
            let run = await ledger([
                "playstore", "verify", "--token", "tok-1", "--product", "gems_small", "--package", Fixture.package,
                "--purchases", file,
            ])
            #expect(run.code == 64 && run.error.contains("is not a purchases file") && run.error.contains(expected), "\(text): \(run.error)")
        }
        let google = try scratch.write(
            #"{"purchases": {"tok-1": {"purchaseState": 0, "consumptionState": 0, "acknowledgementState": 0, "quantity": 1, "#
                + #""obfuscatedExternalAccountId": "p1", "productId": "gems_small", "fieldGoogleAddsLater": true}}}"#,
            to: "google.json")
        let found = await ledger([
            "playstore", "verify", "--token", "tok-1", "--product", "gems_small", "--package", Fixture.package,
            "--purchases", google,
        ])
        #expect(found.code == 0, "\(found.output)\(found.error)")
    }

    @Test func rtdnPurchaseThenVoidAppliesOnceAndTheSyncAgrees() async throws {
        let fixture = try await Fixture()
        let purchases = try fixture.purchasesFile(["tok-1": Fixture.gems(quantity: 2)])
        let purchased = try Fixture.purchasedBody(messageID: "m-1", token: "tok-1", sku: "gems_small")
        let granted = try await fixture.rtdn(purchased, purchases: purchases)
        #expect(granted.code == 0, "\(granted.output)\(granted.error)")
        #expect(try granted.json()["outcome"] as? String == "fulfillment")
        #expect((try granted.json()["fulfillment"] as? [String: Any])?["outcome"] as? String == "granted")
        #expect(try await balances("p1", db: fixture.db) == ["gems": 200])
        let again = try await fixture.rtdn(purchased, purchases: purchases)
        #expect(try again.json()["outcome"] as? String == "alreadyProcessed")

        let voidedAt = Fixture.hourAgoMilliseconds
        let withVoid = try fixture.purchasesFile(
            ["tok-1": Fixture.gems(quantity: 2, refundable: 0)], voided: [Fixture.voided("tok-1", at: voidedAt)])
        let voidBody = try Fixture.voidBody(messageID: "m-2", token: "tok-1", refundType: 1)
        let refunded = try await fixture.rtdn(voidBody, purchases: withVoid)
        #expect(refunded.code == 0, "\(refunded.output)\(refunded.error)")
        let json = try refunded.json()
        #expect(try refunded.revocationRecord()["disposition"] as? String == "applied")
        #expect(Self.refundCheck(json) == "agrees 2")
        #expect(try await balances("p1", db: fixture.db).isEmpty)

        let sync = try await fixture.voidedSync(purchases: withVoid)
        #expect(sync.code == 0, "\(sync.output)\(sync.error)")
        let report = try sync.json()
        #expect(report["recorded"] as? Int == 0 && report["alreadyRecorded"] as? Int == 1, "\(report)")
        #expect(report["watermarkMilliseconds"] as? Int == Int(voidedAt))
        #expect(try await balances("p1", db: fixture.db).isEmpty, "the sync never refunds twice")
    }

    @Test func aQuantityThreePurchaseLosesOneUnitPerPartialRefundOnce() async throws {
        let fixture = try await Fixture()
        let first = Fixture.hourAgoMilliseconds - 600_000
        let second = Fixture.hourAgoMilliseconds
        let bought = try fixture.purchasesFile(["tok-3": Fixture.gems(quantity: 3)])
        let purchased = try Fixture.purchasedBody(messageID: "m-buy", token: "tok-3", sku: "gems_small")
        #expect(try await fixture.rtdn(purchased, purchases: bought).code == 0)
        #expect(try await balances("p1", db: fixture.db) == ["gems": 300])

        // Google lists the first 1-unit refund; the sync applies it.
        let one = try fixture.purchasesFile(
            ["tok-3": Fixture.gems(quantity: 3, refundable: 2)], voided: [Fixture.voided("tok-3", at: first, quantity: 1)])
        let sync = try await fixture.voidedSync(purchases: one)
        #expect(sync.code == 0, "\(sync.output)\(sync.error)")
        #expect(try sync.json()["recorded"] as? Int == 1)
        #expect(try sync.json()["refundChecks"] as? [String: String] == ["tok-3": "agrees (1 refunded)"])
        #expect(try await balances("p1", db: fixture.db) == ["gems": 200])

        // A second 1-unit refund, by RTDN refundType 2, confirmed by Google's list.
        let two = try fixture.purchasesFile(
            ["tok-3": Fixture.gems(quantity: 3, refundable: 1)],
            voided: [Fixture.voided("tok-3", at: first, quantity: 1), Fixture.voided("tok-3", at: second, quantity: 1)])
        let push = try Fixture.voidBody(messageID: "m-partial", token: "tok-3", refundType: 2, eventTimeMillis: second)
        let applied = try await fixture.rtdn(push, purchases: two)
        #expect(applied.code == 0, "\(applied.output)\(applied.error)")
        #expect(try applied.revocationRecord()["disposition"] as? String == "applied")
        #expect(Self.refundCheck(try applied.json()) == "agrees 2")
        #expect(try await balances("p1", db: fixture.db) == ["gems": 100])

        // Replays change nothing.
        #expect(try await fixture.rtdn(push, purchases: two).json()["outcome"] as? String == "alreadyProcessed")
        let replay = try await fixture.voidedSync(purchases: two)
        #expect(try replay.json()["recorded"] as? Int == 0 && replay.json()["alreadyRecorded"] as? Int == 2)
        #expect(try await balances("p1", db: fixture.db) == ["gems": 100])
    }

    @Test func anUnlistedPartialRefundIsUnconfirmedUntilTheSyncSeesIt() async throws {
        let fixture = try await Fixture()
        let bought = try fixture.purchasesFile(["tok-3": Fixture.gems(quantity: 3)])
        #expect(try await fixture.rtdn(Fixture.purchasedBody(messageID: "m-buy", token: "tok-3", sku: "gems_small"), purchases: bought).code == 0)
        let counted = try fixture.purchasesFile(["tok-3": Fixture.gems(quantity: 3, refundable: 2)])
        let push = try Fixture.voidBody(messageID: "m-partial", token: "tok-3", refundType: 2)
        let unconfirmed = try await fixture.rtdn(push, purchases: counted)
        #expect(unconfirmed.code == 0, "\(unconfirmed.output)\(unconfirmed.error)")
        #expect(try unconfirmed.json()["outcome"] as? String == "unconfirmed")
        #expect(try await balances("p1", db: fixture.db) == ["gems": 300])
        let listed = try fixture.purchasesFile(
            ["tok-3": Fixture.gems(quantity: 3, refundable: 2)],
            voided: [Fixture.voided("tok-3", at: Fixture.hourAgoMilliseconds, quantity: 1)])
        #expect(try await fixture.voidedSync(purchases: listed).json()["recorded"] as? Int == 1)
        #expect(try await balances("p1", db: fixture.db) == ["gems": 200])
        #expect(try await fixture.rtdn(push, purchases: listed).json()["outcome"] as? String == "alreadyProcessed")
    }

    @Test func aHugeEventTimeIsATypedRefusalAndRecordsNothing() async throws {
        let fixture = try await Fixture()
        let purchases = try fixture.purchasesFile(["tok-1": Fixture.gems(quantity: 1)])
        let eventTimes: [Any] = ["9223372036854775807", Int64.max, "-1", "12x", "7258118400000"]
        for eventTime in eventTimes {
            let body = try Fixture.pushBody(
                messageID: "m-time", eventTimeMillis: eventTime,
                ["voidedPurchaseNotification": ["purchaseToken": "tok-1", "productType": 2, "refundType": 1]])
            let refused = try await fixture.rtdn(body, purchases: purchases)
            #expect(refused.code == 3, "\(eventTime): \(refused.output)\(refused.error)")
            let json = try refused.json()
            #expect(json["outcome"] as? String == "rejected", "\(json)")
            #expect((json["error"] as? [String: Any])?["code"] as? Int == 8106, "\(json)")
        }
        let test = try Fixture.pushBody(messageID: "m-time", ["testNotification": ["version": "1.0"]])
        #expect(try await fixture.rtdn(test, purchases: purchases).json()["outcome"] as? String == "logged")
    }

    /// A notification's refund check as `state refundedQuantity`.
    static func refundCheck(_ json: [String: Any]) -> String? {
        guard let check = json["refundCheck"] as? [String: Any], let state = check["state"] as? String else { return nil }
        return "\(state) \(check["refundedQuantity"] as? Int ?? -1)"
    }
}

/// `ledger playstore rtdn` with subscription notifications, read back from the purchases file
/// as `subscriptionsv2.get` would answer.
@Suite struct PlayStoreSubscriptionCommandTests {
    static func subscription(state: String, order: String, expiry: String = "2099-01-01T00:00:00Z") -> [String: Any] {
        [
            "subscriptionState": state, "startTime": "2026-11-02T10:00:00Z",
            "acknowledgementState": "ACKNOWLEDGEMENT_STATE_PENDING",
            "externalAccountIdentifiers": ["obfuscatedExternalAccountId": "p1"],
            "lineItems": [["productId": "vip_monthly", "expiryTime": expiry, "latestSuccessfulOrderId": order]],
        ]
    }

    static func push(_ id: String, type: Int) throws -> String {
        try PlayCommandFixture.pushBody(
            messageID: id, ["subscriptionNotification": ["version": "1.0", "notificationType": type, "purchaseToken": "sub-1"]])
    }

    @Test func aPurchaseARenewalAndAHoldArePrintedAndGrantedOnce() async throws {
        let fixture = try await PlayCommandFixture()
        let bought = try fixture.purchasesFile(
            [:], subscriptions: ["sub-1": Self.subscription(state: "SUBSCRIPTION_STATE_ACTIVE", order: "GPA.1-1-1-1")])
        let first = try await fixture.rtdn(try Self.push("m-1", type: 4), purchases: bought)
        #expect(first.code == 0, "\(first.output)\(first.error)")
        let object = try first.json()
        #expect(object["outcome"] as? String == "subscription")
        #expect((object["period"] as? [String: Any])?["outcome"] as? String == "granted", "\(object)")
        #expect((object["subscription"] as? [String: Any])?["state"] as? String == "active")
        let renewed = try fixture.purchasesFile(
            [:], subscriptions: ["sub-1": Self.subscription(state: "SUBSCRIPTION_STATE_ACTIVE", order: "GPA.1-1-1-1..0")])
        #expect(try await fixture.rtdn(try Self.push("m-2", type: 2), purchases: renewed).code == 0)
        #expect(try await fixture.rtdn(try Self.push("m-3", type: 2), purchases: renewed).json()["period"] != nil)
        await #expect(try balances("p1", db: fixture.db)["gems"] == 600)
        let held = try fixture.purchasesFile(
            [:], subscriptions: ["sub-1": Self.subscription(state: "SUBSCRIPTION_STATE_ON_HOLD", order: "GPA.1-1-1-1..0")])
        let hold = try await fixture.rtdn(try Self.push("m-4", type: 5), purchases: held)
        #expect(((try hold.json())["subscription"] as? [String: Any])?["state"] as? String == "billingRetry", "\(hold.output)")
        let listed = await ledger(["subscriptions", "--db", fixture.db, "--player", "p1"])
        #expect(listed.code == 0 && listed.output.contains("billingRetry"), "\(listed.output)\(listed.error)")
    }
}
