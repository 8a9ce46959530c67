import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client over a real `URLSession` against a loopback server playing Google.
@Suite struct PlayDeveloperAPIClientLoopbackTests {
    /// Requests the scenario makes: token, get, acknowledge, consume, two voided pages.
    static let scenarioRequestCount = 6

    /// How long the loopback server serves: it must outlive the wait for few descriptors and
    /// the minute the shared concurrency pool may take to resume this test while every suite runs.
    static let serverLifetimeSeconds: TimeInterval = 150

    @Test(.timeLimit(.minutes(3)))
    func fullPurchaseFlowOverLoopbackHTTP() async throws {
        // URLSession's sockets must get numbers its select can watch (under 1,024).
        await ProcessLaunchGuard.fewDescriptors()
        let productPath = "/androidpublisher/v3/applications/com.game/purchases/products/gems/tokens/tok-e2e"
        let voidedPath = "/androidpublisher/v3/applications/com.game/purchases/voidedpurchases"
        let server = try PlayLoopbackServer(
            requestCountMax: Self.scenarioRequestCount, lifetimeSeconds: Self.serverLifetimeSeconds) { request in
            let path = String(request.target.split(separator: "?", maxSplits: 1)[0])
            switch (request.method, path) {
            case ("POST", "/token"):
                return (200, #"{"access_token":"loopback-token","expires_in":3599,"token_type":"Bearer"}"#)
            case _ where request.headers["authorization"] != "Bearer loopback-token":
                return (401, #"{"error":{"code":401,"message":"no token"}}"#)
            case ("GET", productPath):
                return (200, stubPurchaseJSON)
            case ("POST", productPath + ":acknowledge"), ("POST", productPath + ":consume"):
                return (200, "")
            case ("GET", voidedPath) where request.target.contains("token=p2"):
                return (200, #"{"voidedPurchases":[{"purchaseToken":"void-2","voidedReason":7}]}"#)
            case ("GET", voidedPath):
                return (
                    200,
                    #"{"voidedPurchases":[{"purchaseToken":"void-1","voidedReason":1}],"tokenPagination":{"nextPageToken":"p2"}}"#
                )
            default:
                return (404, #"{"error":{"code":404,"message":"no route"}}"#)
            }
        }
        let root = "http://127.0.0.1:\(server.port)"
        let transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
        let policy = PlayRetryPolicy(retryCountMax: 0, requestTimeoutSeconds: 10)
        let provider = try AccessTokenProvider(
            credentials: PlayClientTestKey.credentials(tokenURI: URL(string: root + "/token")!), transport: transport,
            retryPolicy: policy)
        let client = PlayDeveloperAPIClient(
            tokenSource: provider, baseURL: URL(string: root)!, transport: transport, retryPolicy: policy)

        let purchase = try await client.productPurchase(packageName: "com.game", storeProductID: "gems", token: "tok-e2e")
        #expect(purchase.orderId == "GPA.3301-1234-5678-90123" && purchase.purchaseToken == "tok-e2e")
        try await client.acknowledge(packageName: "com.game", storeProductID: "gems", token: "tok-e2e")
        try await client.consume(packageName: "com.game", storeProductID: "gems", token: "tok-e2e")
        var voidedTokens: [String] = []
        var pageToken: String?
        let pageCountMax = 5
        for _ in 0..<pageCountMax {
            let page = try await client.voidedPurchases(
                packageName: "com.game", startTime: Date().addingTimeInterval(-86_400), endTime: nil,
                pageToken: pageToken, maxResults: 100, includeQuantityBasedPartialRefund: true)
            voidedTokens += page.voidedPurchases.compactMap(\.purchaseToken)
            pageToken = page.nextPageToken
            if pageToken == nil { break }
        }
        #expect(voidedTokens == ["void-1", "void-2"])

        let requests = server.requests
        #expect(requests.map(\.method) == ["POST", "GET", "POST", "POST", "GET", "GET"])
        let tokenRequest = try #require(requests.first)
        #expect(tokenRequest.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(formFields(tokenRequest.body)["grant_type"] == AccessTokenProvider.jwtBearerGrantType)
        #expect(requests.dropFirst().allSatisfy { $0.headers["authorization"] == "Bearer loopback-token" })
        #expect(String(decoding: requests[2].body, as: UTF8.self) == "{}")
        #expect(requests[5].target.contains("token=p2") && requests[5].target.contains("type=0"))
        #expect(requests[5].target.contains("includeQuantityBasedPartialRefund=true"))
        #expect(await provider.tokenRequestCount == 1)
    }
}
