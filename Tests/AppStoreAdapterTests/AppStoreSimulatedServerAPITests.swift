import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The simulated App Store Server API: Apple's JWT checks, history pages, scripted 429s.
@Suite struct AppStoreSimulatedServerAPITests {
    @Test func aForgedOrExpiredJWTIsRefused() async throws {
        let fixture = try ServerAPIFixture()
        let purchase = try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small")
        let api = fixture.simulatedAPI()
        // Signed by another key: the client surfaces 401 as unauthorized.
        let forgerKey = try AppStoreAPISigningKey(pem: try AppStoreAPITestKey().privateKeyPEM)
        let forger = try AppStoreServerAPIClient(
            key: forgerKey, keyID: ServerAPIFixture.keyID, issuerID: ServerAPIFixture.issuerID,
            verifier: fixture.verifier, baseURL: URL(string: "https://api.test")!, transport: api, clock: fixture.clock,
            sleep: { _ in })
        await #expect {
            _ = try await forger.transactionInfo(transactionID: purchase.transactionID)
        } throws: { error in
            guard case .unauthorized(401, _) = error as? AppStoreServerAPIError else { return false }
            return true
        }
        // Right key, but issued two hours ago: expired.
        let past = ManualClock(start: fixture.clock.now().addingTimeInterval(-7_200))
        let stale = AppStoreAPITokenProvider(
            key: try AppStoreAPISigningKey(pem: fixture.key.privateKeyPEM), keyID: ServerAPIFixture.keyID,
            issuerID: ServerAPIFixture.issuerID, bundleID: ServerAPIFixture.bundleID, clock: past)
        var request = URLRequest(url: URL(string: "https://api.test/inApps/v1/transactions/\(purchase.transactionID)")!)
        request.setValue("Bearer \(try stale.token())", forHTTPHeaderField: "Authorization")
        #expect(try await api.send(request).statusCode == 401)
        #expect(api.refusedTokenCount == 2)
        // The fixture's own client is accepted.
        guard case .found = try await fixture.client(api).transactionInfo(transactionID: purchase.transactionID) else {
            Issue.record("expected the transaction")
            return
        }
    }

    @Test func historyIsPagedByTwentyAndRefundHistoryListsOnlyRefunds() async throws {
        let fixture = try ServerAPIFixture()
        let token = AppAccountToken.forPlayer("p1")
        let purchases = try (0..<25).map { _ in
            try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small", appAccountToken: token)
        }
        _ = try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p2"))
        _ = try fixture.simulator.revoke(transactionID: purchases[3].transactionID)
        let client = try fixture.client(fixture.simulatedAPI())
        let first = try await client.transactionHistoryPage(transactionID: purchases[0].transactionID)
        #expect(first.transactions.count == AppStoreSimulatedServerAPI.pageSize && first.hasMore)
        let all = try await client.transactionHistory(transactionID: purchases[0].transactionID)
        #expect(all.transactions.map(\.transaction.transactionId) == purchases.map(\.transactionID) && !all.hasMore)
        let refunds = try await client.refundHistory(transactionID: purchases[0].transactionID)
        #expect(refunds.transactions.map(\.transaction.transactionId) == [purchases[3].transactionID])
    }

    @Test func aScripted429IsHonouredAndConsumptionIsRecorded() async throws {
        let fixture = try ServerAPIFixture()
        let purchase = try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small")
        let api = fixture.simulatedAPI()
        let acceptedAt = fixture.clock.now().addingTimeInterval(1).ledgerMilliseconds
        api.answerNext(
            ServerAPIFixture.appleError(429, 4_290_000, "Rate limit exceeded.", headers: ["Retry-After": String(acceptedAt)]))
        let body = AppStoreConsumptionRequest(
            customerConsented: true, consumptionPercentage: 0, deliveryStatus: .undeliveredServerOutage,
            refundPreference: .grantFull, sampleContentProvided: true)
        try await fixture.client(api).sendConsumptionInformation(transactionID: purchase.transactionID, body)
        #expect(fixture.recordedSleeps == [1_000])
        let sent = try #require(api.consumptionBodies(for: purchase.transactionID).first)
        let json = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
        #expect(json["deliveryStatus"] as? String == "UNDELIVERED_SERVER_OUTAGE")
        #expect(api.consumptionBodies(for: purchase.transactionID).count == 1)
    }

    @Test func notificationHistoryListsLoggedNotificationsByPageAndFilter() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        var missed: [String] = []
        for index in 0..<23 {
            let purchase = try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small")
            _ = try fixture.simulator.revoke(transactionID: purchase.transactionID)
            let refund = try fixture.simulator.notification(type: .refund, transactionID: purchase.transactionID)
            let delivered = index % 4 == 0
            api.recordNotification(refund, transactionID: purchase.transactionID, delivered: delivered)
            if !delivered { missed.append(purchase.transactionID) }
            fixture.clock.advance(seconds: 60)
        }
        let client = try fixture.client(api)
        let now = fixture.clock.now()
        let all = try await client.notificationHistory(
            AppStoreNotificationHistoryRequest(startDate: now.addingTimeInterval(-86_400), endDate: now))
        #expect(all.notifications.count == 23 && !all.hasMore)
        let failures = try await client.notificationHistory(
            AppStoreNotificationHistoryRequest(startDate: now.addingTimeInterval(-86_400), endDate: now, onlyFailures: true))
        #expect(failures.notifications.compactMap { $0.notification.transaction?.transactionId } == missed)
        #expect(failures.notifications.allSatisfy { $0.sendAttempts.first?.sendAttemptResult == "TIMED_OUT" })
        let firstPage = try await client.notificationHistory(
            AppStoreNotificationHistoryRequest(startDate: now.addingTimeInterval(-86_400), endDate: now), pageCountMax: 1)
        #expect(firstPage.notifications.count == AppStoreSimulatedServerAPI.pageSize && firstPage.hasMore)
        #expect(firstPage.paginationToken != nil)
    }
}
