import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// A subscription period Google voided before the ledger granted it: the voided purchases sync
/// records the refund under the period's order ID, and the grant that comes later takes it back.
@Suite struct PlaySubscriptionEarlyVoidTests {
    typealias Subscriptions = PlaySubscriptionTests
    static let product = Subscriptions.product

    /// The refunds the ledger recorded under `transactionID`.
    static func revocations(_ setup: PlayLedgerSetup, _ transactionID: String) async throws -> [RevocationRecord] {
        let key = setup.key(transactionID)
        return try await setup.ledger.store.read { reader throws(LedgerError) in try reader.revocationEvents(for: key, limit: 10) }
    }

    /// A renewal refunded before its push arrives: the refund waits for the period, and the
    /// period, once granted, is taken back once; the chain it was the latest of is revoked.
    @Test(arguments: LedgerTestEngine.allCases) func aRenewalVoidedBeforeItsGrantIsTakenBackWhenGranted(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        setup.clock.advance(seconds: 30 * Subscriptions.day)
        setup.play.renewSubscription(token)
        let voided = setup.play.voidSubscriptionPeriod(token)
        let renewalOrderID = try #require(voided.orderId)
        #expect(renewalOrderID.hasSuffix("..0"), "the void must be of the renewal, not the first order")

        let report = try await setup.sync().run()
        #expect(report.recorded == 1)
        let waiting = try await Self.revocations(setup, renewalOrderID)
        #expect(waiting.map(\.disposition) == [.awaitingPurchase])
        #expect(try await Self.revocations(setup, token).isEmpty, "not under the token")
        await #expect(try setup.gems("p1") == 300)

        let renewed = try await Subscriptions.push(setup, token, .renewed)
        #expect(renewed.period?.name == "granted")
        await #expect(try setup.gems("p1") == 300, "the renewal's 300 gems are granted and taken back")
        #expect(try await Subscriptions.chain(setup, token).state == .revoked)
        #expect(try await !Subscriptions.isVIP(setup, "p1"))
        #expect(try await setup.sync().run().recorded == 0)
        await #expect(try setup.gems("p1") == 300)
    }

    /// A first period refunded before the ledger heard of the subscription at all: Google's
    /// `subscriptionsv2` says the token is a subscription, so the refund waits for the period.
    @Test(arguments: LedgerTestEngine.allCases) func aFirstPeriodVoidedBeforeTheLedgerKnowsTheTokenWaitsForIt(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        let voided = setup.play.voidSubscriptionPeriod(token)
        let orderID = try #require(voided.orderId)

        #expect(try await setup.sync().run().recorded == 1)
        #expect(try await Self.revocations(setup, orderID).count == 1)
        #expect(try await Self.revocations(setup, token).isEmpty)

        _ = try await setup.fulfill(token, Self.product, as: "p1")
        await #expect(try setup.gems("p1") == 0)
        #expect(try await !Subscriptions.isVIP(setup, "p1"))
    }

    /// A void of a token Google does not know as a subscription (a one-time purchase the ledger
    /// has not granted yet) stays keyed by the token, so that purchase's grant takes it back; an
    /// outage of `subscriptionsv2` fails the sync and records nothing.
    @Test(arguments: LedgerTestEngine.allCases) func aTokenGoogleDoesNotKnowAsASubscriptionStaysATokenAndAnOutageRecordsNothing(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let subscription = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = setup.play.voidSubscriptionPeriod(subscription)
        setup.play.fail(.subscriptionGet, with: .retryable("503"))
        await #expect(throws: LedgerError.self) { try await setup.sync().run() }
        #expect(try await Self.revocations(setup, subscription).isEmpty)

        let gems = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.void(token: gems)
        let report = try await setup.sync().run()
        #expect(report.recorded == 2, "the subscription's period and the one-time purchase")
        #expect(try await Self.revocations(setup, gems).map(\.disposition) == [.awaitingPurchase])
        _ = try await setup.fulfill(gems, "gems_small", as: "p1")
        await #expect(try setup.gems("p1") == 0)
    }
}
