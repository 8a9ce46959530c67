import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `AppStoreSubscriptionStatusSync` and Get All Subscription Statuses against the simulated App
/// Store Server API: missed renewals granted once, missed state changes applied, failures values.
@Suite struct AppStoreSubscriptionStatusSyncTests {
    static let day: TimeInterval = 86_400

    static func ledger(_ fixture: ServerAPIFixture) throws -> Ledger {
        var configuration = LedgerConfiguration.sandbox
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        return try Ledger(
            catalog: try CatalogLoader.parse(Array(AppStoreSubscriptionTests.catalogText.utf8)), store: InMemoryLedgerStore(),
            verifier: AppStoreTransactionVerifier(signedDataVerifier: fixture.verifier), finisher: AppStoreFinisher(),
            clock: fixture.clock, configuration: configuration)
    }

    static func subscribe(_ fixture: ServerAPIFixture, _ ledger: Ledger) async throws -> SignedAppStoreTransaction {
        let bought = try fixture.simulator.purchase(
            productID: AppStoreSubscriptionTests.monthly, appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .autoRenewableSubscription)
        let submission = try #require(AppStoreTransactionVerifier.submission(jws: bought.jws, playerID: "p1"))
        #expect(try await ledger.fulfill(submission).name == "granted")
        return bought
    }

    @Test func theEndpointListsTheLatestTransactionOfEachSubscriptionWithItsStatus() async throws {
        let fixture = try ServerAPIFixture()
        let client = try fixture.client(fixture.simulatedAPI())
        let bought = try fixture.simulator.purchase(
            productID: AppStoreSubscriptionTests.monthly, appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .autoRenewableSubscription)
        fixture.clock.advance(seconds: 30 * Self.day)
        let renewal = try fixture.simulator.renew(transactionID: bought.transactionID)
        let statuses = try #require(try await client.allSubscriptionStatuses(transactionID: bought.transactionID))
        #expect(statuses.items.count == 1)
        let item = try #require(statuses.items.first)
        #expect(item.originalTransactionID == bought.payload.originalTransactionID && item.status == .active)
        #expect(item.transaction.transaction.transactionId == renewal.transactionID)
        #expect(item.renewalInfo?.autoRenewStatus == .on && item.subscriptionGroupID == "21000000")
        #expect(try await client.allSubscriptionStatuses(transactionID: "9999") == nil, "an unknown ID is not found")
    }

    @Test func aMissedRenewalIsGrantedOnceAndAMissedGracePeriodApplied() async throws {
        let fixture = try ServerAPIFixture()
        let ledger = try Self.ledger(fixture)
        let bought = try await Self.subscribe(fixture, ledger)
        let sync = AppStoreSubscriptionStatusSync(client: try fixture.client(fixture.simulatedAPI()), ledger: ledger)
        let chain = TransactionKey(store: .appStore, transactionID: bought.payload.originalTransactionID)

        // Apple renews; the DID_RENEW never arrives.
        fixture.clock.advance(seconds: 30 * Self.day)
        let renewal = try fixture.simulator.renew(transactionID: bought.transactionID)
        guard case .applied(let status, let period, _)? = try await sync.sync(playerID: "p1")[chain] else {
            Issue.record("expected the chain to be applied")
            return
        }
        #expect(status == .active && period.name == "granted")
        #expect(period.receipt?.record.key.transactionID == renewal.payload.webOrderLineItemID)
        guard case .applied(_, let again, _)? = try await sync.sync(playerID: "p1")[chain] else {
            Issue.record("expected the chain to be applied again")
            return
        }
        #expect(again.name == "alreadyFulfilled")
        #expect(try await ledger.player("p1").balances == ["gems": 1_000])

        // The renewal after it fails with 6 days of grace; that notification is lost too.
        fixture.clock.set(try #require(renewal.payload.expiresDate))
        _ = try fixture.simulator.failToRenew(transactionID: renewal.transactionID, gracePeriodDays: 6)
        fixture.clock.advance(seconds: Self.day)
        _ = try await sync.sync(playerID: "p1")
        let reading = try #require(try await ledger.subscriptions("p1").first)
        #expect(reading.state == .gracePeriod && reading.isEntitled)
        #expect(reading.subscription.gracePeriodExpiresAt == renewal.payload.expiresDate?.addingTimeInterval(6 * Self.day))
        fixture.clock.advance(seconds: 6 * Self.day)
        _ = try await sync.sync(playerID: "p1")
        #expect(try await ledger.subscriptions("p1").first?.state == .billingRetry)
        #expect(try await ledger.entitlements("p1").owned.isEmpty)
    }

    @Test func anOutageOrAnUnknownChainIsAValueAndChangesNothing() async throws {
        let fixture = try ServerAPIFixture()
        let ledger = try Self.ledger(fixture)
        let bought = try await Self.subscribe(fixture, ledger)
        let api = fixture.simulatedAPI()
        let sync = AppStoreSubscriptionStatusSync(
            client: try fixture.client(api, retryPolicy: HTTPRetryPolicy(retryCountMax: 0)), ledger: ledger)
        let chain = TransactionKey(store: .appStore, transactionID: bought.payload.originalTransactionID)
        api.answerNext(
            ServerAPIFixture.appleError(500, 5_000_000, "An unknown error occurred."), forPathsEndingWith: chain.transactionID)
        guard case .failed? = try await sync.sync(playerID: "p1")[chain] else {
            Issue.record("expected a failure")
            return
        }
        api.answerNext(
            ServerAPIFixture.appleError(404, 4_040_010, "Transaction id not found."), forPathsEndingWith: chain.transactionID)
        guard case .notFound? = try await sync.sync(playerID: "p1")[chain] else {
            Issue.record("expected notFound")
            return
        }
        #expect(try await ledger.subscriptions("p1").first?.subscription.periodCount == 1)
        #expect(try await sync.sync(playerID: "nobody").isEmpty)
    }
}
