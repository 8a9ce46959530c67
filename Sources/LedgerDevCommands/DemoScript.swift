import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import SteamAdapter
import StripeAdapter
import TestStoreAdapter

/// The demo's scenario, step by step. Every step checks its own result.
struct DemoScript {
    let ledger: Ledger
    let testStore: TestStore
    let appStore: AppStoreSimulator
    let appStoreVerifier: SignedDataVerifier
    let playStore: PlayStoreSimulator
    let pushSigner: PubSubPushSigner
    let playPlayer = "player-kibble-3"
    static let packageName = "com.kibblestreet.td"
    let faults: ScriptedFaultInjector
    let narrator: DemoNarrator
    let player = "player-kibble-1"
    let appStorePlayer = "player-kibble-2"
    let webPlayer = "player-kibble-4"
    let steamPlayer = "player-kibble-5"
    let stores: WebAndSteam
    static let bundleID = "com.kibblestreet.td"

    init(catalog: ProductCatalog, store: any LedgerStore, narrator: DemoNarrator) throws {
        let clock = SystemClock()
        testStore = TestStore(clock: clock)
        // A simulated App Store with its own generated certificate chain: its signed
        // transactions go through the same offline verification as Apple's.
        appStore = try AppStoreSimulator(bundleID: Self.bundleID, environment: .sandbox, clock: clock)
        appStoreVerifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [appStore.rootCertificateDER], bundleID: Self.bundleID, environment: .sandbox))
        // A simulated Google Play Developer API: tokens verified by asking it, finished by consume/acknowledge.
        playStore = PlayStoreSimulator(packageName: Self.packageName, clock: clock)
        // Signs Pub/Sub push tokens as Google does, with a generated key the processor trusts.
        pushSigner = try PubSubPushSigner(clock: clock)
        faults = ScriptedFaultInjector()
        self.narrator = narrator
        stores = try WebAndSteam(clock: clock)
        var configuration = LedgerConfiguration.sandbox
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        // The web shop names the player in client_reference_id; Steam by the buyer's Steam ID.
        configuration.storeAccountBindings[.stripe] = { $0 }
        configuration.storeAccountBindings[.steam] = { [steamPlayer] player in player == steamPlayer ? String(Self.steamID) : "" }
        ledger = try Ledger(
            catalog: Self.withWebAndSteam(catalog), store: store,
            verifier: StoreRoutingVerifier([
                .test: testStore.verifier,
                .appStore: AppStoreTransactionVerifier(signedDataVerifier: appStoreVerifier),
                .playStore: PlayPurchaseVerifier(api: playStore, packageName: Self.packageName, environment: .sandbox),
                .stripe: StripeCheckoutVerifier(api: stores.stripeAPI, environment: .sandbox),
                .steam: SteamOrderVerifier(api: stores.steamAPI, environment: .sandbox),
            ]),
            finisher: StoreRoutingFinisher([
                .test: testStore, .appStore: AppStoreFinisher(),
                .playStore: PlayFinisher(api: playStore, packageName: Self.packageName),
                .stripe: StripeFinisher(), .steam: SteamFinisher(),
            ]),
            source: testStore,
            clock: clock, faults: faults, configuration: configuration)
    }

    func run() async throws {
        let first = try await purchaseAndDuplicate()
        try await sameIDOtherProduct(first)
        try await grantFailureThenRetry()
        try await finishFailureThenRecovery()
        try await pendingThenApproved()
        try await resetKeepsLedger(first)
        try await appStorePurchaseAndRefund()
        try await playPurchaseAndVoid()
        try await subscriptionRenewsThenExpires()
        try await webShopPurchaseAndRefund()
        try await steamPurchaseAndRefund()
    }

    private func playPurchaseAndVoid() async throws {
        let token = playStore.purchase(productID: "gems_large", accountID: AppAccountToken.forPlayer(playPlayer))
        let submission = PlayPurchaseVerifier.submission(token: token, storeProductID: "gems_large", playerID: playPlayer)
        let outcome = try await ledger.fulfill(submission)
        try expect(outcome.name == "granted" && playStore.isConsumed(token), "a Play purchase grants, then is consumed", outcome)
        narrator.step(
            "9. Google Play",
            "purchase token verified with the Play Developer API -> \(describe(outcome)); consumed after the commit")
        _ = playStore.void(token: token)
        let processor = PlayNotificationProcessor(
            api: playStore, packageName: Self.packageName, ledger: ledger, authenticator: pushSigner.authenticator(),
            playerResolver: { [playPlayer] account in account == AppAccountToken.forPlayer(playPlayer) ? playPlayer : nil })
        let body = playStore.voidedBody(for: token, refundType: 1)
        var forged = PubSubPushSigner.Token()
        forged.audience = "https://attacker.example"
        let refused = try await processor.process(headers: try pushSigner.headers(forged), body: body)
        let gemsAfterForgery = try await ledger.player(playPlayer).balances["gems"] ?? 0
        try expect(refused.httpStatus == 403 && gemsAfterForgery > 0,
            "a push with another audience is refused and changes nothing", refused)
        let outcomeOfVoid = try await processor.process(headers: try pushSigner.headers(), body: body)
        let gems = try await ledger.player(playPlayer).balances["gems"] ?? 0
        try expect(gems == 0, "a voided purchase RTDN claws back the gems", outcomeOfVoid)
        narrator.step(
            "   voided purchase (RTDN)",
            "a push whose OIDC token names another audience -> refused (403); the authenticated push, "
                + "confirmed by voidedpurchases.list -> refund applied; gems back to \(gems)")
    }

    private func purchaseAndDuplicate() async throws -> TransactionSubmission {
        let purchase = testStore.purchase(storeProductID: "test.gems_small", playerID: player)
        let outcome = try await ledger.fulfill(purchase)
        try expect(outcome.name == "granted" && outcome.receipt?.finished == true, "first delivery grants and finishes", outcome)
        narrator.step("1. purchase", "\(purchase.transactionID) -> \(describe(outcome)); gems = \(try await balance("gems"))")
        let duplicate = try await ledger.fulfill(purchase)
        try expect(duplicate.name == "alreadyFulfilled", "a duplicate delivery grants nothing", duplicate)
        narrator.step("2. duplicate delivery", "\(purchase.transactionID) again -> \(describe(duplicate)); gems still \(try await balance("gems"))")
        return purchase
    }

    private func sameIDOtherProduct(_ first: TransactionSubmission) async throws {
        let forged = TestStoreTransaction(
            transactionID: first.transactionID, storeProductID: "test.gems_large", playerID: player, purchaseDate: Date())
        let outcome = try await ledger.fulfill(forged.submission())
        try expect(outcome.rejection?.reason == .conflictProduct, "same ID, other product is rejected", outcome)
        narrator.step("3. same transaction ID, another product", "\(first.transactionID) as gems_large -> \(describe(outcome))")
    }

    private func grantFailureThenRetry() async throws {
        let purchase = testStore.purchase(storeProductID: "test.starter_bundle", playerID: player)
        faults.arm(.betweenRewards, .error)
        let gemsBefore = try await balance("gems")
        do {
            _ = try await ledger.fulfill(purchase)
            throw DemoFailure(message: "the injected grant failure did not fail the fulfillment")
        } catch let error as LedgerError {
            guard try await balance("gems") == gemsBefore, !testStore.isFinished(purchase.transactionID) else {
                throw DemoFailure(message: "a failed grant left partial state: \(error)")
            }
            narrator.step(
                "4. grant fails between two rewards",
                "\(error.description); everything rolled back (gems still \(gemsBefore)), the store transaction stays unfinished")
        }
        let retry = try await ledger.fulfill(purchase)
        try expect(retry.name == "granted", "the retry grants exactly once", retry)
        narrator.step("   retry", "\(purchase.transactionID) -> \(describe(retry)); gems = \(try await balance("gems")), coins = \(try await balance("coins"))")
    }

    private func finishFailureThenRecovery() async throws {
        let purchase = testStore.purchase(storeProductID: "test.coins_pack", playerID: player)
        testStore.failNext(.finish)
        let outcome = try await ledger.fulfill(purchase)
        try expect(outcome.name == "granted" && outcome.receipt?.finished == false, "the grant is kept when finish fails", outcome)
        narrator.step("5. finish fails after commit", "\(purchase.transactionID) -> \(describe(outcome)); coins = \(try await balance("coins")) kept, finish pending")
        let coins = try await balance("coins")
        let report = try await ledger.recover()
        let coinsAfter = try await balance("coins")
        try expect(report.isClean && testStore.isFinished(purchase.transactionID) && coinsAfter == coins,
            "recovery retries only the finish", report)
        narrator.step("   recover()", "finished \(report.finishesSucceeded.map(\.description)); coins still \(coins), nothing granted twice")
    }

    private func pendingThenApproved() async throws {
        let pending = testStore.purchase(storeProductID: "test.weekly_offer", playerID: player, state: .pending)
        let first = try await ledger.fulfill(pending)
        try expect(first.rejection?.reason == .pending, "a pending payment grants nothing", first)
        narrator.step("6. pending payment (Ask to Buy)", "\(pending.transactionID) -> \(describe(first))")
        guard let approved = testStore.approve(pending.transactionID) else { throw DemoFailure(message: "lost the pending transaction") }
        let second = try await ledger.fulfill(approved)
        try expect(second.name == "granted", "the approved payment grants once", second)
        narrator.step("   approved", "\(pending.transactionID) -> \(describe(second)); xp_booster = \(try await ledger.player(player).inventory["xp_booster"] ?? 0)")
    }

    private func resetKeepsLedger(_ first: TransactionSubmission) async throws {
        let removeAds = testStore.purchase(storeProductID: "test.remove_ads", playerID: player)
        _ = try await ledger.fulfill(removeAds)
        try await ledger.resetPlayer(player)
        let snapshot = try await ledger.player(player)
        try expect(snapshot.balances.isEmpty && snapshot.entitlements.map(\.entitlementID) == ["remove_ads"],
            "a reset clears progress and keeps entitlements", snapshot.balances)
        narrator.step("7. Reset Game", "balances \(snapshot.balances), entitlements \(snapshot.entitlements.map(\.entitlementID)), ledger keeps \(snapshot.history.count) transactions")
        let replay = try await ledger.fulfill(first)
        let gemsAfterReplay = try await balance("gems")
        try expect(replay.name == "alreadyFulfilled" && gemsAfterReplay == 0, "an old transaction after a reset grants nothing", replay)
        narrator.step("   replay after reset", "\(first.transactionID) -> \(describe(replay)); gems still 0")
    }

    private func appStorePurchaseAndRefund() async throws {
        let purchase = try appStore.purchase(
            productID: "com.kibblestreet.td.remove_ads", appAccountToken: AppAccountToken.forPlayer(appStorePlayer),
            type: .nonConsumable)
        guard let submission = AppStoreTransactionVerifier.submission(jws: purchase.jws, playerID: appStorePlayer) else {
            throw DemoFailure(message: "the simulated App Store signed an unreadable transaction")
        }
        let outcome = try await ledger.fulfill(submission)
        let adsAfterPurchase = try await ledger.adsAllowed(appStorePlayer, consent: true)
        try expect(outcome.name == "granted" && !adsAfterPurchase,
            "a verified signed transaction grants remove_ads", outcome)
        narrator.step(
            "8. App Store, signed",
            "StoreKit 2 JWS \(purchase.transactionID) verified offline (ES256, 3-certificate chain, Apple's OIDs) -> \(describe(outcome)); ads allowed: false")
        var forged = submission
        forged.payload = String(forged.payload.dropLast(4)) + "AAAA"
        let rejected = try await ledger.fulfill(forged)
        try expect(rejected.rejection?.reason == .unverified, "a forged signature never grants", rejected)
        narrator.step("   forged signature", "same JWS with its signature altered -> \(describe(rejected))")
        _ = try appStore.revoke(transactionID: purchase.transactionID)
        let refund = try appStore.notification(type: .refund, transactionID: purchase.transactionID)
        let processor = AppStoreNotificationProcessor(signedDataVerifier: appStoreVerifier, ledger: ledger)
        guard case .revocation(let revocation) = try await processor.process(refund),
            revocation.record?.disposition == .applied, try await ledger.adsAllowed(appStorePlayer, consent: true)
        else { throw DemoFailure(message: "a signed REFUND notification did not revoke remove_ads") }
        guard case .alreadyProcessed = try await processor.process(refund) else {
            throw DemoFailure(message: "a notification was applied twice")
        }
        narrator.step(
            "   REFUND notification",
            "signed App Store Server Notification V2 -> remove_ads revoked, ads allowed again; delivered twice, applied once")
    }

    /// An App Store subscription: bought, renewed once by a DID_RENEW notification, then EXPIRED.
    /// Skipped, and said so, on a catalog without an App Store subscription.
    private func subscriptionRenewsThenExpires() async throws {
        guard let product = ledger.catalog.products.first(where: { $0.kind == .autoRenewable && $0.storeProductIDs[.appStore] != nil }),
            let storeProductID = product.storeProductIDs[.appStore]
        else {
            narrator.step("10. subscription", "skipped: the catalog has no App Store subscription")
            return
        }
        let player = appStorePlayer
        let bought = try appStore.purchase(
            productID: storeProductID, appAccountToken: AppAccountToken.forPlayer(player), type: .autoRenewableSubscription)
        guard let submission = AppStoreTransactionVerifier.submission(jws: bought.jws, playerID: player) else {
            throw DemoFailure(message: "the simulated App Store signed an unreadable subscription")
        }
        let first = try await ledger.fulfill(submission)
        try expect(first.name == "granted", "the first period grants", first)
        narrator.step("10. subscription", "\(product.id) bought -> \(describe(first)); \(try await subscriptionLine(player))")
        let processor = AppStoreNotificationProcessor(signedDataVerifier: appStoreVerifier, ledger: ledger)
        let renewal = try appStore.renew(transactionID: bought.transactionID)
        let renewed = try await processor.process(try appStore.notification(type: .didRenew, transactionID: renewal.transactionID))
        guard case .subscription(let effect) = renewed, effect.period?.name == "granted" else {
            throw DemoFailure(message: "a DID_RENEW notification did not grant the next period: \(renewed)")
        }
        let restored = try appStore.restore(transactionID: renewal.transactionID)
        guard let restoredSubmission = AppStoreTransactionVerifier.submission(jws: restored.jws, playerID: player) else {
            throw DemoFailure(message: "the simulated App Store signed an unreadable restore")
        }
        let replay = try await ledger.fulfill(restoredSubmission)
        try expect(replay.name == "alreadyFulfilled", "a restored period grants nothing", replay)
        narrator.step(
            "   renewal (DID_RENEW)",
            "period \(renewal.payload.webOrderLineItemID ?? "?") granted once; its restore on a new device -> \(describe(replay)); \(try await subscriptionLine(player))")
        _ = try await processor.process(try appStore.expire(transactionID: renewal.transactionID))
        let entitled = try await ledger.entitlements(player).statuses
        try expect(
            product.rewards.lines.allSatisfy { entitled[$0.id] == .notOwned }, "an expired subscription entitles nothing", entitled)
        narrator.step("   EXPIRED", "\(try await subscriptionLine(player)); entitlements \(product.rewards.lines.map(\.id)) off")
    }

    /// The player's first subscription in one line: state, periods, gems.
    private func subscriptionLine(_ player: String) async throws -> String {
        guard let reading = try await ledger.subscriptions(player).first else { return "no subscription" }
        let gems = try await ledger.player(player).balances["gems"] ?? 0
        return "\(reading.state), \(reading.subscription.periodCount) period(s) granted, gems = \(gems)"
    }

    private func balance(_ currency: String) async throws -> Int64 { try await ledger.player(player).balances[currency] ?? 0 }

    private func describe(_ outcome: FulfillmentOutcome) -> String {
        switch outcome {
        case .granted(let receipt):
            let lines = receipt.record.grants.map(\.description).joined(separator: ", ")
            return "granted [\(lines)], finished: \(receipt.finished)"
        case .alreadyFulfilled(let receipt): return "alreadyFulfilled, finished: \(receipt.finished)"
        case .rejected(let rejection): return "rejected (\(rejection.reason.rawValue))"
        }
    }

    func expect(_ condition: Bool, _ promise: String, _ actual: Any) throws {
        guard condition else { throw DemoFailure(message: "\(promise); got \(actual)") }
    }
}
