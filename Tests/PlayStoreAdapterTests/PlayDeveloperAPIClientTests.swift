import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// The Play Developer API client against a `URLProtocol` stub behind a real `URLSession`.
@Suite struct PlayDeveloperAPIClientTests {
    @Test func tokenIsFetchedOnceAndSharedAcrossCalls() async throws {
        let fixture = try PlayClientFixture { _, _ in .json(200, stubPurchaseJSON) }
        for _ in 0..<3 {
            _ = try await fixture.client.productPurchase(packageName: "com.game", storeProductID: "gems", token: "t")
        }
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try await fixture.provider.accessToken() } }
            for try await token in group { #expect(token == "access-1") }
        }
        #expect(fixture.server.tokenRequests.count == 1)
        #expect(await fixture.provider.tokenRequestCount == 1)
        let tokenRequest = try #require(fixture.server.tokenRequests.first)
        #expect(tokenRequest.method == "POST")
        #expect(tokenRequest.header("Content-Type") == "application/x-www-form-urlencoded")
        let fields = formFields(tokenRequest.body)
        #expect(fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        let segments = try #require(fields["assertion"]).split(separator: ".")
        #expect(segments.count == 3)
        let claims = jwtSegmentObject(segments[1])
        #expect(claims["aud"] as? String == fixture.server.tokenURI.absoluteString)
        #expect(claims["iat"] as? Int == Int(fixture.clock.now().timeIntervalSince1970))
        #expect(fixture.server.apiRequests.allSatisfy { $0.header("Authorization") == "Bearer access-1" })
    }

    @Test func tokenIsRefreshedOnlyAfterExpiryLessTheSafetyMargin() async throws {
        let fixture = try PlayClientFixture { _, _ in .json(200, stubPurchaseJSON) }
        #expect(try await fixture.provider.accessToken() == "access-1")
        fixture.clock.advance(seconds: 3600 - AccessTokenProvider.expirySafetyMarginSeconds - 1)
        #expect(try await fixture.provider.accessToken() == "access-1")
        fixture.clock.advance(seconds: 1)
        _ = try await fixture.client.productPurchase(packageName: "com.game", storeProductID: "gems", token: "t")
        #expect(fixture.server.tokenRequests.count == 2)
        #expect(fixture.server.apiRequests.last?.header("Authorization") == "Bearer access-2")
    }

    @Test func productPurchaseSendsAnEncodedGetAndFillsTheToken() async throws {
        let fixture = try PlayClientFixture { _, _ in .json(200, stubPurchaseJSON) }
        let purchase = try await fixture.client.productPurchase(
            packageName: "com.example.game", storeProductID: "gems_100", token: "abc.DEF-1/2+3 x")
        let request = try #require(fixture.server.apiRequests.first)
        #expect(request.method == "GET")
        #expect(
            request.target
                == "/androidpublisher/v3/applications/com.example.game/purchases/products/gems_100/tokens/abc.DEF-1%2F2%2B3%20x")
        #expect(request.header("Authorization") == "Bearer access-1")
        #expect(request.header("Accept") == "application/json")
        #expect(purchase.purchaseToken == "abc.DEF-1/2+3 x" && purchase.productId == "gems_100")
        #expect(purchase.orderId == "GPA.3301-1234-5678-90123" && purchase.quantity == 2)
        #expect(purchase.purchaseDate == Date(ledgerMilliseconds: 1_767_571_200_123))
    }

    @Test func acknowledgeAndConsumePostToTheirActions() async throws {
        let fixture = try PlayClientFixture { _, _ in .json(200, "") }
        try await fixture.client.acknowledge(packageName: "com.game", storeProductID: "sword", token: "tok1")
        try await fixture.client.consume(packageName: "com.game", storeProductID: "gems", token: "tok2")
        let requests = fixture.server.apiRequests
        try #require(requests.count == 2)
        #expect(requests[0].method == "POST")
        #expect(requests[0].target == "/androidpublisher/v3/applications/com.game/purchases/products/sword/tokens/tok1:acknowledge")
        #expect(String(decoding: requests[0].body, as: UTF8.self) == "{}")
        #expect(requests[0].header("Content-Type") == "application/json")
        #expect(requests[1].method == "POST")
        #expect(requests[1].target == "/androidpublisher/v3/applications/com.game/purchases/products/gems/tokens/tok2:consume")
        #expect(requests[1].body.isEmpty)
        #expect(requests.allSatisfy { $0.header("Authorization") == "Bearer access-1" })
    }

    @Test func voidedPurchasesPassesThePageTokenAndDecodesTheNextOne() async throws {
        let fixture = try PlayClientFixture { _, index in
            index == 0
                ? .json(
                    200,
                    #"{"voidedPurchases":[{"purchaseToken":"v1","voidedTimeMillis":"1767571200000","voidedReason":1}],"tokenPagination":{"nextPageToken":"page+2/=="}}"#)
                : .json(200, #"{"voidedPurchases":[{"purchaseToken":"v2"}]}"#)
        }
        let start = fixture.clock.now().addingTimeInterval(-86_400)
        let end = fixture.clock.now()
        let first = try await fixture.client.voidedPurchases(
            packageName: "com.game", startTime: start, endTime: end, pageToken: nil, maxResults: 50,
            includeQuantityBasedPartialRefund: true)
        #expect(first.voidedPurchases.map(\.purchaseToken) == ["v1"] && first.nextPageToken == "page+2/==")
        let second = try await fixture.client.voidedPurchases(
            packageName: "com.game", startTime: start, endTime: end, pageToken: first.nextPageToken, maxResults: 50,
            includeQuantityBasedPartialRefund: true)
        #expect(second.voidedPurchases.map(\.purchaseToken) == ["v2"] && second.nextPageToken == nil)
        let requests = fixture.server.apiRequests
        try #require(requests.count == 2)
        #expect(requests[0].method == "GET")
        #expect(requests[0].url.path == "/androidpublisher/v3/applications/com.game/purchases/voidedpurchases")
        #expect(
            requests[0].queryItems
                == [
                    "startTime": String(start.ledgerMilliseconds), "endTime": String(end.ledgerMilliseconds),
                    "maxResults": "50", "type": "0", "includeQuantityBasedPartialRefund": "true",
                ])
        #expect(requests[1].queryItems["token"] == "page+2/==")
        #expect(requests[1].url.query?.contains("token=page%2B2%2F%3D%3D") == true)
    }

    @Test func voidedStartTimeOlderThanThirtyDaysIsClamped() async throws {
        let fixture = try PlayClientFixture { _, _ in .json(200, "{}") }
        let now = fixture.clock.now()
        let page = try await fixture.client.voidedPurchases(
            packageName: "com.game", startTime: now.addingTimeInterval(-90 * 86_400), endTime: nil, pageToken: nil,
            maxResults: 5_000, includeQuantityBasedPartialRefund: false)
        #expect(page.voidedPurchases.isEmpty && page.nextPageToken == nil)
        let query = try #require(fixture.server.apiRequests.first).queryItems
        let oldest = now.addingTimeInterval(-30 * 86_400 + PlayDeveloperAPIClient.voidedLookbackMarginSeconds)
        #expect(query["startTime"] == String(oldest.ledgerMilliseconds))
        #expect(query["endTime"] == nil && query["token"] == nil && query["includeQuantityBasedPartialRefund"] == nil)
        #expect(query["maxResults"] == String(PlayDeveloperAPIClient.voidedPageSizeMax))
        let recent = now.addingTimeInterval(-29 * 86_400)
        #expect(fixture.client.effectiveVoidedStartTime(recent) == recent)
    }

    @Test func tooManyRequestsIsRetriedHonouringRetryAfter() async throws {
        let fixture = try PlayClientFixture { _, index in
            index == 0 ? .json(429, #"{"error":{"code":429,"message":"slow down"}}"#, headers: ["Retry-After": "2"])
                : .json(200, stubPurchaseJSON)
        }
        let purchase = try await fixture.client.productPurchase(packageName: "com.game", storeProductID: "gems", token: "t")
        #expect(purchase.orderId == "GPA.3301-1234-5678-90123")
        #expect(fixture.server.apiRequests.count == 2)
        #expect(fixture.sleeps.millisecondsList == [2_000])
    }

    @Test func persistentServiceUnavailableBecomesRetryableAfterTheRetryLimit() async throws {
        let policy = PlayRetryPolicy(retryCountMax: 3, backoffBaseMilliseconds: 100, backoffCapMilliseconds: 250)
        let fixture = try PlayClientFixture(policy: policy) { _, _ in .json(503, #"{"error":{"message":"backend"}}"#) }
        await #expect(throws: PlayAPIError.self) {
            try await fixture.client.consume(packageName: "com.game", storeProductID: "gems", token: "t")
        }
        do {
            try await fixture.client.consume(packageName: "com.game", storeProductID: "gems", token: "t")
        } catch {
            #expect(error.isRetryable)
            #expect(error.description.contains("HTTP 503"))
        }
        #expect(fixture.server.apiRequests.count == 2 * (policy.retryCountMax + 1))
        let delays = fixture.sleeps.millisecondsList
        #expect(delays.count == 2 * policy.retryCountMax)
        // Backoff 100, 200, 250 (capped), each jittered within its upper half.
        let bounds = [50...100, 100...200, 125...250]
        for (index, delay) in delays.enumerated() { #expect(bounds[index % 3].contains(delay)) }
    }

    @Test func transportTimeoutIsRetried() async throws {
        let fixture = try PlayClientFixture { _, index in index == 0 ? .failure(.timedOut) : .json(200, "") }
        try await fixture.client.acknowledge(packageName: "com.game", storeProductID: "sword", token: "t")
        #expect(fixture.server.apiRequests.count == 2)
        #expect(fixture.sleeps.millisecondsList.count == 1)
    }

    @Test(arguments: [
        (404, "notFound"), (410, "invalidToken"), (400, "invalidToken"), (403, "unauthorized"), (409, "permanent"),
    ])
    func statusesMapToTypedErrors(status: Int, kind: String) async throws {
        let fixture = try PlayClientFixture { _, _ in .json(status, #"{"error":{"code":1,"message":"nope"}}"#) }
        do {
            _ = try await fixture.client.productPurchase(packageName: "com.game", storeProductID: "gems", token: "t")
            Issue.record("HTTP \(status) succeeded")
        } catch {
            #expect(error.description.hasPrefix(kind + ":"))
            #expect(error.description.contains("HTTP \(status): nope"))
        }
        #expect(fixture.server.apiRequests.count == 1)
        #expect(fixture.sleeps.millisecondsList.isEmpty)
    }

    @Test func unauthorizedDropsTheTokenAndRetriesOnceWithAFreshOne() async throws {
        let fixture = try PlayClientFixture { request, _ in
            request.header("Authorization") == "Bearer access-1" ? .json(401, "{}") : .json(200, stubPurchaseJSON)
        }
        _ = try await fixture.client.productPurchase(packageName: "com.game", storeProductID: "gems", token: "t")
        #expect(fixture.server.tokenRequests.count == 2)
        #expect(fixture.server.apiRequests.map { $0.header("Authorization") } == ["Bearer access-1", "Bearer access-2"])
    }

    @Test func repeatedUnauthorizedIsReported() async throws {
        let fixture = try PlayClientFixture { _, _ in .json(401, "{}") }
        await #expect(throws: PlayAPIError.unauthorized("purchases.products.get: HTTP 401")) {
            _ = try await fixture.client.productPurchase(packageName: "com.game", storeProductID: "gems", token: "t")
        }
        #expect(fixture.server.apiRequests.count == 2)
        #expect(fixture.server.tokenRequests.count == 2)
    }

    @Test func refusedAssertionIsUnauthorized() async throws {
        let fixture = try PlayClientFixture(
            tokenHandler: { _ in .json(400, #"{"error":"invalid_grant","error_description":"Invalid JWT"}"#) },
            apiHandler: { _, _ in .json(200, "{}") })
        await #expect(throws: PlayAPIError.unauthorized("token request: HTTP 400: invalid_grant: Invalid JWT")) {
            try await fixture.client.consume(packageName: "com.game", storeProductID: "gems", token: "t")
        }
        #expect(fixture.server.apiRequests.isEmpty)
    }

    @Test func backoffDoublesToItsCapAndRetryAfterIsCapped() {
        let policy = PlayRetryPolicy(
            backoffBaseMilliseconds: 200, backoffCapMilliseconds: 1_000, retryAfterCapMilliseconds: 5_000)
        #expect(policy.delayMilliseconds(retryNumber: 1, retryAfterMilliseconds: nil, jitterFraction: 0) == 100)
        #expect(policy.delayMilliseconds(retryNumber: 1, retryAfterMilliseconds: nil, jitterFraction: 1) == 200)
        #expect(policy.delayMilliseconds(retryNumber: 3, retryAfterMilliseconds: nil, jitterFraction: 1) == 800)
        #expect(policy.delayMilliseconds(retryNumber: 60, retryAfterMilliseconds: nil, jitterFraction: 1) == 1_000)
        #expect(policy.delayMilliseconds(retryNumber: 1, retryAfterMilliseconds: 60_000, jitterFraction: 0) == 5_000)
    }
}
