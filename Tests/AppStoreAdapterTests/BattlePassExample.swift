import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// The monthly battle pass of Docs/Subscriptions.md ("A monthly battle pass"), run here so that
/// the documented story is what the ledger does: buy, renew twice, a failed renewal with grace,
/// recovery, a refund of one period, expiry.
@Suite struct BattlePassExample {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theDocumentedBattlePassRuns() async throws {
        let setup = try AppStoreSubscriptionTests.Setup()
        let (apple, ledger, clock) = (setup.simulator, setup.ledger, setup.clock)
        let notifications = AppStoreNotificationProcessor(signedDataVerifier: setup.verifier, ledger: ledger)
        let day: TimeInterval = 86_400
        /// The player's gems, whether the pass is on, and the subscription's state, in one line.
        func status() async throws -> String {
            let gems = try await ledger.player("p1").balances["gems"] ?? 0
            let pass = try await ledger.entitlements("p1").statuses["battle_pass"] == .owned
            let state = try await ledger.subscriptions("p1").first?.state.rawValue ?? "none"
            return "\(gems) gems, pass \(pass ? "on" : "off"), \(state)"
        }

        // BEGIN Docs/Subscriptions.md battle-pass
        // Day 0: the player buys the pass; the game's server fulfils the purchase.
        let bought = try apple.purchase(
            productID: "com.example.bp.monthly", appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .autoRenewableSubscription)
        let submission = try #require(AppStoreTransactionVerifier.submission(jws: bought.jws, playerID: "p1"))
        #expect(try await ledger.fulfill(submission).name == "granted")
        #expect(try await status() == "500 gems, pass on, active")

        // Days 30 and 60: Apple renews it and says so (DID_RENEW). Each period grants once.
        clock.advance(seconds: 30 * day)
        let second = try apple.renew(transactionID: bought.transactionID)
        _ = try await notifications.process(try apple.notification(type: .didRenew, transactionID: second.transactionID))
        clock.advance(seconds: 30 * day)
        let third = try apple.renew(transactionID: second.transactionID)
        _ = try await notifications.process(try apple.notification(type: .didRenew, transactionID: third.transactionID))
        #expect(try await status() == "1500 gems, pass on, active")

        // Day 90: the renewal fails and Apple grants 6 days of grace: the pass stays on.
        clock.set(try #require(third.payload.expiresDate))
        _ = try await notifications.process(try apple.failToRenew(transactionID: third.transactionID, gracePeriodDays: 6))
        clock.advance(seconds: 3 * day)
        #expect(try await status() == "1500 gems, pass on, gracePeriod")

        // Day 93: the payment goes through (BILLING_RECOVERY): a fourth period, active again.
        let fourth = try apple.renew(transactionID: third.transactionID)
        _ = try await notifications.process(
            try apple.notification(type: .didRenew, subtype: .billingRecovery, transactionID: fourth.transactionID))
        #expect(try await status() == "2000 gems, pass on, active")

        // Day 95: Apple refunds the second period: its 500 gems go back, the pass stays on.
        clock.advance(seconds: 2 * day)
        _ = try apple.revoke(transactionID: second.transactionID)
        _ = try await notifications.process(try apple.notification(type: .refund, transactionID: second.transactionID))
        #expect(try await status() == "1500 gems, pass on, active")

        // The player turns auto-renew off: the pass lasts to the period's end, then lapses.
        _ = try await notifications.process(try apple.setAutoRenew(transactionID: fourth.transactionID, on: false))
        clock.set(try #require(fourth.payload.expiresDate))
        _ = try await notifications.process(try apple.expire(transactionID: fourth.transactionID))
        #expect(try await status() == "1500 gems, pass off, expired")
        #expect(try await ledger.subscriptions("p1").first?.periods.count == 4)
        // END Docs/Subscriptions.md battle-pass

        // A restore on a new device of the last period grants nothing.
        let restored = try #require(
            AppStoreTransactionVerifier.submission(jws: try apple.restore(transactionID: fourth.transactionID).jws, playerID: "p1"))
        #expect(try await ledger.fulfill(restored).name == "alreadyFulfilled")
        #expect(try await status() == "1500 gems, pass off, expired")
    }

    @Test func theDocumentedBattlePassIsTheCompiledOne() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(
            DocumentedExample.lines(of: source, from: "// BEGIN Docs/Subscriptions.md battle-pass", to: "// END Docs/Subscriptions.md battle-pass"))
        let docs = try String(contentsOf: Self.packageRoot.appendingPathComponent("Docs/Subscriptions.md"), encoding: .utf8)
        let documented = try #require(DocumentedExample.lines(of: docs, from: "<!-- battle-pass -->", to: "```", skipping: 2))
        #expect(documented == compiled)
    }
}
