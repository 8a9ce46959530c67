import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// The client's subscription calls against a `URLProtocol` stub: their paths, methods and bodies.
@Suite struct PlaySubscriptionClientTests {
    static let subscriptionJSON = """
        {"kind":"androidpublisher#subscriptionPurchaseV2","regionCode":"US","startTime":"2026-11-02T10:00:00Z",
         "subscriptionState":"SUBSCRIPTION_STATE_IN_GRACE_PERIOD","linkedPurchaseToken":"old-token",
         "acknowledgementState":"ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED","testPurchase":{},
         "externalAccountIdentifiers":{"obfuscatedExternalAccountId":"acct-1"},
         "lineItems":[{"productId":"vip_monthly","expiryTime":"2026-12-02T10:00:00.045123456Z",
           "latestSuccessfulOrderId":"GPA.3301-1234-5678-90123..2","autoRenewingPlan":{"autoRenewEnabled":true},
           "offerDetails":{"basePlanId":"monthly"}}],
         "futureField":{"ignored":true}}
        """

    @Test func getDecodesGooglesShapeAndAcknowledgePostsToTheSubscriptionsResource() async throws {
        let fixture = try PlayClientFixture { request, _ in
            request.method == "GET" ? .json(200, Self.subscriptionJSON) : .json(200, "")
        }
        let purchase = try await fixture.client.subscriptionPurchase(packageName: "com.game", token: "tok/1")
        #expect(purchase.state == .inGracePeriod && purchase.linkedPurchaseToken == "old-token")
        #expect(purchase.testPurchase != nil && purchase.externalAccountIdentifiers?.obfuscatedExternalAccountId == "acct-1")
        let item = try #require(purchase.lineItem(for: "vip_monthly"))
        #expect(item.latestSuccessfulOrderId == "GPA.3301-1234-5678-90123..2")
        #expect(try item.checkedExpiryDate()?.ledgerMilliseconds == 1_796_205_600_045)
        #expect(item.autoRenewingPlan?.autoRenewEnabled == true)
        try await fixture.client.acknowledgeSubscription(packageName: "com.game", storeProductID: "vip_monthly", token: "tok/1")
        let requests = fixture.server.apiRequests
        #expect(requests.map(\.method) == ["GET", "POST"])
        #expect(requests[0].target == "/androidpublisher/v3/applications/com.game/purchases/subscriptionsv2/tokens/tok%2F1")
        #expect(
            requests[1].target
                == "/androidpublisher/v3/applications/com.game/purchases/subscriptions/vip_monthly/tokens/tok%2F1:acknowledge")
        #expect(String(decoding: requests[1].body, as: UTF8.self) == "{}")
    }

    @Test func anOutOfAppResubscriptionDecodesAndItsAcknowledgementCarriesTheAccountIDs() async throws {
        let json = """
            {"subscriptionState":"SUBSCRIPTION_STATE_ACTIVE","acknowledgementState":"ACKNOWLEDGEMENT_STATE_PENDING",
             "outOfAppPurchaseContext":{"expiredPurchaseToken":"expired-1",
               "expiredExternalAccountIdentifiers":{"obfuscatedExternalAccountId":"acct-1","externalAccountId":"linked-9"}},
             "lineItems":[{"productId":"vip_monthly","expiryTime":"2026-12-02T10:00:00Z","latestSuccessfulOrderId":"GPA.1"}]}
            """
        let fixture = try PlayClientFixture { request, _ in
            request.method == "GET" ? .json(200, json) : .json(200, "")
        }
        let purchase = try await fixture.client.subscriptionPurchase(packageName: "com.game", token: "new-1")
        #expect(purchase.isUnattributedOutOfAppPurchase && purchase.boundAccountID == "acct-1")
        #expect(purchase.outOfAppPurchaseContext?.expiredPurchaseToken == "expired-1")
        #expect(purchase.outOfAppPurchaseContext?.expiredExternalAccountIdentifiers?.externalAccountId == "linked-9")
        try await fixture.client.acknowledgeSubscription(
            packageName: "com.game", storeProductID: "vip_monthly", token: "new-1",
            externalAccountIDs: PlayExternalAccountIDs(obfuscatedAccountId: "acct-1", obfuscatedProfileId: "profile-2"))
        let body = try #require(fixture.server.apiRequests.last).body
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"externalAccountIds":{"obfuscatedAccountId":"acct-1","obfuscatedProfileId":"profile-2"}}"#)
        // IDs Google would refuse (empty, over 64 characters) are an error before any request.
        for refused in ["", String(repeating: "x", count: PlayExternalAccountIDs.characterCountMax + 1)] {
            await #expect(throws: PlayAPIError.self) {
                try await fixture.client.acknowledgeSubscription(
                    packageName: "com.game", storeProductID: "vip_monthly", token: "new-1",
                    externalAccountIDs: PlayExternalAccountIDs(obfuscatedAccountId: refused))
            }
        }
        #expect(fixture.server.apiRequests.count == 2)
    }

    @Test func theVoidedListAsksForSubscriptionsWithTypeOne() async throws {
        let fixture = try PlayClientFixture { _, _ in .json(200, "{}") }
        _ = try await fixture.client.voidedPurchases(
            packageName: "com.game", startTime: fixture.clock.now().addingTimeInterval(-3_600), endTime: nil, pageToken: nil,
            maxResults: 10, includeQuantityBasedPartialRefund: true, includeSubscriptions: true)
        #expect(try #require(fixture.server.apiRequests.first).queryItems["type"] == "1")
    }

    @Test func anUndecodableAnswerIsPermanent() async throws {
        let fixture = try PlayClientFixture { _, _ in .json(200, #"{"lineItems": 7}"#) }
        await #expect(throws: PlayAPIError.self) {
            try await fixture.client.subscriptionPurchase(packageName: "com.game", token: "t")
        }
    }
}
