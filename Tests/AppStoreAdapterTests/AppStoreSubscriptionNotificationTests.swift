import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// App Store Server Notifications V2 about subscriptions: each applied once by its
/// notificationUUID, in signedDate order, driving the chain's state and granting the periods
/// it carries to the chain's player.
@Suite struct AppStoreSubscriptionNotificationTests {
    typealias Setup = AppStoreSubscriptionTests.Setup
    static let day = AppStoreSubscriptionTests.day

    static func process(_ setup: Setup, _ signedPayload: String) async throws -> AppStoreSubscriptionEffect? {
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        guard case .subscription(let effect) = try await processor.process(signedPayload) else { return nil }
        return effect
    }

    static func chain(_ setup: Setup, _ player: String = "p1") async throws -> SubscriptionReading {
        try #require(try await setup.ledger.subscriptions(player).first)
    }

    @Test func aDidRenewNotificationGrantsThePeriodToTheChainsPlayerOnce() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        setup.clock.advance(seconds: 30 * Self.day)
        let renewal = try setup.simulator.renew(transactionID: bought.transactionID)
        let notification = try setup.simulator.notification(type: .didRenew, transactionID: renewal.transactionID)
        let effect = try #require(try await Self.process(setup, notification))
        #expect(effect.period?.name == "granted")
        #expect(effect.period?.receipt?.record.playerID == "p1")
        // The same notification again is already processed; the game's own delivery is a replay.
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        guard case .alreadyProcessed = try await processor.process(notification) else {
            Issue.record("expected alreadyProcessed")
            return
        }
        #expect(try await setup.fulfill(renewal, as: "p1").name == "alreadyFulfilled")
        #expect(try await setup.ledger.player("p1").balances == ["gems": 1_000])
        #expect(try await Self.chain(setup).subscription.periodCount == 2)
    }

    @Test func aNotificationOfAChainTheLedgerDoesNotKnowGrantsNothing() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        let effect = try #require(
            try await Self.process(setup, try setup.simulator.notification(type: .subscribed, subtype: .initialBuy, transactionID: bought.transactionID)))
        #expect(effect.period == nil && effect.update == .unknownChain)
        #expect(try await setup.ledger.player("p1").history.isEmpty)
        // The game's delivery of the purchase starts the chain as usual.
        #expect(try await setup.fulfill(bought, as: "p1").name == "granted")
    }

    @Test func aFailedRenewalWithAGracePeriodEntitlesUntilTheGraceEndsThenBillingRetryDoesNot() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        let periodEnd = try #require(bought.payload.expiresDate)
        setup.clock.set(periodEnd)
        let failed = try #require(
            try await Self.process(setup, try setup.simulator.failToRenew(transactionID: bought.transactionID, gracePeriodDays: 6)))
        guard case .applied(let chain) = failed.update else {
            Issue.record("expected applied, got \(String(describing: failed.update))")
            return
        }
        #expect(chain.state == .gracePeriod)
        #expect(chain.gracePeriodExpiresAt == periodEnd.addingTimeInterval(6 * Self.day).truncatedToLedgerMilliseconds)
        setup.clock.advance(seconds: 5 * Self.day)
        #expect(try await setup.entitlements("p1") == ["battle_pass"], "entitled in the grace period")
        #expect(try await Self.chain(setup).state == .gracePeriod)
        setup.clock.advance(seconds: 2 * Self.day)
        #expect(try await setup.entitlements("p1").isEmpty, "the grace period ended, with no write")
        #expect(try await Self.chain(setup).state == .billingRetry)

        let expired = try #require(try await Self.process(setup, try setup.simulator.expireGracePeriod(transactionID: bought.transactionID)))
        #expect(expired.update?.name == "applied")
        #expect(try await Self.chain(setup).subscription.state == .billingRetry)

        // Apple recovers the payment: a new period, active again.
        setup.clock.advance(seconds: Self.day)
        let recovered = try setup.simulator.renew(transactionID: bought.transactionID)
        let renewed = try #require(
            try await Self.process(setup, try setup.simulator.notification(type: .didRenew, subtype: .billingRecovery, transactionID: recovered.transactionID)))
        #expect(renewed.period?.name == "granted")
        let reading = try await Self.chain(setup)
        #expect(reading.state == .active && reading.isEntitled && reading.subscription.gracePeriodExpiresAt == nil)
        #expect(try await setup.ledger.player("p1").balances == ["gems": 1_000])
    }

    @Test func aFailedRenewalWithoutGraceEndsTheEntitlementAtOnce() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        setup.clock.set(try #require(bought.payload.expiresDate))
        _ = try await Self.process(setup, try setup.simulator.failToRenew(transactionID: bought.transactionID))
        #expect(try await Self.chain(setup).subscription.state == .billingRetry)
        setup.clock.set(try #require(bought.payload.expiresDate).addingTimeInterval(-60))
        #expect(try await setup.entitlements("p1").isEmpty, "billing retry never entitles")
    }

    @Test func expiryAndTheAutoRenewSwitchAreRecordedAndACancelledSubscriptionEntitlesUntilItEnds() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        setup.clock.advance(seconds: Self.day)
        _ = try await Self.process(setup, try setup.simulator.setAutoRenew(transactionID: bought.transactionID, on: false))
        var reading = try await Self.chain(setup)
        #expect(reading.subscription.willAutoRenew == false && reading.state == .active && reading.isEntitled)
        setup.clock.set(try #require(bought.payload.expiresDate))
        _ = try await Self.process(setup, try setup.simulator.expire(transactionID: bought.transactionID))
        reading = try await Self.chain(setup)
        #expect(reading.subscription.state == .expired && !reading.isEntitled)
        #expect(try await setup.entitlements("p1").isEmpty)
        let events = try await setup.ledger.player("p1").events
        #expect(events.filter { $0.kind == .subscriptionChanged }.count == 2)
        #expect(events.first?.detail.contains("EXPIRED VOLUNTARY") == true)
        // The change feed carries the period and both changes of state, in commit order.
        let feed = try await setup.ledger.changes(after: 0).changes.map(\.kind)
        #expect(feed == [.purchaseGranted, .subscriptionChanged, .subscriptionChanged])
    }

    /// A late, older notification never overwrites a newer state.
    @Test func aNotificationSignedBeforeTheChainsLastChangeIsStale() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        let periodEnd = try #require(bought.payload.expiresDate)
        // Signed at the period's end, delivered after the renewal that followed it.
        let late = try setup.simulator.failToRenew(transactionID: bought.transactionID, gracePeriodDays: 6, at: periodEnd)
        setup.clock.set(periodEnd.addingTimeInterval(Self.day))
        let renewal = try setup.simulator.renew(transactionID: bought.transactionID)
        _ = try await setup.fulfill(renewal, as: "p1")
        let effect = try #require(try await Self.process(setup, late))
        guard case .stale = effect.update else {
            Issue.record("expected stale, got \(String(describing: effect.update))")
            return
        }
        #expect(try await Self.chain(setup).subscription.state == .active)
        #expect(try await setup.entitlements("p1") == ["battle_pass"])
    }

    @Test func aRenewalExtensionMovesTheEndLaterOnly() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        let end = try #require(bought.payload.expiresDate)
        var payload = bought.payload
        payload.expiresDate = end.addingTimeInterval(7 * Self.day)
        payload.signedDate = setup.clock.now()
        var notification = try setup.simulator.notificationPayload(type: .renewalExtended, transactionID: bought.transactionID)
        notification.data.signedTransactionInfo = try setup.simulator.sign(payload)
        _ = try await Self.process(setup, try setup.simulator.sign(notification))
        #expect(try await Self.chain(setup).subscription.expiresAt == end.addingTimeInterval(7 * Self.day).truncatedToLedgerMilliseconds)
        #expect(try await setup.entitlements("p1", at: end.addingTimeInterval(6 * Self.day)) == ["battle_pass"])
    }

    @Test func aRevokeOfTheChainEndsTheEntitlementAndLaterStateNeverRevivesIt() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        setup.clock.advance(seconds: 60)
        _ = try setup.simulator.revoke(transactionID: bought.transactionID)
        let processor = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger)
        _ = try await processor.process(try setup.simulator.notification(type: .revoke, transactionID: bought.transactionID))
        #expect(try await Self.chain(setup).subscription.state == .revoked)
        setup.clock.advance(seconds: 60)
        _ = try await Self.process(setup, try setup.simulator.setAutoRenew(transactionID: bought.transactionID, on: true))
        #expect(try await Self.chain(setup).subscription.state == .revoked)
        #expect(try await setup.entitlements("p1").isEmpty)
        #expect(try await setup.ledger.player("p1").balances.isEmpty)
    }
}
