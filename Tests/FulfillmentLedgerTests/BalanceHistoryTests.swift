import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// A player's balances over time: computed backward from the current balances, every point is
/// the balance observed right after its change, on every engine.
@Suite struct BalanceHistoryTests {
    /// The points a test expects, each the balance it observed right after a step.
    struct Observed {
        let harness: LedgerHarness
        var points: [BalanceHistory.Point] = []

        /// Advances the clock a second, runs `step`, and records the balance of `currency` it left.
        mutating func step(
            _ cause: String, _ currency: String = "gems", player: String = "p1", _ step: () async throws -> Void
        ) async throws {
            harness.clock.advance(seconds: 1)
            let at = harness.clock.now()
            try await step()
            points.append(BalanceHistory.Point(at: at, balance: try await harness.balance(player, currency), cause: cause))
        }
    }

    static func refund(_ id: String, _ purchase: TransactionSubmission, _ kind: RevocationKind, at date: Date) -> RevocationEvent {
        RevocationEvent(eventID: id, store: purchase.store, transactionID: purchase.transactionID, kind: kind, eventDate: date)
    }

    /// Applies `operation`, which must apply.
    static func apply(_ operation: EconomyOperation, _ harness: LedgerHarness) async throws {
        let outcome = try await harness.ledger.apply(operation)
        guard case .applied = outcome else { throw LedgerError.invalidArgument("\(operation.operationID): \(outcome)") }
    }

    /// Fulfills a new purchase of `storeProductID`; returns its submission.
    @discardableResult
    static func buy(_ storeProductID: String, _ harness: LedgerHarness, player: String = "p1") async throws -> TransactionSubmission {
        let purchase = harness.testStore.purchase(storeProductID: storeProductID, playerID: player)
        _ = try await harness.ledger.fulfill(purchase)
        return purchase
    }

    @Test("purchases, spends, a refund into debt, a grant that repays it and a reversal: every point as observed", arguments: StoreKind.allCases)
    func everyStepExact(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        var observed = Observed(harness: harness)
        var first: TransactionSubmission?
        try await observed.step("purchase test/test-000001") { first = try await Self.buy("test.gems_small", harness) }
        let firstPurchase = try #require(first)
        try await observed.step("spend op-1") { try await Self.apply(.spend(80, of: "gems", player: "p1", operationID: "op-1"), harness) }
        try await observed.step("purchase test/test-000002") { try await Self.buy("test.gems_small", harness) }
        try await observed.step("spend op-2") { try await Self.apply(.spend(100, of: "gems", player: "p1", operationID: "op-2"), harness) }
        try await observed.step("refund r1") {
            let outcome = try await harness.ledger.applyRevocation(Self.refund("r1", firstPurchase, .fullRefund, at: harness.clock.now()))
            #expect(outcome.record?.debtCreated == ["gems": 80])
        }
        try await observed.step("grant op-3") { try await Self.apply(.grant(100, of: "gems", player: "p1", operationID: "op-3"), harness) }
        try await observed.step("reversal v1") {
            _ = try await harness.ledger.applyRevocation(Self.refund("v1", firstPurchase, .refundReversed, at: harness.clock.now()))
        }
        #expect(observed.points.map(\.balance) == [100, 20, 120, 20, -80, 20, 120])
        harness.clock.advance(seconds: 1)
        let history = try await harness.ledger.balanceHistory("p1")
        #expect(history.isComplete)
        #expect(Set(history.currencies.keys) == ["gems"])
        let gems = try #require(history.currencies["gems"])
        #expect(gems.count == observed.points.count + 1)
        for (found, expected) in zip(gems, observed.points) { #expect(found == expected) }
        #expect(gems.last == BalanceHistory.Point(at: harness.clock.now(), balance: 120, cause: "now"))
    }

    @Test("a refund that arrived before its purchase applies right after the grant", arguments: StoreKind.allCases)
    func refundBeforePurchase(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        try await Self.apply(.grant(500, of: "gems", player: "p1", operationID: "welcome"), harness)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await harness.ledger.applyRevocation(Self.refund("early", purchase, .fullRefund, at: harness.clock.now()))
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.fulfill(purchase)
        let history = try await harness.ledger.balanceHistory("p1")
        #expect(history.isComplete)
        #expect(history.currencies["gems"]?.map(\.balance) == [500, 600, 500, 500])
        #expect(history.currencies["gems"]?.map(\.cause) == ["grant welcome", "purchase test/test-000001", "refund early", "now"])
    }

    @Test("a reset hides what came before it: the history starts there, with the debt it kept", arguments: StoreKind.allCases)
    func reset(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = try await Self.buy("test.gems_small", harness)
        try await Self.buy("test.coins_pack", harness)
        try await Self.apply(.spend(100, of: "gems", player: "p1", operationID: "op-1"), harness)
        harness.clock.advance(seconds: 1)
        _ = try await harness.ledger.applyRevocation(Self.refund("r1", purchase, .fullRefund, at: harness.clock.now()))
        harness.clock.advance(seconds: 1)
        let resetAt = harness.clock.now()
        try await harness.ledger.resetPlayer("p1")
        await #expect(try harness.balance("p1", "gems") == -100)
        await #expect(try harness.balance("p1", "coins") == 0)
        var observed = Observed(harness: harness)
        try await observed.step("grant op-2") { try await Self.apply(.grant(150, of: "gems", player: "p1", operationID: "op-2"), harness) }
        let history = try await harness.ledger.balanceHistory("p1")
        #expect(!history.isComplete)
        #expect(Set(history.currencies.keys) == ["gems"])
        #expect(
            history.currencies["gems"] == [
                BalanceHistory.Point(at: resetAt, balance: -100, cause: "reset"), observed.points[0],
                BalanceHistory.Point(at: harness.clock.now(), balance: 50, cause: "now"),
            ])
    }

    @Test("more changes than the limit: the newest are exact and the history says it is not complete", arguments: StoreKind.allCases)
    func limit(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let count = BalanceHistory.changeCountMax + 5
        for index in 1...count {
            harness.clock.advance(seconds: 1)
            try await Self.apply(.grant(Int64(index), of: "coins", player: "p1", operationID: "g-\(index)"), harness)
        }
        try await Self.apply(.grant(7, of: "gems", player: "p2", operationID: "other"), harness)
        let history = try await harness.ledger.balanceHistory("p1")
        #expect(!history.isComplete)
        let coins = try #require(history.currencies["coins"])
        #expect(coins.count == BalanceHistory.changeCountMax + 1)
        // After grant k the balance is 1 + 2 + ... + k.
        let kept = Array(coins.dropLast())
        for (offset, point) in kept.enumerated() {
            let index = count - BalanceHistory.changeCountMax + 1 + offset
            #expect(point.balance == Int64(index * (index + 1) / 2) && point.cause == "grant g-\(index)")
        }
        #expect(coins.last?.balance == Int64(count * (count + 1) / 2))
        #expect(history.currencies["gems"] == nil)
    }

    @Test("an unknown player has an empty, complete history; a bad player ID is refused", arguments: StoreKind.allCases)
    func unknownPlayer(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        try await Self.buy("test.gems_small", harness, player: "p2")
        #expect(try await harness.ledger.balanceHistory("nobody") == BalanceHistory(currencies: [:], isComplete: true))
        await #expect(throws: LedgerError.self) { try await harness.ledger.balanceHistory("") }
    }
}
