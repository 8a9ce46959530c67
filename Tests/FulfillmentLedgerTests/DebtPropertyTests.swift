import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerSimulation
import Testing

/// Random sequences of purchases, spends, refunds (full and partial) and reversals under
/// mixed refund policies (`gems_small` floor, `gems_large` clawback), checked after every
/// step against two invariants:
///
/// 1. the balance is what was granted, less what was spent, less what refunds took back,
///    plus what reversals gave back (debt is the negative part of the balance);
/// 2. no refund sequence ends with less debt than it started with unless the player paid
///    it: from a checkpoint on, buying and spending and then refunding everything bought
///    since leaves at least the debt of the checkpoint, and no single refund lowers debt.
@Suite struct DebtPropertyTests {
    /// Sequences per store kind, and steps in each phase.
    static let sequenceCount = 150
    static let stepCountMax = 24

    struct Purchase {
        var submission: TransactionSubmission
        var refundedUnits = 0
        var reversible = false
    }

    final class Run {
        let harness: LedgerHarness
        var random: SplitMix64
        var purchases: [Purchase] = []
        var expected: Int64 = 0
        var events = 0

        init(kind: StoreKind, seed: UInt64) async throws {
            harness = try await DebtRuleTests.harness(kind)
            random = SplitMix64(seed: seed)
        }

        func balance() async throws -> Int64 { try await harness.balance("p1", "gems") }
        func debt() async throws -> Int64 { await max(0, -(try balance())) }

        func buy() async throws {
            let product = random.chance(50) ? "test.gems_small" : "test.gems_large"
            let quantity = 1 + random.below(3)
            let submission = harness.testStore.purchase(storeProductID: product, playerID: "p1", quantity: quantity)
            let record = try #require(try await harness.ledger.fulfill(submission).receipt?.record)
            expected += record.grants.filter { $0.kind == .currency }.map(\.quantity).reduce(0, +)
            purchases.append(Purchase(submission: submission))
        }

        func spend() async throws {
            let balance = try await self.balance()
            guard balance > 0 else { return }
            let amount = Int64(1 + random.below(Int(min(balance, 2_000))))
            events += 1
            let outcome = try await harness.ledger.apply(.spend(amount, of: "gems", player: "p1", operationID: "s\(events)"))
            if case .applied = outcome { expected -= amount }
        }

        /// Refunds some or all remaining units of purchase `index`; checks debt never falls.
        func refund(_ index: Int, everything: Bool) async throws {
            let purchase = purchases[index]
            let remaining = purchase.submission.quantity - purchase.refundedUnits
            guard remaining > 0 else { return }
            let units = everything ? remaining : 1 + random.below(remaining)
            let debtBefore = try await debt()
            events += 1
            harness.clock.advance(seconds: 1)
            let event = RevocationEvent(
                eventID: "r\(events)", store: .test, transactionID: purchase.submission.transactionID,
                kind: units == purchase.submission.quantity ? .fullRefund : .partialRefund,
                quantity: units == purchase.submission.quantity ? nil : units, eventDate: harness.clock.now())
            let record = try await #require(try harness.ledger.applyRevocation(event).record)
            expected += record.effect.filter { $0.kind == .currency }.map(\.quantity).reduce(0, +)
            purchases[index].refundedUnits += units
            purchases[index].reversible = true
            await #expect(try debt() >= debtBefore, "a refund lowered the debt from \(debtBefore)")
        }

        func reverse(_ index: Int) async throws {
            guard purchases[index].reversible else { return }
            events += 1
            harness.clock.advance(seconds: 1)
            let event = RevocationEvent(
                eventID: "v\(events)", store: .test, transactionID: purchases[index].submission.transactionID,
                kind: .refundReversed, eventDate: harness.clock.now())
            let record = try await #require(try harness.ledger.applyRevocation(event).record)
            expected += record.effect.filter { $0.kind == .currency }.map(\.quantity).reduce(0, +)
            purchases[index].refundedUnits = 0
            purchases[index].reversible = false
        }

        func checkBalance() async throws {
            await #expect(try balance() == expected, "the balance left the grants, spends, refunds and reversals")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func debtIsNeverLostAcrossRefundPolicies(kind: StoreKind) async throws {
        for seed in 0..<UInt64(kind == .memory ? Self.sequenceCount : Self.sequenceCount / 5) {
            let run = try await Run(kind: kind, seed: seed)
            // Phase 1: anything goes.
            for _ in 0..<(1 + run.random.below(Self.stepCountMax)) {
                switch run.random.below(10) {
                case 0..<4: try await run.buy()
                case 4..<6: try await run.spend()
                case 6..<9: if !run.purchases.isEmpty { try await run.refund(run.random.below(run.purchases.count), everything: run.random.chance(50)) }
                default: if !run.purchases.isEmpty { try await run.reverse(run.random.below(run.purchases.count)) }
                }
                try await run.checkBalance()
            }
            // Phase 2: from a checkpoint, buy and spend, then refund everything bought since.
            let checkpoint = run.purchases.count
            let debtAtCheckpoint = try await run.debt()
            for _ in 0..<(1 + run.random.below(Self.stepCountMax)) {
                if run.random.chance(60) { try await run.buy() } else { try await run.spend() }
                try await run.checkBalance()
            }
            for index in (checkpoint..<run.purchases.count).shuffled(using: &run.random) {
                if run.random.chance(30) { try await run.refund(index, everything: false) }
                try await run.refund(index, everything: true)
                try await run.checkBalance()
            }
            await #expect(
                try run.debt() >= debtAtCheckpoint,
                "seed \(seed): refunding everything bought since left less debt than \(debtAtCheckpoint)")
        }
    }
}
