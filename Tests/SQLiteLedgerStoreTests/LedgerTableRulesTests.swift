import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// Rules the tables keep: an append-only event log, checked arithmetic, and a reset that keeps the ledger.
@Suite("Ledger table rules")
struct LedgerTableRulesTests {
    @Test(
        "the event log refuses UPDATE and DELETE even through another SQLite connection",
        arguments: [
            "UPDATE events SET detail = 'rewritten'",
            "UPDATE events SET player_id = 'p2' WHERE sequence = 1",
            "DELETE FROM events",
            "DELETE FROM events WHERE sequence = 2",
        ])
    func eventsAreAppendOnly(statement: String) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        let before: [String]
        do {
            let store = try SQLiteLedgerStore(path: path)
            try await store.write { writer throws(LedgerError) in
                try writer.appendEvent(Rows.event("p1", "first"))
                try writer.appendEvent(Rows.event("p1", "second"))
            }
            before = try await playerRows("p1", in: store).events
            await store.close()
        }
        #expect(before == ["second", "first"])
        do {
            let raw = try RawDatabase(path: path)
            let error = #expect(throws: RawDatabase.Failure.self) { try raw.execute(statement) }
            #expect(error?.message.contains("the event log is append-only") == true, "\(String(describing: error))")
        }
        let store = try SQLiteLedgerStore(path: path)
        await #expect(try playerRows("p1", in: store).events == before)
        // Appending still works.
        let sequence = try await store.write { writer throws(LedgerError) -> Int64 in
            try writer.appendEvent(Rows.event("p1", "third"))
        }
        #expect(sequence == 3)
        await store.close()
    }

    @Test("events come back newest first with every field, at most `limit`")
    func eventsRoundTrip() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        let withKey = LedgerEvent(
            kind: .finishFailed, playerID: "p1", transaction: Rows.key("t1"), at: Rows.date.addingTimeInterval(0.25),
            detail: "outage")
        let custom = LedgerEvent(
            kind: LedgerEventKind(rawValue: "futureKind"), playerID: "p1", transaction: nil, at: Rows.date, detail: "")
        let sequences = try await store.write { writer throws(LedgerError) -> [Int64] in
            [try writer.appendEvent(withKey), try writer.appendEvent(custom), try writer.appendEvent(Rows.event("p2"))]
        }
        #expect(sequences == [1, 2, 3])
        let events = try await store.read { reader throws(LedgerError) in try reader.events(playerID: "p1", limit: 10) }
        var expectedCustom = custom
        expectedCustom.sequence = 2
        var expectedWithKey = withKey
        expectedWithKey.sequence = 1
        #expect(events == [expectedCustom, expectedWithKey])
        let newest = try await store.read { reader throws(LedgerError) in try reader.events(playerID: "p1", limit: 1) }
        #expect(newest == [expectedCustom])
        await store.close()
    }

    /// A per-player asset with checked arithmetic.
    enum Asset: String, CaseIterable, CustomTestStringConvertible {
        case currency
        case item

        var testDescription: String { rawValue }
        var id: String { self == .currency ? "gems" : "frost_tower" }

        func add(_ delta: Int64, _ writer: LedgerWriter) throws(LedgerError) -> Int64 {
            switch self {
            case .currency: try writer.addToBalance(playerID: "p1", currencyID: id, delta: delta)
            case .item: try writer.addToInventory(playerID: "p1", itemID: id, delta: delta)
            }
        }

        func amounts(_ rows: PlayerRows) -> [String: Int64] { self == .currency ? rows.balances : rows.inventory }
    }

    /// A starting amount and a delta whose sum leaves the 64-bit range.
    static let overflowingAdditions: [(initial: Int64, delta: Int64)] = [
        (Int64.max - 5, 10), (Int64.max, 1), (Int64.min + 5, -10), (Int64.min, -1), (-1, Int64.min),
    ]

    @Test(
        "an addition that would leave the 64-bit range throws .amountOverflow and changes nothing",
        arguments: Asset.allCases, overflowingAdditions)
    func overflowRefused(asset: Asset, addition: (initial: Int64, delta: Int64)) async throws {
        let (initial, delta) = addition
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        let stored = try await store.write { writer throws(LedgerError) -> Int64 in try asset.add(initial, writer) }
        #expect(stored == initial)

        await #expect(throws: LedgerError.amountOverflow(playerID: "p1", assetID: asset.id)) {
            try await store.write { writer throws(LedgerError) in
                try writer.appendEvent(Rows.event("p1", "written before the overflow"))
                _ = try asset.add(delta, writer)
            }
        }
        let rows = try await playerRows("p1", in: store)
        #expect(asset.amounts(rows) == [asset.id: initial])
        #expect(rows.events.isEmpty)
        await store.close()
    }

    @Test("negative deltas subtract; a zero amount is not listed; the store itself does not forbid going below zero",
        arguments: Asset.allCases)
    func negativeDeltas(asset: Asset) async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        var results: [Int64] = []
        for delta: Int64 in [100, -30, -70, -5, 5] {
            await results.append(try store.write { writer throws(LedgerError) -> Int64 in try asset.add(delta, writer) })
            if results.last == 70 { await #expect(asset.amounts(try playerRows("p1", in: store)) == [asset.id: 70]) }
            if results.last == 0 { await #expect(asset.amounts(try playerRows("p1", in: store)).isEmpty) }
            if results.last == -5 { await #expect(asset.amounts(try playerRows("p1", in: store)) == [asset.id: -5]) }
        }
        #expect(results == [100, 70, 0, -5, 0])
        await #expect(asset.amounts(try playerRows("p1", in: store)).isEmpty)
        await store.close()
    }

    @Test("a reset clears one player's balances, inventory and purchase counts and keeps everything else")
    func resetProgressKeepsLedger() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        try await store.write { writer throws(LedgerError) in
            for (player, transaction) in [("p1", "t1"), ("p2", "t2")] {
                _ = try writer.addToBalance(playerID: player, currencyID: "gems", delta: 100)
                _ = try writer.addToBalance(playerID: player, currencyID: "coins", delta: 5)
                _ = try writer.addToInventory(playerID: player, itemID: "frost_tower", delta: 2)
                try writer.insertTransaction(Rows.record(transaction, player: player))
                _ = try writer.grantEntitlement(Rows.entitlement("remove_ads", source: transaction), playerID: player)
                try writer.incrementPurchaseCount(playerID: player, productID: "gems_small", period: "lifetime", by: 2)
                try writer.incrementPurchaseCount(playerID: player, productID: "gems_small", period: "2026-W48", by: 1)
                try writer.appendEvent(Rows.event(player, "bought"))
            }
        }
        let p2Before = try await playerRows("p2", in: store)
        #expect(p2Before.lifetimePurchases == 2)

        try await store.write { writer throws(LedgerError) in try writer.resetProgress(playerID: "p1", at: Date(timeIntervalSince1970: 1_767_571_200)) }

        let p1 = try await playerRows("p1", in: store)
        #expect(p1.balances.isEmpty)
        #expect(p1.inventory.isEmpty)
        #expect(p1.lifetimePurchases == 0)
        let weekly = try await store.read { reader throws(LedgerError) in
            try reader.purchaseCount(playerID: "p1", productID: "gems_small", period: "2026-W48")
        }
        #expect(weekly == 0)
        #expect(p1.history == ["t1"])
        #expect(p1.entitlements == ["remove_ads"])
        #expect(p1.events == ["bought"])
        await #expect(try store.read { reader throws(LedgerError) in try reader.pendingFinish(Rows.key("t1")) } != nil)
        await #expect(try playerRows("p2", in: store) == p2Before)
        await store.close()
    }

    @Test("resetPlayer resets progress and appends a playerReset event in the same write")
    func resetPlayerAppendsEvent() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        try await store.write { writer throws(LedgerError) in
            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 100)
        }
        try await store.resetPlayer("p1", at: Rows.date)
        let events = try await store.read { reader throws(LedgerError) in try reader.events(playerID: "p1", limit: 10) }
        #expect(events.map(\.kind) == [.playerReset])
        #expect(events.first?.at == Rows.date)
        await #expect(try playerRows("p1", in: store).balances.isEmpty)
        await store.close()
    }

    @Test("a player's history is newest first and limited")
    func historyOrder() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        try await store.write { writer throws(LedgerError) in
            for (index, id) in ["a", "b", "c"].enumerated() {
                var record = Rows.record(id)
                record.fulfilledAt = Rows.date.addingTimeInterval(Double(index))
                try writer.insertTransaction(record)
            }
            try writer.insertTransaction(Rows.record("other", player: "p2"))
        }
        let (all, newest) = try await store.read { reader throws(LedgerError) in
            (try reader.transactions(playerID: "p1", limit: 10), try reader.transactions(playerID: "p1", limit: 2))
        }
        #expect(all.map(\.key.transactionID) == ["c", "b", "a"])
        #expect(newest.map(\.key.transactionID) == ["c", "b"])
        await store.close()
    }
}
