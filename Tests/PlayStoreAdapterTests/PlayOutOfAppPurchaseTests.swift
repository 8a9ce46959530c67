import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// A resubscription the player makes in the Play Store, outside the game: Google's purchase
/// carries no account of its own, only an `outOfAppPurchaseContext` naming the subscription that
/// expired before it. The ledger gives it to that subscription's player and acknowledges it with
/// `externalAccountIds`, so Google attributes it from then on.
@Suite struct PlayOutOfAppPurchaseTests {
    static let product = "vip_monthly"
    typealias Kind = DeveloperNotification.SubscriptionNotification.Kind

    /// A subscription of `player`'s that lapsed; fulfilled through the ledger when `fulfilled`.
    static func lapsedSubscription(_ setup: PlayLedgerSetup, of player: String, fulfilled: Bool = true) async throws
        -> String
    {
        let token = setup.play.subscribe(productID: product, accountID: player)
        if fulfilled { #expect(try await setup.fulfill(token, product, as: player).name == "granted") }
        setup.clock.advance(seconds: 31 * 86_400)
        setup.play.expireSubscription(token)
        return token
    }

    /// Pushes SUBSCRIPTION_PURCHASED for `token` through a processor with `resolver`.
    static func pushPurchased(
        _ setup: PlayLedgerSetup, _ token: String, resolver: @escaping @Sendable (String?) -> String? = { $0 }
    ) async throws -> PlayNotificationOutcome {
        try await setup.processor(resolver: resolver).process(
            headers: try setup.signer.headers(), body: setup.play.subscriptionBody(for: token, kind: .purchased))
    }

    @Test(arguments: LedgerTestEngine.allCases)
    func aPlayStoreResubscriptionGoesToThePlayerOfTheExpiredChainAndIsAttributed(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine, attributesOutOfAppPurchases: true)
        let expired = try await Self.lapsedSubscription(setup, of: "p1")
        let token = try #require(setup.play.resubscribeOutOfApp(expiredToken: expired))
        let stored = try #require(setup.play.storedSubscription(token))
        #expect(stored.externalAccountIdentifiers == nil && stored.outOfAppPurchaseContext?.expiredPurchaseToken == expired)
        // No resolver knows any account: only the link the ledger stored names the player.
        guard case .subscription(let effect) = try await Self.pushPurchased(setup, token, resolver: { _ in nil }) else {
            Issue.record("the push must apply to the subscription")
            return
        }
        #expect(effect.period?.name == "granted" && effect.note.contains("out-of-app resubscription"))
        #expect(try await setup.ledger.subscription(setup.key(token))?.playerID == "p1")
        #expect(try await setup.ledger.entitlements("p1").statuses["vip_club"] == .owned)
        // Acknowledged with the player's account, which the purchase now reports in place of
        // the context (Google removes it on acknowledgement).
        #expect(setup.play.isSubscriptionAcknowledged(token))
        #expect(setup.play.storedSubscription(token)?.outOfAppPurchaseContext == nil)
        #expect(setup.play.subscriptionAttribution(token) == PlayExternalAccountIDs(obfuscatedAccountId: "p1"))
        #expect(setup.play.storedSubscription(token)?.externalAccountIdentifiers?.obfuscatedExternalAccountId == "p1")
        // The client's later delivery of the same purchase grants nothing more.
        #expect(try await setup.fulfill(token, Self.product, as: "p1").name == "alreadyFulfilled")
    }

    @Test func withoutAStoredLinkTheExpiredAccountIsResolved() async throws {
        let setup = try PlayLedgerSetup(attributesOutOfAppPurchases: true)
        let expired = try await Self.lapsedSubscription(setup, of: "p7", fulfilled: false)
        let token = try #require(setup.play.resubscribeOutOfApp(expiredToken: expired))
        guard case .subscription(let effect) = try await Self.pushPurchased(setup, token) else {
            Issue.record("the push must apply to the subscription")
            return
        }
        #expect(effect.period?.name == "granted")
        #expect(try await setup.ledger.subscription(setup.key(token))?.playerID == "p7")
        #expect(setup.play.subscriptionAttribution(token)?.obfuscatedAccountId == "p7")
    }

    @Test func aResubscriptionNoPlayerCanBeFoundForGrantsNothingAndStaysUnacknowledged() async throws {
        let setup = try PlayLedgerSetup(attributesOutOfAppPurchases: true)
        let expired = try await Self.lapsedSubscription(setup, of: "p7", fulfilled: false)
        let token = try #require(setup.play.resubscribeOutOfApp(expiredToken: expired))
        guard case .unresolved(let record) = try await Self.pushPurchased(setup, token, resolver: { _ in nil }) else {
            Issue.record("no player may be guessed")
            return
        }
        #expect(record.outcome.contains("no player for account p7"))
        #expect(try await setup.ledger.subscription(setup.key(token)) == nil)
        #expect(!setup.play.isSubscriptionAcknowledged(token))
    }

    @Test func aClientDeliveryIsBoundToTheExpiredSubscriptionsAccount() async throws {
        let setup = try PlayLedgerSetup(attributesOutOfAppPurchases: true)
        let expired = try await Self.lapsedSubscription(setup, of: "p1")
        let token = try #require(setup.play.resubscribeOutOfApp(expiredToken: expired))
        let stolen = try await setup.fulfill(token, Self.product, as: "p2")
        #expect(stolen.rejection != nil)
        #expect(try await setup.fulfill(token, Self.product, as: "p1").name == "granted")
        #expect(setup.play.subscriptionAttribution(token)?.obfuscatedAccountId == "p1")
    }

    @Test func anInAppPurchaseIsNeverSentAccountIDsAndAnAcknowledgedOneIsNotAcknowledgedAgain() async throws {
        let setup = try PlayLedgerSetup(attributesOutOfAppPurchases: true)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        #expect(try await setup.fulfill(token, Self.product, as: "p1").name == "granted")
        #expect(setup.play.isSubscriptionAcknowledged(token) && setup.play.subscriptionAttribution(token) == nil)
        #expect(setup.play.callCount(.subscriptionAcknowledge) == 1)
        setup.clock.advance(seconds: 30 * 86_400)
        setup.play.renewSubscription(token)
        guard case .subscription(let renewal) = try await Self.pushPurchased(setup, token) else {
            Issue.record("the renewal must apply")
            return
        }
        #expect(renewal.period?.name == "granted")
        // The renewal's finish read the subscription, saw it acknowledged, and posted nothing.
        #expect(setup.play.callCount(.subscriptionAcknowledge) == 1)
    }

    @Test func withoutAttributionOrWithAnIDGoogleWouldRefuseTheAcknowledgementCarriesNoIDs() async throws {
        let plain = try PlayLedgerSetup()
        let expired = try await Self.lapsedSubscription(plain, of: "p1")
        let token = try #require(plain.play.resubscribeOutOfApp(expiredToken: expired))
        #expect(try await plain.fulfill(token, Self.product, as: "p1").name == "granted")
        #expect(plain.play.isSubscriptionAcknowledged(token) && plain.play.subscriptionAttribution(token) == nil)

        let long = String(repeating: "a", count: PlayExternalAccountIDs.characterCountMax + 1)
        let setup = try PlayLedgerSetup(accountBinding: { _ in long }, attributesOutOfAppPurchases: true)
        let old = setup.play.subscribe(productID: Self.product, accountID: long)
        #expect(try await setup.fulfill(old, Self.product, as: "p1").name == "granted")
        setup.clock.advance(seconds: 31 * 86_400)
        setup.play.expireSubscription(old)
        let next = try #require(setup.play.resubscribeOutOfApp(expiredToken: old))
        #expect(try await setup.fulfill(next, Self.product, as: "p1").name == "granted")
        #expect(setup.play.isSubscriptionAcknowledged(next) && setup.play.subscriptionAttribution(next) == nil)
    }

    @Test func theSimulatorRefusesAccountIDsOnAnythingButAnUnattributedResubscription() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        await #expect(throws: PlayAPIError.self) {
            try await setup.play.acknowledgeSubscription(
                packageName: PlayLedgerSetup.packageName, storeProductID: Self.product, token: token,
                externalAccountIDs: PlayExternalAccountIDs(obfuscatedAccountId: "p1"))
        }
        #expect(!setup.play.isSubscriptionAcknowledged(token))
        #expect(setup.play.resubscribeOutOfApp(expiredToken: token) == nil, "only an expired subscription is followed")
    }

    /// Hostile values in the context Google returns: each is refused or followed, never thrown,
    /// and never grants to a player the context does not name.
    static let hostileValues = [
        "", "\u{0}", String(repeating: "t", count: PlayPayloadLimits.purchaseTokenByteCountMax + 1), "unknown-token",
    ]

    @Test(arguments: 0..<hostileValues.count)
    func hostileContextsNeverGrantToAGuess(_ hostileIndex: Int) async throws {
        let hostile = Self.hostileValues[hostileIndex]
        let setup = try PlayLedgerSetup()
        let token = setup.play.subscribe(productID: Self.product, accountID: nil)
        var purchase = try #require(setup.play.storedSubscription(token))
        purchase.externalAccountIdentifiers = nil
        for (index, account) in [hostile, "p9"].enumerated() {
            purchase.outOfAppPurchaseContext = .init(
                expiredExternalAccountIdentifiers: .init(obfuscatedExternalAccountId: account), expiredPurchaseToken: hostile)
            let processor = PlayNotificationProcessor(
                api: FixedSubscriptionAPI(purchase: purchase, play: setup.play), packageName: PlayLedgerSetup.packageName,
                ledger: setup.ledger, authenticator: setup.signer.authenticator(),
                playerResolver: { $0 == "p9" ? "p9" : nil })
            let outcome = try await processor.process(
                headers: try setup.signer.headers(),
                body: setup.play.subscriptionBody(for: token, kind: .purchased, messageID: "m-\(index)"))
            let owner = try await setup.ledger.subscription(setup.key(token))?.playerID
            if account == "p9" {
                #expect(owner == "p9", "\(outcome)")
            } else {
                guard case .unresolved = outcome else {
                    Issue.record("a context naming nobody must stay unresolved: \(outcome)")
                    return
                }
                #expect(owner == nil)
            }
        }
    }
}
