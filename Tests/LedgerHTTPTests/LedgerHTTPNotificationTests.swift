import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import LedgerHTTP
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// The store routes of the status table: App Store Server Notifications and Play pushes are
/// 2xx only once their effect is durable or they can never be applied, and 5xx whenever a
/// redelivery can succeed.
struct LedgerHTTPNotificationTests {
    /// A granted App Store purchase and the signed REFUND of it.
    static func refundedAppStorePurchase(_ fixture: LedgerHTTPFixture) async throws -> (jws: String, body: [String: Any]) {
        let signed = try fixture.appStore.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p1"))
        let granted = try await fixture.send(
            "POST", "/purchases", json: ["store": "appStore", "playerID": "p1", "signedTransaction": signed.jws])
        try #require(granted.status == 200)
        _ = try fixture.appStore.revoke(transactionID: signed.transactionID)
        let refund = try fixture.appStore.notification(type: .refund, transactionID: signed.transactionID)
        return (refund, ["signedPayload": refund])
    }

    @Test("an App Store REFUND is 200 once applied, its redelivery 200 alreadyProcessed, and it takes back once")
    func appStoreRefund() async throws {
        let fixture = try LedgerHTTPFixture()
        let (_, body) = try await Self.refundedAppStorePurchase(fixture)
        let applied = try await fixture.send("POST", "/appstore/notifications", json: body)
        #expect(applied.status == 200 && applied.outcomeName == "revocation", "\(String(decoding: applied.body, as: UTF8.self))")
        let again = try await fixture.send("POST", "/appstore/notifications", json: body)
        #expect(again.status == 200 && again.outcomeName == "alreadyProcessed")
        #expect(try await fixture.ledger.player("p1").balances.isEmpty)
    }

    @Test("an App Store RESCIND_CONSENT is 200 consentRescinded, and the account's next purchase is refused")
    func appStoreRescindConsent() async throws {
        let fixture = try LedgerHTTPFixture()
        let notice = try fixture.appStore.rescindConsentNotification(appTransactionID: "705001")
        let recorded = try await fixture.send("POST", "/appstore/notifications", json: ["signedPayload": notice])
        #expect(recorded.status == 200 && recorded.outcomeName == "consentRescinded", "\(String(decoding: recorded.body, as: UTF8.self))")
        var payload = try fixture.appStore.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p1")
        ).payload
        payload.appTransactionID = "705001"
        let refused = try await fixture.send(
            "POST", "/purchases",
            json: ["store": "appStore", "playerID": "p1", "signedTransaction": try fixture.appStore.sign(payload)])
        #expect(String(decoding: refused.body, as: UTF8.self).contains(#""consentRescinded""#), "\(refused.status)")
        #expect(try await fixture.ledger.player("p1").balances.isEmpty)
    }

    @Test("a registered player's ONE_TIME_CHARGE is 200 oneTimeCharge and granted once; an unbound one is journaled")
    func appStoreOneTimeCharge() async throws {
        let fixture = try LedgerHTTPFixture()
        let bound = try await fixture.send("POST", "/players/p4/account-token", json: ["store": "appStore"])
        #expect(bound.status == 200, "\(String(decoding: bound.body, as: UTF8.self))")
        let binding = try #require(try JSONSerialization.jsonObject(with: bound.body) as? [String: Any])
        #expect(binding["token"] as? String == AppAccountToken.forPlayer("p4") && binding["source"] as? String == "registration")
        let again = try await fixture.send("POST", "/players/p4/account-token", json: ["store": "appStore"])
        #expect(again.status == 200 && again.body == bound.body, "a repeat answers the recorded binding")
        let malformed = try await fixture.send("POST", "/players/p4/account-token", json: ["store": "appStore", "extra": 1])
        #expect(malformed.status == 400)

        let signed = try fixture.appStore.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p4"))
        let notice = try fixture.appStore.notification(type: .oneTimeCharge, transactionID: signed.transactionID)
        let granted = try await fixture.send("POST", "/appstore/notifications", json: ["signedPayload": notice])
        #expect(granted.status == 200 && granted.outcomeName == "oneTimeCharge", "\(String(decoding: granted.body, as: UTF8.self))")
        #expect(try await fixture.ledger.player("p4").balances == ["gems": 100])
        let client = try await fixture.send(
            "POST", "/purchases", json: ["store": "appStore", "playerID": "p4", "signedTransaction": signed.jws])
        #expect(String(decoding: client.body, as: UTF8.self).contains(#""alreadyFulfilled""#), "\(client.status)")

        let unbound = try fixture.appStore.purchase(productID: "com.kibblestreet.td.gems.small")
        let unboundNotice = try fixture.appStore.notification(type: .oneTimeCharge, transactionID: unbound.transactionID)
        let journaled = try await fixture.send("POST", "/appstore/notifications", json: ["signedPayload": unboundNotice])
        #expect(journaled.status == 200 && String(decoding: journaled.body, as: UTF8.self).contains(#""unassigned":true"#))
        let lookup = try await fixture.send("GET", "/lookup/\(unbound.transactionID)")
        #expect(String(decoding: lookup.body, as: UTF8.self).contains(#""accountUnassigned""#))
    }

    @Test("a notification whose signature fails is 200 rejected (a resend cannot verify) and changes nothing")
    func appStoreForgery() async throws {
        let fixture = try LedgerHTTPFixture()
        let (jws, _) = try await Self.refundedAppStorePurchase(fixture)
        var segments = jws.split(separator: ".").map(String.init)
        segments[2] = String(segments[2].reversed())
        let forged = try await fixture.send(
            "POST", "/appstore/notifications", json: ["signedPayload": segments.joined(separator: ".")])
        #expect(forged.status == 200 && forged.outcomeName == "rejected")
        #expect(try await fixture.ledger.player("p1").balances == ["gems": 100])
    }

    @Test("a body that is not {signedPayload} is 400, so it is never acknowledged as applied")
    func appStoreInvalidBody() async throws {
        let fixture = try LedgerHTTPFixture()
        for body in [Data("{}".utf8), Data("signedPayload=x".utf8), Data(#"{"signedPayload": 7}"#.utf8)] {
            let response = try await fixture.send("POST", "/appstore/notifications", body: body)
            #expect(response.status == 400 && response.errorCode == "input.invalid")
        }
    }

    @Test("a storage fault while applying a notification is 503 and leaves it unprocessed, so the resend applies it")
    func appStoreStorageFault() async throws {
        let fixture = try LedgerHTTPFixture()
        let (_, body) = try await Self.refundedAppStorePurchase(fixture)
        fixture.store.failNextWrites()
        let failed = try await fixture.send("POST", "/appstore/notifications", json: body)
        #expect(failed.status == 503 && failed.header("Retry-After") == "1", "\(String(decoding: failed.body, as: UTF8.self))")
        #expect(try await fixture.ledger.player("p1").balances == ["gems": 100])
        let resent = try await fixture.send("POST", "/appstore/notifications", json: body)
        #expect(resent.status == 200 && resent.outcomeName == "revocation")
        #expect(try await fixture.ledger.player("p1").balances.isEmpty)
    }

    @Test("a verification that may pass on a retry is 503; every other App Store outcome is 200")
    func appStoreStatusRows() {
        let retryable = AppStoreVerificationError(.retryableVerificationFailure, "the chain could not be checked now")
        #expect(LedgerHTTPStatus.appStoreNotification(.rejected(retryable)) == 503)
        for status in AppStoreVerificationError.Status.allCases where status != .retryableVerificationFailure {
            #expect(LedgerHTTPStatus.appStoreNotification(.rejected(AppStoreVerificationError(status, "x"))) == 200)
        }
    }

    @Test("a Play push is 204 once applied, 401 without a token and 403 with a forged one, and grants once")
    func playPush() async throws {
        let fixture = try LedgerHTTPFixture()
        let token = fixture.play.purchase(productID: "gems_small", quantity: 1, accountID: AppAccountToken.forPlayer("p1"))
        let body = fixture.play.rtdnBody(for: token, type: 1, messageID: "m-1")
        let missing = try await fixture.send("POST", "/playstore/notifications", body: body)
        #expect(missing.status == 401 && missing.outcomeName == "unauthenticated")
        var expired = PubSubPushSigner.Token()
        expired.lifetimeSeconds = -60
        let forged = try await fixture.send(
            "POST", "/playstore/notifications", body: body,
            headers: [("Authorization", "Bearer " + (try fixture.signer.token(expired)))])
        #expect(forged.status == 403)
        #expect(try await fixture.ledger.player(AppAccountToken.forPlayer("p1")).balances.isEmpty)
        let genuine = [("Authorization", "Bearer " + (try fixture.signer.token()))]
        let applied = try await fixture.send("POST", "/playstore/notifications", body: body, headers: genuine)
        #expect(applied.status == 204 && applied.outcomeName == "fulfillment", "\(String(decoding: applied.body, as: UTF8.self))")
        let again = try await fixture.send("POST", "/playstore/notifications", body: body, headers: genuine)
        #expect(again.status == 204 && again.outcomeName == "alreadyProcessed")
    }

    @Test("a Play API outage while applying a push is 503, so Pub/Sub redelivers it")
    func playOutage() async throws {
        let fixture = try LedgerHTTPFixture()
        let token = fixture.play.purchase(productID: "gems_small", quantity: 1, accountID: AppAccountToken.forPlayer("p1"))
        fixture.play.fail(.get, with: .retryable("503 from Google"))
        let body = fixture.play.rtdnBody(for: token, type: 1, messageID: "m-1")
        let genuine = [("Authorization", "Bearer " + (try fixture.signer.token()))]
        let failed = try await fixture.send("POST", "/playstore/notifications", body: body, headers: genuine)
        #expect(failed.status == 503, "\(String(decoding: failed.body, as: UTF8.self))")
        let redelivered = try await fixture.send("POST", "/playstore/notifications", body: body, headers: genuine)
        #expect(redelivered.status == 204 && redelivered.outcomeName == "fulfillment")
    }

    @Test("a Play chargeback review is answered once: 503 while Google is down, then 204")
    func playRefundReview() async throws {
        let fixture = try LedgerHTTPFixture()
        let (body, token) = fixture.play.requestRefundReview(orderID: "GPA.7", messageID: "r-1")
        let genuine = [("Authorization", "Bearer " + (try fixture.signer.token()))]
        fixture.play.fail(.reviewRefund, with: .retryable("503 from Google"))
        let failed = try await fixture.send("POST", "/playstore/notifications", body: body, headers: genuine)
        #expect(failed.status == 503, "\(String(decoding: failed.body, as: UTF8.self))")
        let answered = try await fixture.send("POST", "/playstore/notifications", body: body, headers: genuine)
        #expect(answered.status == 204 && answered.outcomeName == "refundReview")
        #expect(fixture.play.refundReviewAnswer(orderID: "GPA.7")?.pendingRefundToken == token)
        let again = try await fixture.send("POST", "/playstore/notifications", body: body, headers: genuine)
        #expect(again.status == 204 && again.outcomeName == "alreadyProcessed")
        #expect(fixture.play.refundReviewAnswerCount(orderID: "GPA.7") == 1)
    }

    /// One row per `LedgerError` case: never 2xx, and 5xx exactly when a retry can succeed or
    /// an operator must act.
    static let errorRows: [(LedgerError, Int)] = [
        (.notALedger(location: "l", detail: "d"), 500), (.foreignDatabase(location: "l", applicationID: 1), 500),
        (.newerSchema(location: "l", found: 9, supported: 6), 500), (.integrityCheckFailed(location: "l", detail: "d"), 500),
        (.ledgerMissing(location: "l"), 500), (.ledgerInUse(location: "l"), 503),
        (.storage(StorageFailure(engine: "sqlite", code: "5", message: "busy", sql: nil, kind: .busy)), 503),
        (.catalogInvalid([]), 500), (.catalogUnreadable(path: "p", detail: "d"), 500), (.configuration("c"), 500),
        (.invalidArgument("a"), 400), (.verifierUnavailable("v"), 503), (.finishFailed("f"), 503),
        (.transactionSourceUnavailable("s"), 503), (.injectedFault(.beforeCommit), 503),
        (.amountOverflow(playerID: "p", assetID: "gems"), 422),
    ]

    @Test("each thrown ledger error maps to its row of the table", arguments: errorRows)
    func errorRow(error: LedgerError, status: Int) {
        #expect(LedgerHTTPStatus.error(error) == status)
    }

    /// Every rejection reason: 202 only for pending, 409 for the conflicts, else 422.
    @Test("each rejection reason of a purchase maps to its row of the table", arguments: RejectionReason.allCases)
    func rejectionRow(reason: RejectionReason) {
        let expected =
            switch reason {
            case .pending: 202
            case .conflictProduct, .ownedByAnotherPlayer, .conflictQuantity, .conflictEvent: 409
            default: 422
            }
        #expect(LedgerHTTPStatus.purchase(.rejected(Rejection(reason, "m"))) == expected)
    }
}
