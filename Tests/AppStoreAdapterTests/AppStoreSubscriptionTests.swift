import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import Testing

/// Auto-renewable subscriptions from the App Store: each paid period keyed by its
/// `webOrderLineItemId` and granted once, entitlements that lapse by the ledger clock, refunds
/// of one period, upgrades within a chain.
@Suite struct AppStoreSubscriptionTests {
    static let monthly = "com.example.bp.monthly"
    static let plus = "com.example.bp.plus"
    static let yearly = "com.example.bp.yearly"
    static let day: TimeInterval = 86_400

    static let catalogText = """
        {
          "schemaVersion": 1,
          "currencies": [{ "id": "gems" }],
          "items": [{ "id": "bp_token" }],
          "entitlements": [{ "id": "battle_pass" }, { "id": "battle_pass_plus" }],
          "products": [
            {
              "id": "battle_pass_monthly", "kind": "autoRenewable", "subscriptionGroup": "battle_pass",
              "storeProductIDs": { "appStore": "com.example.bp.monthly" },
              "rewards": { "entitlements": ["battle_pass"] },
              "periodRewards": { "currencies": [{ "id": "gems", "amount": 500 }], "items": [{ "id": "bp_token", "quantity": 1 }] }
            },
            {
              "id": "battle_pass_plus", "kind": "autoRenewable", "subscriptionGroup": "battle_pass",
              "storeProductIDs": { "appStore": "com.example.bp.plus" },
              "rewards": { "entitlements": ["battle_pass", "battle_pass_plus"] },
              "periodRewards": { "currencies": [{ "id": "gems", "amount": 1200 }] }
            },
            {
              "id": "battle_pass_yearly", "kind": "autoRenewable", "subscriptionGroup": "battle_pass",
              "storeProductIDs": { "appStore": "com.example.bp.yearly" },
              "rewards": { "entitlements": ["battle_pass"] },
              "periodRewards": { "currencies": [{ "id": "gems", "amount": 5000 }] }
            }
          ]
        }
        """

    /// A simulator, a verifier of its payloads, and a sandbox ledger on the subscription catalog.
    struct Setup {
        let simulator: AppStoreSimulator
        let verifier: SignedDataVerifier
        let ledger: Ledger
        let clock = ManualClock()
        /// The engine's resources (a temporary folder, a PostgreSQL schema), released with the setup.
        private(set) var engineLease: LedgerTestEngineLease?

        /// A setup on a new, empty store of `engine`.
        static func on(_ engine: LedgerTestEngine) async throws -> Setup {
            let (store, lease) = try await engine.makeStore(prefix: "appstore_tests")
            var setup = try Setup(store: store)
            setup.engineLease = lease
            return setup
        }

        init(store: any LedgerStore = InMemoryLedgerStore()) throws {
            simulator = try AppStoreSimulator(bundleID: AppStoreLedgerTests.bundleID, environment: .sandbox, clock: clock)
            verifier = try SignedDataVerifier(
                AppStoreVerifierConfiguration(
                    rootCertificates: [simulator.rootCertificateDER], bundleID: AppStoreLedgerTests.bundleID,
                    environment: .sandbox))
            var configuration = LedgerConfiguration.sandbox
            configuration.accountBinding = { AppAccountToken.forPlayer($0) }
            ledger = try Ledger(
                catalog: try CatalogLoader.parse(Array(AppStoreSubscriptionTests.catalogText.utf8)), store: store,
                verifier: AppStoreTransactionVerifier(signedDataVerifier: verifier), finisher: AppStoreFinisher(),
                clock: clock, configuration: configuration)
        }

        func subscribe(_ player: String, to productID: String = AppStoreSubscriptionTests.monthly) throws -> SignedAppStoreTransaction {
            try simulator.purchase(
                productID: productID, appAccountToken: AppAccountToken.forPlayer(player), type: .autoRenewableSubscription)
        }

        func fulfill(_ signed: SignedAppStoreTransaction, as player: String) async throws -> FulfillmentOutcome {
            let submission = try #require(AppStoreTransactionVerifier.submission(jws: signed.jws, playerID: player))
            return try await ledger.fulfill(submission)
        }

        func notify(_ type: NotificationTypeV2, _ transactionID: String) async throws -> AppStoreNotificationOutcome {
            let processor = AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger)
            return try await processor.process(try simulator.notification(type: type, transactionID: transactionID))
        }

        func entitlements(_ player: String, at date: Date? = nil) async throws -> [String] {
            try await ledger.entitlements(player, at: date).owned.map(\.entitlementID)
        }
    }

    @Test func thePeriodIsKeyedByItsWebOrderLineItemIDAndEntitlesUntilItEnds() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        let outcome = try await setup.fulfill(bought, as: "p1")
        let periodID = try #require(bought.payload.webOrderLineItemID)
        #expect(outcome.name == "granted")
        #expect(outcome.receipt?.record.key == TransactionKey(store: .appStore, transactionID: periodID))
        #expect(outcome.receipt?.record.productKind == .autoRenewable)
        let player = try await setup.ledger.player("p1")
        #expect(player.balances == ["gems": 500] && player.inventory == ["bp_token": 1])
        #expect(player.entitlements.isEmpty, "a subscription's entitlement is never owned for good")
        #expect(try await setup.entitlements("p1") == ["battle_pass"])

        let readings = try await setup.ledger.subscriptions("p1")
        let reading = try #require(readings.first)
        #expect(readings.count == 1 && reading.state == .active && reading.isEntitled)
        #expect(reading.subscription.chain == TransactionKey(store: .appStore, transactionID: bought.payload.originalTransactionID))
        #expect(reading.subscription.expiresAt == bought.payload.expiresDate?.truncatedToLedgerMilliseconds)
        #expect(reading.periods.map(\.periodID) == [periodID])

        // No write, no timer: read after the period ends, the VIP has lapsed.
        setup.clock.advance(seconds: 30 * Self.day + 1)
        #expect(try await setup.entitlements("p1").isEmpty)
        let lapsed = try #require(try await setup.ledger.subscriptions("p1").first)
        #expect(lapsed.state == .expired && !lapsed.isEntitled && lapsed.subscription.state == .active)
        // Asked about an earlier time, the ledger answers for that time.
        #expect(try await setup.entitlements("p1", at: bought.payload.purchaseDate.addingTimeInterval(Self.day)) == ["battle_pass"])
    }

    @Test func eachRenewalGrantsItsPeriodOnceAndARestoreGrantsNothing() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        var latest = bought
        for _ in 0..<2 {
            setup.clock.advance(seconds: 30 * Self.day)
            latest = try setup.simulator.renew(transactionID: latest.transactionID)
            #expect(try await setup.fulfill(latest, as: "p1").name == "granted")
            #expect(try await setup.fulfill(latest, as: "p1").name == "alreadyFulfilled")
        }
        // A restore or a new device: a new transactionId, the same webOrderLineItemId.
        let restored = try setup.simulator.restore(transactionID: latest.transactionID)
        #expect(restored.transactionID != latest.transactionID)
        #expect(restored.payload.webOrderLineItemID == latest.payload.webOrderLineItemID)
        #expect(try await setup.fulfill(restored, as: "p1").name == "alreadyFulfilled")
        // So is a restored copy of an earlier period.
        #expect(try await setup.fulfill(try setup.simulator.restore(transactionID: bought.transactionID), as: "p1").name == "alreadyFulfilled")

        let player = try await setup.ledger.player("p1")
        #expect(player.balances == ["gems": 1_500] && player.inventory == ["bp_token": 3])
        let reading = try #require(try await setup.ledger.subscriptions("p1").first)
        #expect(reading.subscription.periodCount == 3 && reading.periods.count == 3)
        #expect(reading.subscription.latestPeriodID == latest.payload.webOrderLineItemID)
        #expect(reading.subscription.expiresAt == latest.payload.expiresDate?.truncatedToLedgerMilliseconds)
        #expect(try await setup.entitlements("p1") == ["battle_pass"])
    }

    @Test func aLateOlderPeriodCountsButNeverMovesTheChainBack() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        setup.clock.advance(seconds: 30 * Self.day)
        let renewal = try setup.simulator.renew(transactionID: bought.transactionID)
        #expect(try await setup.fulfill(renewal, as: "p1").name == "granted")
        #expect(try await setup.fulfill(bought, as: "p1").name == "granted")
        let reading = try #require(try await setup.ledger.subscriptions("p1").first)
        #expect(reading.subscription.periodCount == 2)
        #expect(reading.subscription.latestPeriodID == renewal.payload.webOrderLineItemID)
        #expect(reading.isEntitled)
        #expect(try await setup.ledger.player("p1").balances == ["gems": 1_000])
    }

    @Test func aRefundOfTheCurrentPeriodTakesItsRewardsAndEndsTheEntitlement() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        setup.clock.advance(seconds: 30 * Self.day)
        let renewal = try setup.simulator.renew(transactionID: bought.transactionID)
        _ = try await setup.fulfill(renewal, as: "p1")
        setup.clock.advance(seconds: Self.day)
        _ = try setup.simulator.revoke(transactionID: renewal.transactionID)
        guard case .revocation(let refund) = try await setup.notify(.refund, renewal.transactionID) else {
            Issue.record("expected a revocation")
            return
        }
        #expect(refund.record?.purchase.transactionID == renewal.payload.webOrderLineItemID)
        #expect(refund.record?.effect.contains(GrantLine(kind: .entitlement, id: "battle_pass", quantity: -1)) == true)
        #expect(try await setup.ledger.player("p1").balances == ["gems": 500], "only the refunded period's gems")
        #expect(try await setup.entitlements("p1").isEmpty)
        #expect(try await setup.ledger.subscriptions("p1").first?.state == .revoked)
        // The same notification again takes nothing twice.
        _ = try await setup.notify(.refund, renewal.transactionID)
        #expect(try await setup.ledger.player("p1").balances == ["gems": 500])

        // Apple reverses the refund: the period's rewards and the entitlement come back.
        setup.clock.advance(seconds: 60)
        _ = try setup.simulator.reverseRefund(transactionID: renewal.transactionID)
        _ = try await setup.notify(.refundReversed, renewal.transactionID)
        #expect(try await setup.ledger.player("p1").balances == ["gems": 1_000])
        #expect(try await setup.entitlements("p1") == ["battle_pass"])
        #expect(try await setup.ledger.player("p1").entitlements.isEmpty, "still not owned for good")
    }

    @Test func aRefundOfAnEarlierPeriodKeepsTheSubscription() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        setup.clock.advance(seconds: 30 * Self.day)
        _ = try await setup.fulfill(try setup.simulator.renew(transactionID: bought.transactionID), as: "p1")
        _ = try setup.simulator.revoke(transactionID: bought.transactionID)
        _ = try await setup.notify(.refund, bought.transactionID)
        #expect(try await setup.ledger.player("p1").balances == ["gems": 500])
        #expect(try await setup.entitlements("p1") == ["battle_pass"])
        #expect(try await setup.ledger.subscriptions("p1").first?.state == .active)
    }

    /// An upgrade stays in its chain (the same originalTransactionId): the chain takes the new
    /// product's entitlements, so one chain never entitles twice.
    @Test func anUpgradeReplacesTheChainsEntitlements() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("p1")
        _ = try await setup.fulfill(bought, as: "p1")
        setup.clock.advance(seconds: 10 * Self.day)
        var upgrade = try setup.simulator.renew(transactionID: bought.transactionID).payload
        upgrade.productID = Self.plus
        let signed = SignedAppStoreTransaction(jws: try setup.simulator.sign(upgrade), payload: upgrade)
        #expect(try await setup.fulfill(signed, as: "p1").name == "granted")
        let readings = try await setup.ledger.subscriptions("p1")
        #expect(readings.count == 1 && readings.first?.subscription.productID == "battle_pass_plus")
        #expect(try await setup.entitlements("p1") == ["battle_pass", "battle_pass_plus"])
        #expect(try await setup.ledger.player("p1").balances == ["gems": 1_700])
    }

    @Test func aChainBelongsToThePlayerItsFirstPeriodWasGrantedTo() async throws {
        let setup = try Setup()
        // No appAccountToken, so the account binding cannot tell the players apart.
        let bought = try setup.simulator.purchase(productID: Self.monthly, type: .autoRenewableSubscription)
        _ = try await setup.fulfill(bought, as: "p1")
        setup.clock.advance(seconds: 30 * Self.day)
        let renewal = try setup.simulator.renew(transactionID: bought.transactionID)
        #expect(try await setup.fulfill(renewal, as: "p2").rejection?.reason == .ownedByAnotherPlayer)
        #expect(try await setup.ledger.player("p2").balances.isEmpty)
        #expect(try await setup.fulfill(renewal, as: "p1").name == "granted")
    }

    @Test func aSubscriptionWithoutItsPeriodIDIsRefusedAndChangesNothing() async throws {
        let setup = try Setup()
        var payload = try setup.subscribe("p1").payload
        payload.webOrderLineItemID = nil
        let signed = SignedAppStoreTransaction(jws: try setup.simulator.sign(payload), payload: payload)
        #expect(try await setup.fulfill(signed, as: "p1").rejection?.reason == .unverified)
        #expect(try await setup.ledger.player("p1").history.isEmpty)
        #expect(try await setup.ledger.subscriptions("p1").isEmpty)
    }

    @Test func aFamilyMembersCopyGrantsTheEntitlementAndNoPeriodRewards() async throws {
        let setup = try Setup()
        let bought = try setup.subscribe("parent")
        _ = try await setup.fulfill(bought, as: "parent")
        let copy = try setup.simulator.shareWithFamily(
            transactionID: bought.transactionID, appAccountToken: AppAccountToken.forPlayer("child"))
        #expect(try await setup.fulfill(copy, as: "child").name == "granted")
        #expect(try await setup.fulfill(copy, as: "child").name == "alreadyFulfilled")
        #expect(try await setup.ledger.player("child").balances.isEmpty)
        #expect(try await setup.entitlements("child") == ["battle_pass"])
        #expect(try await setup.entitlements("parent") == ["battle_pass"])
        #expect(try await setup.ledger.player("parent").balances == ["gems": 500])
    }
}
