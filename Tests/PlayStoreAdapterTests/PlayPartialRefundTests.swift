import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// Quantity-based partial refunds: listed only when asked for, each applied once.
@Suite struct PlayPartialRefundTests {
    /// p1 holds 300 gems from a quantity-3 gems_small purchase, returned.
    static func bought() async throws -> (PlayLedgerSetup, String) {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 3)
        await #expect(try setup.gems("p1") == 300)
        return (setup, token)
    }

    @Test func googleListsPartialRefundsOnlyWhenAskedAndTheSyncAsks() async throws {
        let (setup, token) = try await Self.bought()
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 1)
        let start = setup.clock.now().addingTimeInterval(-3_600)
        let without = try await setup.play.voidedPurchases(
            packageName: PlayLedgerSetup.packageName, startTime: start, endTime: nil, pageToken: nil, maxResults: 10,
            includeQuantityBasedPartialRefund: false)
        #expect(without.voidedPurchases.isEmpty)
        let with = try await setup.play.voidedPurchases(
            packageName: PlayLedgerSetup.packageName, startTime: start, endTime: nil, pageToken: nil, maxResults: 10,
            includeQuantityBasedPartialRefund: true)
        #expect(with.voidedPurchases.map(\.voidedQuantity) == [1])
        #expect(setup.play.storedPurchase(token)?.refundableQuantity == 2)
    }

    @Test func eachOneUnitRefundTakesBackOneUnitOnceThroughTheSync() async throws {
        let (setup, token) = try await Self.bought()
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 1)
        let first = try await setup.sync().run()
        #expect(first.recorded == 1 && first.refundChecks[token] == .agrees(refundedQuantity: 1))
        await #expect(try setup.gems("p1") == 200)
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 1)
        let second = try await setup.sync().run()
        #expect(second.recorded == 1 && second.alreadyRecorded == 1)
        #expect(second.refundChecks[token] == .agrees(refundedQuantity: 2))
        await #expect(try setup.gems("p1") == 100)
        let replay = try await setup.sync().run()
        #expect(replay.recorded == 0 && replay.alreadyRecorded == 2 && replay.refundChecks.isEmpty)
        await #expect(try setup.gems("p1") == 100)
        let events = try await setup.ledger.store.read { reader throws(LedgerError) in
            try reader.revocationEvents(for: setup.key(token), limit: 10)
        }
        let orderID = try #require(setup.play.storedPurchase(token)?.orderId)
        #expect(events.count == 2 && events.allSatisfy { $0.event.kind == .partialRefund && $0.event.quantity == 1 })
        #expect(events.allSatisfy { $0.event.eventID.hasPrefix("play-voided:\(token):") && $0.event.eventID.hasSuffix(":" + orderID) })
    }

    @Test func refundType2PushesApplyEachConfirmedRefundOnce() async throws {
        let (setup, token) = try await Self.bought()
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 1)
        let first = try await setup.push(setup.play.voidedBody(for: token, refundType: 2, messageID: "m-1"))
        guard case .revocation(let outcome, let check) = first else {
            Issue.record("a listed partial refund applies, got \(first)")
            return
        }
        #expect(outcome.record?.event.quantity == 1 && check == .agrees(refundedQuantity: 1))
        await #expect(try setup.gems("p1") == 200)
        setup.clock.advance(seconds: 600)
        setup.play.void(token: token, quantity: 1)
        #expect(try await setup.push(setup.play.voidedBody(for: token, refundType: 2, messageID: "m-2")).revocationDisposition == .applied)
        await #expect(try setup.gems("p1") == 100)
        // Replays: the same messages, and the sync over both.
        guard case .alreadyProcessed = try await setup.push(setup.play.voidedBody(for: token, refundType: 2, messageID: "m-2")) else {
            Issue.record("a redelivered message applies nothing")
            return
        }
        let report = try await setup.sync().run()
        #expect(report.recorded == 0 && report.alreadyRecorded == 2)
        await #expect(try setup.gems("p1") == 100)
    }

    @Test func theRefundCheckReportsALedgerBehindAndFlagsALedgerAhead() async throws {
        let (setup, token) = try await Self.bought()
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 1)
        setup.clock.advance(seconds: 60)
        setup.play.void(token: token, quantity: 1, listed: false)
        let behind = try await setup.push(setup.play.voidedBody(for: token, refundType: 2))
        guard case .revocation(_, let check) = behind else {
            Issue.record("the listed refund applies, got \(behind)")
            return
        }
        // Google counts two refunded units but lists one so far; nothing is guessed.
        #expect(check == .ledgerBehind(ledgerRefunded: 1, googleRefunded: 2))
        await #expect(try setup.gems("p1") == 200)
        await #expect(try setup.ledger.player("p1").flags.isEmpty)

        let other = try await setup.buyAndFulfill("gems_small", for: "p2", quantity: 3)
        setup.clock.advance(seconds: 60)
        setup.play.void(token: other, quantity: 2)
        setup.play.setRefundableQuantity(other, to: 2)
        let report = try await setup.sync().run()
        #expect(report.refundChecks[other] == .ledgerAhead(ledgerRefunded: 2, googleRefunded: 1))
        let flags = try await setup.ledger.player("p2").flags
        #expect(flags.map(\.flag) == [PlayRefundCheck.mismatchFlag] && flags.first?.transaction == setup.key(other))
        await #expect(try setup.gems("p2") == 100, "the check never changes balances")
    }
}
