import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import Testing

/// Each App Store Server API endpoint's request and the decoding of its answer, with real
/// JWS from the simulated App Store.
@Suite struct AppStoreServerAPIEndpointTests {
    @Test func getTransactionInfoVerifiesTheTransactionAndReportsNotFoundAsAValue() async throws {
        let fixture = try ServerAPIFixture()
        let purchase = try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small")
        let transport = RecordingTransport(responses: [
            ServerAPIFixture.json(["signedTransactionInfo": purchase.jws]),
            ServerAPIFixture.appleError(404, 4_040_010, "Transaction id not found."),
        ])
        let client = try fixture.client(transport)
        guard case .found(let found) = try await client.transactionInfo(transactionID: purchase.transactionID) else {
            Issue.record("expected the transaction")
            return
        }
        #expect(found.transaction.transactionId == purchase.transactionID && found.jws == purchase.jws)
        guard case .notFound(let response) = try await client.transactionInfo(transactionID: "1999") else {
            Issue.record("expected not found")
            return
        }
        #expect(response.errorCode == .transactionIDNotFound && response.httpStatusCode == 404)
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "GET")
        #expect(request.url?.absoluteString == "https://api.test/inApps/v1/transactions/\(purchase.transactionID)")
        #expect(transport.requests.count == 2)
    }

    @Test func transactionHistoryFollowsRevisionsWithTheSameFiltersAndStopsAtItsPageLimit() async throws {
        let fixture = try ServerAPIFixture()
        let purchases = try (0..<3).map { _ in try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small") }
        let transport = RecordingTransport { request in
            let revision = request.queryItems.first { $0.name == "revision" }?.value
            let index = revision.flatMap { Int($0.dropFirst(1)) } ?? 0
            return .success(
                ServerAPIFixture.json([
                    "signedTransactions": [purchases[index].jws], "revision": "r\(index + 1)", "hasMore": index < 2,
                    "bundleId": ServerAPIFixture.bundleID, "environment": "Sandbox",
                ]))
        }
        let client = try fixture.client(transport)
        let query = AppStoreTransactionHistoryQuery(productTypes: ["CONSUMABLE"], sort: .ascending, revoked: false)
        let all = try await client.transactionHistory(transactionID: purchases[0].transactionID, query: query)
        #expect(all.transactions.map(\.transaction.transactionId) == purchases.map(\.transactionID))
        #expect(!all.hasMore && all.revision == "r3")
        let first = try #require(transport.requests.first)
        #expect(first.url?.path == "/inApps/v2/history/\(purchases[0].transactionID)")
        #expect(first.queryItems.map(\.name) == ["productType", "sort", "revoked"])
        #expect(transport.requests[1].queryItems.map(\.name) == ["productType", "sort", "revoked", "revision"])
        #expect(transport.requests[1].queryItems.last?.value == "r1")

        let limited = try await client.transactionHistory(transactionID: purchases[0].transactionID, pageCountMax: 2)
        #expect(limited.transactions.count == 2 && limited.hasMore && limited.revision == "r2")
        let resumed = try await client.transactionHistory(
            transactionID: purchases[0].transactionID, revision: limited.revision, pageCountMax: 2)
        #expect(resumed.transactions.map(\.transaction.transactionId) == [purchases[2].transactionID] && !resumed.hasMore)
    }

    @Test func sendConsumptionInformationPutsTheV2Body() async throws {
        let fixture = try ServerAPIFixture()
        let transport = RecordingTransport(responses: [HTTPResponse(statusCode: 202)])
        let client = try fixture.client(transport)
        let body = AppStoreConsumptionRequest(
            customerConsented: true, consumptionPercentage: 250_000, deliveryStatus: .delivered,
            refundPreference: .grantProrated, sampleContentProvided: false)
        try await client.sendConsumptionInformation(transactionID: "2000000042", body)
        let request = try #require(transport.requests.first)
        #expect(request.httpMethod == "PUT")
        #expect(request.url?.path == "/inApps/v2/transactions/consumption/2000000042")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let json = try #require(request.jsonBody)
        #expect(json["customerConsented"] as? Bool == true)
        #expect(json["consumptionPercentage"] as? Int == AppStoreConsumptionRequest.consumptionPercentageMax)
        #expect(json["deliveryStatus"] as? String == "DELIVERED")
        #expect(json["refundPreference"] as? String == "GRANT_PRORATED")
        #expect(json["sampleContentProvided"] as? Bool == false)
        #expect(json.count == 5)
    }

    @Test func notificationHistoryPostsTheRangeFollowsTokensAndVerifiesEachPayload() async throws {
        let fixture = try ServerAPIFixture()
        let purchase = try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small")
        _ = try fixture.simulator.revoke(transactionID: purchase.transactionID)
        let refund = try fixture.simulator.notification(type: .refund, transactionID: purchase.transactionID)
        let transport = RecordingTransport { request in
            let token = request.queryItems.first { $0.name == "paginationToken" }?.value
            var page: [String: Any] = [
                "notificationHistory": [
                    ["signedPayload": refund, "sendAttempts": [["attemptDate": 1_767_571_200_000, "sendAttemptResult": "TIMED_OUT"]]]
                ],
                "hasMore": token == nil,
            ]
            if token == nil { page["paginationToken"] = "next-1" }
            return .success(ServerAPIFixture.json(page))
        }
        let client = try fixture.client(transport)
        let now = fixture.clock.now()
        let request = AppStoreNotificationHistoryRequest(
            startDate: now.addingTimeInterval(-3 * 86_400), endDate: now, onlyFailures: true)
        let history = try await client.notificationHistory(request)
        #expect(history.notifications.count == 2 && !history.hasMore && history.paginationToken == nil)
        #expect(history.notifications.first?.notification.notificationType == .refund)
        #expect(history.notifications.first?.notification.transaction?.transactionId == purchase.transactionID)
        #expect(history.notifications.first?.sendAttempts.first?.sendAttemptResult == "TIMED_OUT")
        let first = try #require(transport.requests.first)
        #expect(first.httpMethod == "POST" && first.url?.path == "/inApps/v1/notifications/history")
        #expect(first.queryItems.isEmpty)
        #expect(transport.requests[1].queryItems.first?.value == "next-1")
        let body = try #require(first.jsonBody)
        #expect(body["startDate"] as? Int64 == now.addingTimeInterval(-3 * 86_400).ledgerMilliseconds)
        #expect(body["endDate"] as? Int64 == now.ledgerMilliseconds)
        #expect(body["onlyFailures"] as? Bool == true)
        #expect(body["transactionId"] == nil && body["notificationType"] == nil)
    }

    @Test func notificationHistoryRefusesARangeAppleWouldRefuseWithoutARequest() async throws {
        let fixture = try ServerAPIFixture()
        let transport = RecordingTransport(responses: [HTTPResponse(statusCode: 500)])
        let client = try fixture.client(transport)
        let now = fixture.clock.now()
        let tooOld = now.addingTimeInterval(-TimeInterval(AppStoreNotificationHistoryRequest.retentionDays + 1) * 86_400)
        for request in [
            AppStoreNotificationHistoryRequest(startDate: tooOld, endDate: now),
            AppStoreNotificationHistoryRequest(startDate: now, endDate: now.addingTimeInterval(-1)),
        ] {
            await #expect {
                _ = try await client.notificationHistoryPage(request)
            } throws: { error in
                guard case .configuration = error as? AppStoreServerAPIError else { return false }
                return true
            }
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func refundHistoryFollowsRevisionsAndFinishTransactionPostsToItsPath() async throws {
        let fixture = try ServerAPIFixture()
        let purchase = try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small")
        let refunded = try fixture.simulator.revoke(transactionID: purchase.transactionID)
        let transport = RecordingTransport { request in
            if request.url?.path.hasSuffix("/finish") == true { return .success(HTTPResponse(statusCode: 200)) }
            let revised = request.queryItems.contains { $0.name == "revision" }
            return .success(
                ServerAPIFixture.json([
                    "signedTransactions": revised ? [] : [refunded.jws], "revision": revised ? "b" : "a", "hasMore": !revised,
                ]))
        }
        let client = try fixture.client(transport)
        let refunds = try await client.refundHistory(transactionID: purchase.transactionID)
        #expect(refunds.transactions.count == 1 && refunds.transactions.first?.transaction.revocationDate != nil)
        #expect(refunds.revision == "b" && !refunds.hasMore)
        let refundPath = "/inApps/v2/refund/lookup/" + purchase.transactionID
        let paths: [String] = transport.requests.map { $0.url?.path ?? "" }
        #expect(paths == [refundPath, refundPath])
        let revision: URLQueryItem? = transport.requests[1].queryItems.first
        #expect(revision?.name == "revision" && revision?.value == "a")

        try await client.finishTransaction(transactionID: purchase.transactionID)
        let finish = try #require(transport.requests.last)
        #expect(finish.httpMethod == "POST" && finish.url?.path == "/inApps/v1/transactions/\(purchase.transactionID)/finish")
        #expect(finish.httpBody == nil)
    }
}
