import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// Google Play subscriptions: each paid period (keyed by its order ID) granted once, the chain
/// (keyed by the purchase token) following what `purchases.subscriptionsv2.get` reports after
/// every notification, acknowledgement after the commit, upgrades and refunds; on each store engine.
@Suite struct PlaySubscriptionTests {
    typealias Kind = DeveloperNotification.SubscriptionNotification.Kind
    static let product = "vip_monthly"
    static let day: TimeInterval = 86_400

    /// The chain of `token` as the ledger holds it.
    static func chain(_ setup: PlayLedgerSetup, _ token: String) async throws -> SubscriptionRecord {
        try #require(try await setup.ledger.subscription(setup.key(token)))
    }

    /// Whether `player` holds the VIP entitlement now.
    static func isVIP(_ setup: PlayLedgerSetup, _ player: String) async throws -> Bool {
        try await setup.ledger.entitlements(player).statuses["vip_club"] == .owned
    }

    /// Pushes a subscription notification of `kind` for `token` and returns its effect.
    static func push(_ setup: PlayLedgerSetup, _ token: String, _ kind: Kind, messageID: String? = nil) async throws
        -> SubscriptionEffect
    {
        let outcome = try await setup.push(setup.play.subscriptionBody(for: token, kind: kind, messageID: messageID))
        guard case .subscription(let effect) = outcome else {
            Issue.record("\(kind) gave \(outcome)")
            throw CancellationError()
        }
        return effect
    }

    @Test(arguments: LedgerTestEngine.allCases) func aPurchaseIsGrantedOnceAcknowledgedAndARestoreGrantsNothing(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        let first = try await setup.fulfill(token, Self.product, as: "p1")
        #expect(first.name == "granted")
        #expect(first.receipt?.record.key == setup.key("GPA.1111-0000-0000-00001"))
        #expect(setup.play.isSubscriptionAcknowledged(token))
        await #expect(try setup.gems("p1") == 300)
        #expect(try await Self.isVIP(setup, "p1"))
        let chain = try await Self.chain(setup, token)
        #expect(chain.state == .active && chain.periodCount == 1 && chain.playerID == "p1")
        // The same token on a new device, and the SUBSCRIPTION_PURCHASED push, grant nothing more.
        #expect(try await setup.fulfill(token, Self.product, as: "p1").name == "alreadyFulfilled")
        let pushed = try await Self.push(setup, token, .purchased)
        #expect(pushed.period?.name == "alreadyFulfilled")
        await #expect(try setup.gems("p1") == 300)
        // Another player's delivery of the same subscription is refused (its account binding names p1).
        #expect(try await setup.fulfill(token, Self.product, as: "p2").rejection != nil)
        await #expect(try setup.gems("p2") == 0)
    }

    @Test(arguments: LedgerTestEngine.allCases) func aPurchasedPushFulfillsForTheResolvedPlayerOncePerMessage(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        let effect = try await Self.push(setup, token, .purchased, messageID: "s-1")
        #expect(effect.period?.name == "granted")
        #expect(effect.update?.name == "unchanged" || effect.update?.name == "applied")
        guard case .alreadyProcessed(let record) = try await setup.push(setup.play.subscriptionBody(for: token, kind: .purchased, messageID: "s-1"))
        else {
            Issue.record("a redelivered message must not be applied again")
            return
        }
        #expect(record.type == "SUBSCRIPTION_PURCHASED" && record.transaction == setup.key(token))
        await #expect(try setup.gems("p1") == 300)
        #expect(setup.play.isSubscriptionAcknowledged(token))
    }

    @Test(arguments: LedgerTestEngine.allCases) func renewalsGrantEachPeriodOnceAndTheChainFollowsGoogle(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        setup.clock.advance(seconds: 30 * Self.day)
        setup.play.renewSubscription(token)
        let renewed = try await Self.push(setup, token, .renewed)
        #expect(renewed.period?.receipt?.record.key == setup.key("GPA.1111-0000-0000-00001..0"))
        #expect(renewed.period?.name == "granted")
        // A second push of the same renewal (a new message) grants nothing.
        #expect(try await Self.push(setup, token, .renewed).period?.name == "alreadyFulfilled")
        await #expect(try setup.gems("p1") == 600)
        let chain = try await Self.chain(setup, token)
        #expect(chain.periodCount == 2 && chain.latestPeriodID == "GPA.1111-0000-0000-00001..0")
        #expect(setup.play.callCount(.subscriptionAcknowledge) >= 1)
    }

    @Test(arguments: LedgerTestEngine.allCases) func graceHoldAndRecoveryMoveTheEntitlement(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        setup.clock.advance(seconds: 30 * Self.day)
        setup.play.failSubscriptionRenewal(token, graceSeconds: 3 * Self.day)
        let grace = try await Self.push(setup, token, .inGracePeriod)
        #expect(grace.period?.name == "alreadyFulfilled" && grace.update?.name == "applied")
        #expect(try await Self.chain(setup, token).state == .gracePeriod)
        #expect(try await Self.isVIP(setup, "p1"), "a player in grace keeps the VIP pass")
        setup.clock.advance(seconds: 3 * Self.day)
        setup.play.holdSubscription(token)
        #expect(try await Self.push(setup, token, .onHold).update?.name == "applied")
        #expect(try await Self.chain(setup, token).state == .billingRetry)
        #expect(try await !Self.isVIP(setup, "p1"), "account hold ends access")
        setup.clock.advance(seconds: Self.day)
        setup.play.recoverSubscription(token)
        let recovered = try await Self.push(setup, token, .recovered)
        #expect(recovered.period?.name == "granted")
        #expect(try await Self.chain(setup, token).state == .active)
        #expect(try await Self.isVIP(setup, "p1"))
        await #expect(try setup.gems("p1") == 600)
    }

    @Test(arguments: LedgerTestEngine.allCases) func cancelRestartPauseAndExpiry(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        setup.clock.advance(seconds: Self.day)
        setup.play.cancelSubscription(token)
        #expect(try await Self.push(setup, token, .canceled).update?.name == "applied")
        var chain = try await Self.chain(setup, token)
        #expect(chain.state == .active && chain.willAutoRenew == false)
        #expect(try await Self.isVIP(setup, "p1"), "a canceled subscription entitles until it expires")
        setup.clock.advance(seconds: Self.day)
        setup.play.restartSubscription(token)
        _ = try await Self.push(setup, token, .restarted)
        #expect(try await Self.chain(setup, token).willAutoRenew == true)
        setup.clock.advance(seconds: Self.day)
        setup.play.pauseSubscription(token)
        _ = try await Self.push(setup, token, .paused)
        #expect(try await Self.chain(setup, token).state == .paused)
        #expect(try await !Self.isVIP(setup, "p1"))
        setup.clock.advance(seconds: Self.day)
        setup.play.expireSubscription(token)
        _ = try await Self.push(setup, token, .expired)
        chain = try await Self.chain(setup, token)
        #expect(chain.state == .expired && chain.isEntitled(at: setup.clock.now()) == false)
        await #expect(try setup.gems("p1") == 300)
    }

    /// Without any push, a lapsed period stops entitling when read after its end.
    @Test(arguments: LedgerTestEngine.allCases) func aLapsedPeriodStopsEntitlingWithoutAWrite(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1", periodSeconds: 7 * Self.day)
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        #expect(try await Self.isVIP(setup, "p1"))
        setup.clock.advance(seconds: 7 * Self.day + 1)
        #expect(try await !Self.isVIP(setup, "p1"))
    }

    @Test(arguments: LedgerTestEngine.allCases) func aRevokeEndsTheEntitlementAndTheVoidedPeriodIsTakenBackOnce(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        setup.clock.advance(seconds: Self.day)
        setup.play.revokeSubscription(token)
        let revoked = try await Self.push(setup, token, .revoked)
        #expect(revoked.period == nil && revoked.update?.name == "applied")
        #expect(try await Self.chain(setup, token).state == .revoked)
        #expect(try await !Self.isVIP(setup, "p1"))
        setup.play.voidSubscriptionPeriod(token)
        let report = try await setup.sync().run()
        #expect(report.recorded == 1)
        await #expect(try setup.gems("p1") == 0)
        let again = try await setup.sync().run()
        #expect(again.recorded == 0)
        await #expect(try setup.gems("p1") == 0)
    }

    @Test(arguments: LedgerTestEngine.allCases) func aSubscriptionVoidPushIsAppliedOnceGoogleListsIt(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        setup.clock.advance(seconds: 30 * Self.day)
        setup.play.renewSubscription(token)
        _ = try await Self.push(setup, token, .renewed)
        await #expect(try setup.gems("p1") == 600)
        // A refund of the first (earlier) period: its gems go, the subscription stays.
        typealias Voided = DeveloperNotification.VoidedPurchaseNotification
        var unlisted = DeveloperNotification()
        unlisted.voidedPurchaseNotification = Voided(
            purchaseToken: token, orderId: "GPA.1111-0000-0000-00001", productType: Voided.subscriptionProductType,
            refundType: Voided.fullRefundType)
        guard case .unconfirmed = try await setup.push(setup.play.envelope(unlisted)) else {
            Issue.record("a void Google does not list yet must wait")
            return
        }
        setup.play.voidSubscriptionPeriod(token, orderID: "GPA.1111-0000-0000-00001")
        guard case .revocation(let outcome, _) = try await setup.push(setup.play.envelope(unlisted)) else {
            Issue.record("a listed subscription void must be applied")
            return
        }
        #expect(outcome.record?.disposition == .applied)
        await #expect(try setup.gems("p1") == 300)
        #expect(try await Self.isVIP(setup, "p1"))
        #expect(try await setup.sync().run().recorded == 0, "the sync must not apply the same void again")
        await #expect(try setup.gems("p1") == 300)
    }

    /// An upgrade's new token names the old one as `linkedPurchaseToken`: the old chain ends,
    /// so one purchase never entitles twice.
    @Test(arguments: LedgerTestEngine.allCases) func anUpgradeRetiresTheLinkedToken(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let old = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(old, Self.product, as: "p1")
        setup.clock.advance(seconds: 10 * Self.day)
        let new = setup.play.subscribe(productID: Self.product, accountID: "p1", replacing: old)
        let upgraded = try await Self.push(setup, new, .purchased)
        #expect(upgraded.period?.name == "granted")
        let retired = try await Self.chain(setup, old)
        #expect(retired.state == .expired && !retired.isEntitled(at: setup.clock.now()))
        #expect(try await Self.chain(setup, new).isEntitled(at: setup.clock.now()))
        let entitled = try await setup.ledger.subscriptions("p1").filter { $0.isEntitled }
        #expect(entitled.count == 1)
        #expect(try await Self.isVIP(setup, "p1"))
        // The old token's late EXPIRED push changes nothing more.
        _ = try await Self.push(setup, old, .expired)
        #expect(try await Self.chain(setup, old).state == .expired)
        // Another player cannot take over the chain through the replacing token.
        let stolen = setup.play.subscribe(productID: Self.product, accountID: "p2", replacing: new)
        #expect(try await setup.fulfill(stolen, Self.product, as: "p2").rejection?.reason == .ownedByAnotherPlayer)
    }

    @Test(arguments: LedgerTestEngine.allCases) func pendingPurchasesGrantOnlyOncePaid(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let cancelled = setup.play.subscribe(productID: Self.product, accountID: "p1", pending: true)
        #expect(try await setup.fulfill(cancelled, Self.product, as: "p1").rejection?.reason == .pending)
        setup.play.cancelPendingSubscription(cancelled)
        let effect = try await Self.push(setup, cancelled, .pendingPurchaseCanceled)
        #expect(effect.period == nil && effect.update == nil)
        let paid = setup.play.subscribe(productID: Self.product, accountID: "p1", pending: true)
        setup.play.confirmPendingSubscription(paid)
        #expect(try await Self.push(setup, paid, .purchased).period?.name == "granted")
        await #expect(try setup.gems("p1") == 300)
    }

    /// A late push is dated at its own event time: it never overwrites a newer state.
    @Test(arguments: LedgerTestEngine.allCases) func aLateOlderPushIsStale(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        setup.clock.advance(seconds: Self.day)
        setup.play.pauseSubscription(token)
        var late = DeveloperNotification()
        late.subscriptionNotification = .init(notificationType: Kind.canceled.rawValue, purchaseToken: token)
        late.eventTimeMillis = String(setup.clock.now().addingTimeInterval(-3_600).ledgerMilliseconds)
        _ = try await Self.push(setup, token, .paused)
        guard case .subscription(let effect) = try await setup.push(setup.play.envelope(late)) else {
            Issue.record("the late push must still be read back")
            return
        }
        #expect(effect.update?.name == "stale")
        #expect(try await Self.chain(setup, token).state == .paused)
    }

    @Test(arguments: LedgerTestEngine.allCases) func unknownTokensOutagesAndBadAnswers(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        guard case .unresolved(let record) = try await setup.push(setup.play.subscriptionBody(for: "no-such", kind: .renewed))
        else {
            Issue.record("an unknown token is unresolved")
            return
        }
        #expect(record.outcome.contains("could not be read"))
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        setup.play.fail(.subscriptionGet, with: .retryable("503"))
        let body = setup.play.subscriptionBody(for: token, kind: .purchased, messageID: "s-out")
        await #expect(throws: LedgerError.self) { try await setup.push(body) }
        #expect(try await !setup.isRecorded("s-out"), "Pub/Sub must redeliver after an outage")
        #expect(try await Self.push(setup, token, .purchased, messageID: "s-out").period?.name == "granted")
        // Nobody to grant to: recorded as unresolved, nothing granted.
        let orphan = setup.play.subscribe(productID: Self.product, accountID: nil)
        guard case .unresolved = try await setup.processor(resolver: { _ in nil }).process(
            headers: try setup.signer.headers(), body: setup.play.subscriptionBody(for: orphan, kind: .purchased))
        else {
            Issue.record("a subscription without a player is unresolved")
            return
        }
    }

    @Test(arguments: LedgerTestEngine.allCases) func aFailedAcknowledgementStaysPendingUntilRecovered(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        setup.play.fail(.subscriptionAcknowledge, with: .retryable("503"))
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        #expect(!setup.play.isSubscriptionAcknowledged(token))
        _ = try await setup.ledger.recover()
        #expect(setup.play.isSubscriptionAcknowledged(token))
        await #expect(try setup.gems("p1") == 300)
    }
}

/// What the verifier refuses in Google's subscription answer.
@Suite struct PlaySubscriptionVerifierTests {
    static func verify(_ purchase: SubscriptionPurchaseV2) async throws -> VerificationResult {
        let setup = try PlayLedgerSetup()
        let verifier = PlayPurchaseVerifier(
            api: FixedSubscriptionAPI(purchase: purchase, play: setup.play), packageName: PlayLedgerSetup.packageName,
            environment: .sandbox, subscriptionStoreProductIDs: ["vip_monthly"])
        return try await verifier.verify(PlayPurchaseVerifier.submission(token: "t", storeProductID: "vip_monthly", playerID: "p1"))
    }

    static func purchase(expiry: String? = "2026-12-02T10:00:00.123Z", order: String? = "GPA.1-2-3-4") -> SubscriptionPurchaseV2 {
        var purchase = SubscriptionPurchaseV2()
        purchase.subscriptionState = SubscriptionPurchaseV2.State.active.rawValue
        purchase.startTime = "2026-11-02T10:00:00Z"
        purchase.lineItems = [.init(productId: "vip_monthly", expiryTime: expiry, latestSuccessfulOrderId: order)]
        return purchase
    }

    @Test func theLatestOrderAndExpiryBecomeThePeriod() async throws {
        guard case .verified(let facts) = try await Self.verify(Self.purchase()) else {
            Issue.record("a paid subscription verifies")
            return
        }
        #expect(facts.subscriptionPeriod?.periodID == "GPA.1-2-3-4" && facts.subscriptionPeriod?.chainID == "t")
        #expect(facts.subscriptionPeriod?.expiresAt.ledgerMilliseconds == 1_796_205_600_123)
        #expect(facts.state == .purchased && facts.storeProductType == .autoRenewable)
        var offset = Self.purchase(expiry: "2026-12-02T15:30:00.5+05:30")
        offset.testPurchase = .init()
        guard case .verified(let shifted) = try await Self.verify(offset) else { return }
        #expect(shifted.subscriptionPeriod?.expiresAt.ledgerMilliseconds == 1_796_205_600_500)
        #expect(shifted.environment == .sandbox)
    }

    @Test func malformedOrMissingFieldsAreInvalid() async throws {
        for (purchase, expected) in [
            (Self.purchase(expiry: "next tuesday"), "is not an RFC 3339 timestamp"),
            (Self.purchase(expiry: "9999-12-31T23:59:59Z"), "milliseconds"),
            (Self.purchase(expiry: nil), "lineItems.expiryTime is missing"),
            (Self.purchase(order: nil), "latestSuccessfulOrderId is missing"),
            (Self.purchase(order: String(repeating: "9", count: 300)), "bytes long"),
        ] {
            guard case .invalid(let reason) = try await Self.verify(purchase) else {
                Issue.record("\(expected): must be invalid")
                continue
            }
            #expect(reason.contains(expected), "\(reason)")
        }
        var unknown = Self.purchase()
        unknown.subscriptionState = "SUBSCRIPTION_STATE_SOMETHING_NEW"
        guard case .verified(let facts) = try await Self.verify(unknown) else { return }
        #expect(facts.state.rawValue == "playSubscriptionState:SUBSCRIPTION_STATE_SOMETHING_NEW")
        var other = Self.purchase()
        other.lineItems?[0].productId = "another"
        guard case .invalid = try await Self.verify(other) else {
            Issue.record("a purchase without the product's line item is invalid")
            return
        }
    }
}

/// Answers `subscriptionsv2.get` with one fixed purchase; everything else as the simulator.
struct FixedSubscriptionAPI: PlayPurchasesAPI {
    let purchase: SubscriptionPurchaseV2
    let play: PlayStoreSimulator

    func productPurchase(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError)
        -> ProductPurchase
    {
        try await play.productPurchase(packageName: packageName, storeProductID: storeProductID, token: token)
    }

    func acknowledge(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {}

    func consume(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {}

    func voidedPurchases(
        packageName: String, startTime: Date, endTime: Date?, pageToken: String?, maxResults: Int,
        includeQuantityBasedPartialRefund: Bool, includeSubscriptions: Bool
    ) async throws(PlayAPIError) -> VoidedPurchasesPage {
        VoidedPurchasesPage(voidedPurchases: [], nextPageToken: nil)
    }

    func subscriptionPurchase(packageName: String, token: String) async throws(PlayAPIError) -> SubscriptionPurchaseV2 {
        purchase
    }

    func acknowledgeSubscription(
        packageName: String, storeProductID: String, token: String, externalAccountIDs: PlayExternalAccountIDs?
    ) async throws(PlayAPIError) {}

    func reviewRefund(packageName: String, orderID: String, request: PlayRefundReviewRequest) async throws(PlayAPIError) {
        try await play.reviewRefund(packageName: packageName, orderID: orderID, request: request)
    }

    func productPurchaseV2(packageName: String, token: String) async throws(PlayAPIError) -> ProductPurchaseV2 {
        try await play.productPurchaseV2(packageName: packageName, token: token)
    }

    func order(packageName: String, orderID: String) async throws(PlayAPIError) -> PlayOrder {
        try await play.order(packageName: packageName, orderID: orderID)
    }

    func orders(packageName: String, orderIDs: [String]) async throws(PlayAPIError) -> [PlayOrder] {
        try await play.orders(packageName: packageName, orderIDs: orderIDs)
    }
}
