import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import Testing

/// Subscription notifications delivered as Apple really delivers them: late, out of order, a
/// refund before its period, a notification refused for its transaction, an upgrade from a
/// longer period. Each test runs on every store engine.
@Suite struct AppStoreSubscriptionOrderTests {
    typealias Setup = AppStoreSubscriptionTests.Setup
    static let day = AppStoreSubscriptionTests.day

    /// Processes a signed notification.
    static func process(_ setup: Setup, _ signedPayload: String) async throws -> AppStoreNotificationOutcome {
        try await AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: setup.ledger).process(signedPayload)
    }

    /// The subscription effect of a signed notification, or a recorded issue.
    static func effect(_ setup: Setup, _ signedPayload: String) async throws -> AppStoreSubscriptionEffect? {
        let outcome = try await process(setup, signedPayload)
        guard case .subscription(let effect) = outcome else {
            Issue.record("expected a subscription outcome, got \(outcome)")
            return nil
        }
        return effect
    }

    /// A notification of `type` about `transactionID`, signed at `date`, whose
    /// `signedTransactionInfo` is `payload` signed by the simulator (a transaction the simulator
    /// does not hold as such: another account's, an upgrade's).
    static func notification(
        _ setup: Setup, _ type: NotificationTypeV2, subtype: NotificationSubtype? = nil, about transactionID: String,
        carrying payload: AppStoreSimulatedTransaction, at date: Date
    ) throws -> (signed: String, uuid: String) {
        var notification = try setup.simulator.notificationPayload(
            type: type, subtype: subtype, transactionID: transactionID, at: date)
        notification.data.signedTransactionInfo = try setup.simulator.sign(payload)
        return (try setup.simulator.sign(notification), notification.notificationUUID)
    }

    /// p1 buys the subscription and the game delivers it; 30 days later Apple renews it, and the
    /// renewal (period 2) is returned, not yet delivered to the ledger.
    static func renewalAfterTheFirstPeriod(_ setup: Setup) async throws -> SignedAppStoreTransaction {
        let bought = try setup.subscribe("p1")
        #expect(try await setup.fulfill(bought, as: "p1").name == "granted")
        setup.clock.advance(seconds: 30 * day)
        return try setup.simulator.renew(transactionID: bought.transactionID)
    }

    static func chain(_ setup: Setup, _ player: String = "p1") async throws -> SubscriptionReading {
        try #require(try await setup.ledger.subscriptions(player).first)
    }

    static func gems(_ setup: Setup, _ player: String = "p1") async throws -> Int64 {
        try await setup.ledger.player(player).balances["gems"] ?? 0
    }

    // MARK: 1. Apple's order: the most recent signedDate holds

    /// An EXPIRED signed after period 2's DID_RENEW arrives first; the DID_RENEW, signed earlier,
    /// grants period 2 once but is stale for the chain: it stays expired and entitles nothing.
    @Test(arguments: LedgerTestEngine.allCases)
    func aLateOlderRenewalNeverReactivatesAnExpiredChain(_ engine: LedgerTestEngine) async throws {
        let setup = try await Setup.on(engine)
        let renewal = try await Self.renewalAfterTheFirstPeriod(setup)
        let didRenew = try setup.simulator.notification(type: .didRenew, transactionID: renewal.transactionID)
        setup.clock.advance(seconds: 10 * Self.day)
        let expired = try #require(try await Self.effect(setup, try setup.simulator.expire(transactionID: renewal.transactionID)))
        #expect(expired.update?.name == "applied")

        let late = try #require(try await Self.effect(setup, didRenew))
        #expect(late.period?.name == "granted", "the period was paid: its rewards are granted once")
        #expect(late.update?.name == "stale")
        let reading = try await Self.chain(setup)
        #expect(reading.subscription.state == .expired && !reading.isEntitled)
        #expect(reading.subscription.latestPeriodID == renewal.payload.webOrderLineItemID)
        #expect(try await setup.entitlements("p1").isEmpty)
        #expect(try await Self.gems(setup) == 1_000)
    }

    /// The realistic order: EXPIRED, signed at period 2's end, arrives before period 2's DID_RENEW.
    /// The stored state stays expired, not only the state read at a time.
    @Test(arguments: LedgerTestEngine.allCases)
    func anExpiryAtThePeriodsEndOutranksItsLateRenewal(_ engine: LedgerTestEngine) async throws {
        let setup = try await Setup.on(engine)
        let renewal = try await Self.renewalAfterTheFirstPeriod(setup)
        let didRenew = try setup.simulator.notification(type: .didRenew, transactionID: renewal.transactionID)
        let periodEnd = try #require(renewal.payload.expiresDate)
        setup.clock.set(periodEnd.addingTimeInterval(Self.day))
        _ = try await Self.effect(setup, try setup.simulator.expire(transactionID: renewal.transactionID, at: periodEnd))

        let late = try #require(try await Self.effect(setup, didRenew))
        #expect(late.period?.name == "granted")
        #expect(try await Self.chain(setup).subscription.state == .expired)
        // Read at a time inside period 2, the chain is still the expired one Apple last reported.
        #expect(try await setup.entitlements("p1", at: periodEnd.addingTimeInterval(-Self.day)).isEmpty)
        #expect(try await Self.gems(setup) == 1_000)
        // A new paid period after the expiry (the player resubscribes) starts it again.
        setup.clock.advance(seconds: Self.day)
        let resubscribed = try setup.simulator.renew(transactionID: renewal.transactionID)
        #expect(try await setup.fulfill(resubscribed, as: "p1").name == "granted")
        #expect(try await Self.chain(setup).state == .active)
        #expect(try await setup.entitlements("p1") == ["battle_pass"])
    }

    // MARK: 2. A refund that arrives before its period

    /// A REFUND of period 2 before the ledger granted period 2 waits under the period's own key;
    /// the DID_RENEW that grants it takes it back in the same transaction and revokes the chain.
    @Test(arguments: LedgerTestEngine.allCases)
    func aRefundBeforeItsPeriodIsTakenBackWhenThePeriodIsGranted(_ engine: LedgerTestEngine) async throws {
        let setup = try await Setup.on(engine)
        let renewal = try await Self.renewalAfterTheFirstPeriod(setup)
        let didRenew = try setup.simulator.notification(type: .didRenew, transactionID: renewal.transactionID)
        setup.clock.advance(seconds: Self.day)
        _ = try setup.simulator.revoke(transactionID: renewal.transactionID)
        guard case .revocation(let refund) = try await setup.notify(.refund, renewal.transactionID) else {
            Issue.record("expected a revocation")
            return
        }
        let periodID = try #require(renewal.payload.webOrderLineItemID)
        #expect(refund.record?.disposition == .awaitingPurchase)
        #expect(refund.record?.purchase == TransactionKey(store: .appStore, transactionID: periodID))

        let granted = try #require(try await Self.effect(setup, didRenew))
        #expect(granted.period?.name == "granted")
        #expect(try await Self.gems(setup) == 500, "period 2's 500 gems granted and taken back at once")
        #expect(try await setup.entitlements("p1").isEmpty)
        #expect(try await Self.chain(setup).subscription.state == .revoked)
        let applied = try await setup.ledger.store.read { reader throws(LedgerError) in
            try reader.revocationEvents(for: TransactionKey(store: .appStore, transactionID: periodID), limit: 10)
        }
        #expect(applied.map(\.disposition) == [.applied])
        // The game's own delivery of the refunded period afterwards grants nothing more.
        #expect(try await setup.fulfill(renewal, as: "p1").name == "alreadyFulfilled")
        #expect(try await Self.gems(setup) == 500)
    }

    /// The same through the game's delivery of the period rather than a notification.
    @Test(arguments: LedgerTestEngine.allCases)
    func aRefundBeforeItsPeriodIsTakenBackWhenTheGameDeliversIt(_ engine: LedgerTestEngine) async throws {
        let setup = try await Setup.on(engine)
        let renewal = try await Self.renewalAfterTheFirstPeriod(setup)
        setup.clock.advance(seconds: Self.day)
        _ = try setup.simulator.revoke(transactionID: renewal.transactionID)
        _ = try await setup.notify(.refund, renewal.transactionID)
        #expect(try await setup.fulfill(renewal, as: "p1").name == "granted")
        #expect(try await Self.gems(setup) == 500)
        #expect(try await setup.entitlements("p1").isEmpty)
    }

    // MARK: 3. A refused notification changes nothing

    /// A DID_RENEW whose transaction carries another player's `appAccountToken` is refused, and
    /// its renewal info (auto-renew turned off) is not applied: the chain is as it was.
    @Test(arguments: LedgerTestEngine.allCases)
    func aRenewalRefusedForItsAccountChangesNothing(_ engine: LedgerTestEngine) async throws {
        let setup = try await Setup.on(engine)
        let renewal = try await Self.renewalAfterTheFirstPeriod(setup)
        _ = try setup.simulator.setAutoRenew(transactionID: renewal.transactionID, on: false)
        var foreign = renewal.payload
        foreign.appAccountToken = AppAccountToken.forPlayer("p2")
        let before = try await Self.chain(setup).subscription
        let events = try await setup.ledger.player("p1").events.count

        let notification = try Self.notification(
            setup, .didRenew, about: renewal.transactionID, carrying: foreign, at: setup.clock.now())
        let refused = try #require(try await Self.effect(setup, notification.signed))
        #expect(refused.period?.rejection?.reason == .accountMismatch)
        #expect(refused.update == nil, "nothing of a refused notification is applied")
        #expect(try await Self.chain(setup).subscription == before)
        #expect(try await setup.ledger.player("p1").events.count == events)
        #expect(try await setup.ledger.storeNotification(id: notification.uuid) == nil, "not recorded: Apple redelivers")
    }

    /// A DID_RENEW whose period ends before it starts is refused and changes nothing either.
    @Test(arguments: LedgerTestEngine.allCases)
    func aRenewalRefusedForItsDatesChangesNothing(_ engine: LedgerTestEngine) async throws {
        let setup = try await Setup.on(engine)
        let renewal = try await Self.renewalAfterTheFirstPeriod(setup)
        _ = try setup.simulator.setAutoRenew(transactionID: renewal.transactionID, on: false)
        var backwards = renewal.payload
        backwards.expiresDate = renewal.payload.purchaseDate.addingTimeInterval(-Self.day)
        let before = try await Self.chain(setup).subscription

        let notification = try Self.notification(
            setup, .didRenew, about: renewal.transactionID, carrying: backwards, at: setup.clock.now())
        let refused = try #require(try await Self.effect(setup, notification.signed))
        #expect(refused.period?.rejection != nil)
        #expect(refused.update == nil)
        #expect(try await Self.chain(setup).subscription == before)
        #expect(try await Self.gems(setup) == 500)
    }

    /// A subscription notification whose transaction lacks its `webOrderLineItemId` is refused,
    /// as Subscriptions.md says, not logged: it is not recorded, so Apple's redelivery is tried.
    @Test(arguments: LedgerTestEngine.allCases)
    func aNotificationWithoutItsPeriodIDIsRefused(_ engine: LedgerTestEngine) async throws {
        let setup = try await Setup.on(engine)
        let renewal = try await Self.renewalAfterTheFirstPeriod(setup)
        var unkeyed = renewal.payload
        unkeyed.webOrderLineItemID = nil
        let notification = try Self.notification(
            setup, .didRenew, about: renewal.transactionID, carrying: unkeyed, at: setup.clock.now())
        let outcome = try await Self.process(setup, notification.signed)
        guard case .rejected(let error) = outcome else {
            Issue.record("expected rejected, got \(outcome)")
            return
        }
        #expect(error.description.contains("webOrderLineItemId"))
        #expect(try await Self.chain(setup).subscription.periodCount == 1)
        #expect(try await setup.ledger.storeNotification(id: notification.uuid) == nil)
    }

    // MARK: 4. An upgrade from a longer period

    /// A yearly subscriber upgrades to a monthly product of a higher tier: the upgrade takes effect
    /// at once, so the chain takes the new product, its entitlements and its (earlier) end.
    @Test(arguments: LedgerTestEngine.allCases)
    func anUpgradeFromAYearlyPeriodReplacesTheChainsProductAtOnce(_ engine: LedgerTestEngine) async throws {
        let setup = try await Setup.on(engine)
        var yearly = try setup.subscribe("p1", to: AppStoreSubscriptionTests.yearly).payload
        yearly.expiresDate = yearly.purchaseDate.addingTimeInterval(365 * Self.day)
        let bought = SignedAppStoreTransaction(jws: try setup.simulator.sign(yearly), payload: yearly)
        #expect(try await setup.fulfill(bought, as: "p1").name == "granted")
        setup.clock.advance(seconds: 40 * Self.day)
        var upgrade = try setup.simulator.renew(transactionID: bought.transactionID).payload
        upgrade.productID = AppStoreSubscriptionTests.plus
        let notification = try Self.notification(
            setup, .didChangeRenewalPref, subtype: .upgrade, about: upgrade.transactionID, carrying: upgrade,
            at: setup.clock.now())

        let effect = try #require(try await Self.effect(setup, notification.signed))
        #expect(effect.period?.name == "granted")
        let reading = try await Self.chain(setup)
        #expect(reading.subscription.productID == "battle_pass_plus")
        #expect(reading.subscription.latestPeriodID == upgrade.webOrderLineItemID)
        #expect(reading.subscription.expiresAt == upgrade.expiresDate?.truncatedToLedgerMilliseconds)
        #expect(reading.subscription.entitlementIDs == ["battle_pass", "battle_pass_plus"])
        #expect(try await setup.entitlements("p1") == ["battle_pass", "battle_pass_plus"])
        #expect(try await Self.gems(setup) == 6_200)
        // The yearly period no longer holds the chain open: past the monthly period's end, nothing.
        let upgradeEnd = try #require(upgrade.expiresDate)
        #expect(try await setup.entitlements("p1", at: upgradeEnd.addingTimeInterval(Self.day)).isEmpty)
        // The yearly period delivered again (a restore) is a replay and moves nothing back.
        #expect(try await setup.fulfill(bought, as: "p1").name == "alreadyFulfilled")
        #expect(try await Self.chain(setup).subscription.productID == "battle_pass_plus")
    }
}
