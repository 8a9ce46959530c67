import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// The change feed (`Ledger.changes(after:)`, `Ledger.changeFeed(after:)`) on every engine:
/// what a purchase, a failed finish, a duplicate, an operation, a refund and a reset put in it, pages after a
/// cursor, and the `AsyncSequence` that waits for more.
struct ChangeFeedTests {
    /// Buys gems for p1 (its first finish fails), delivers it again, spends, refunds the
    /// purchase (the spent gems become debt) and resets p2.
    static func history(_ harness: LedgerHarness) async throws -> TransactionSubmission {
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        harness.testStore.failNext(.finish)
        _ = try await harness.ledger.fulfill(purchase)
        _ = try await harness.ledger.fulfill(purchase)
        _ = try await harness.ledger.apply(
            EconomyOperation(
                operationID: "spend-1", playerID: "p1", direction: .spend, asset: .currency, assetID: "gems", amount: 10))
        harness.clock.advance(seconds: 60)
        _ = try await harness.ledger.applyRevocation(
            RevocationEvent(
                eventID: "r1", store: purchase.store, transactionID: purchase.transactionID, kind: .fullRefund,
                quantity: nil, eventDate: harness.clock.now()))
        try await harness.ledger.resetPlayer("p2")
        return purchase
    }

    @Test(arguments: StoreKind.allCases)
    func everyChangeOnceInCommitOrderWithoutFinishResults(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = try await Self.history(harness)
        let page = try await harness.ledger.changes(after: 0)
        #expect(
            page.changes.map(\.kind) == [.purchaseGranted, .operationApplied, .refundApplied, .debtRecorded, .playerReset])
        #expect(page.changes.map(\.playerID) == ["p1", "p1", "p1", "p1", "p2"])
        #expect(page.changes.first?.transaction == purchase.key)
        #expect(page.next == page.changes.last?.sequence)
        let sequences = page.changes.map(\.sequence)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 })
        // The failed finish is in the log, but not in the feed.
        let logged = try await harness.ledger.store.read { reader throws(LedgerError) in
            try reader.events(transaction: purchase.key, limit: 10)
        }
        #expect(logged.contains { $0.kind == .finishFailed })

        let firstTwo = try await harness.ledger.changes(after: 0, limit: 2)
        #expect(firstTwo.changes == Array(page.changes.prefix(2)))
        let rest = try await harness.ledger.changes(after: firstTwo.next)
        #expect(rest.changes == Array(page.changes.dropFirst(2)))
        let caughtUp = try await harness.ledger.changes(after: page.next)
        #expect(caughtUp.changes.isEmpty && caughtUp.next == page.next)
    }

    @Test func badCursorsAndLimitsAreInvalidArguments() async throws {
        let harness = try await LedgerHarness(.memory)
        for (after, limit) in [(Int64(-1), 10), (0, 0), (0, Ledger.changePageCountMax + 1)] {
            await #expect(throws: LedgerError.self) { try await harness.ledger.changes(after: after, limit: limit) }
        }
        #expect(throws: LedgerError.self) { try harness.ledger.changeFeed(pollIntervalMilliseconds: 0) }
        #expect(throws: LedgerError.self) { try harness.ledger.changeFeed(pageCountMax: 0) }
        #expect(throws: LedgerError.self) { try harness.ledger.changeFeed(after: -1) }
    }

    /// A consumer that started before the purchases receives them as they commit, and one that
    /// restarts after its saved cursor receives only what came after.
    @Test(arguments: StoreKind.allCases)
    func theFeedWaitsForNewChangesAndResumesAfterItsCursor(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let feed = try harness.ledger.changeFeed(pageCountMax: 2, pollIntervalMilliseconds: 10)
        let consumer = Task { () throws -> [LedgerEvent] in
            var received: [LedgerEvent] = []
            for try await change in feed {
                received.append(change)
                if received.count == 3 { break }
            }
            return received
        }
        for index in 0..<3 {
            let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p\(index)")
            _ = try await harness.ledger.fulfill(purchase)
        }
        let received = try await consumer.value
        #expect(received.map(\.playerID) == ["p0", "p1", "p2"])
        #expect(received.allSatisfy { $0.kind == .purchaseGranted })

        let saved = try #require(received.first?.sequence)
        var resumed: [String] = []
        for try await change in try harness.ledger.changeFeed(after: saved, pollIntervalMilliseconds: 10) {
            resumed.append(change.playerID)
            if resumed.count == 2 { break }
        }
        #expect(resumed == ["p1", "p2"])
    }

    /// Cancelling the consumer's task ends a feed that is waiting: `next()` returns nil.
    @Test func cancellingTheTaskEndsAWaitingFeed() async throws {
        let harness = try await LedgerHarness(.memory)
        let feed = try harness.ledger.changeFeed(pollIntervalMilliseconds: 10)
        let consumer = Task { () throws -> Int in
            var count = 0
            for try await _ in feed { count += 1 }
            return count
        }
        consumer.cancel()
        #expect(try await consumer.value == 0)
    }

    /// The page's JSON is `{"changes": [...], "next": N}`, each change a `LedgerEvent`.
    @Test func thePageEncodesItsChangesAndCursor() async throws {
        let harness = try await LedgerHarness(.memory)
        _ = try await Self.history(harness)
        let page = try await harness.ledger.changes(after: 0, limit: 1)
        let object = try #require(try JSONSerialization.jsonObject(with: LedgerJSON.encode(page)) as? [String: Any])
        #expect(object["next"] as? Int64 == page.next)
        let change = try #require((object["changes"] as? [[String: Any]])?.first)
        #expect(change["kind"] as? String == "purchaseGranted")
        #expect(change["playerID"] as? String == "p1")
        #expect(try LedgerJSON.decoder().decode(LedgerChangePage.self, from: LedgerJSON.encode(page)) == page)
    }
}
