import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteLedgerStore
import Testing

@testable import LedgerCommandLine

/// `ledger history` and `ledger doctor` say when they cut a list, and page through the rest.
@Suite struct PagingCommandTests {
    /// A ledger whose player `p1` has `count` events, written directly through the store.
    static func ledgerWithEvents(_ count: Int, at path: String) async throws {
        let store = try SQLiteLedgerStore(path: path)
        try await store.write { writer throws(LedgerError) in
            for index in 1...count {
                try writer.appendEvent(
                    LedgerEvent(kind: .operationApplied, playerID: "p1", transaction: nil, at: Date(ledgerMilliseconds: 1_780_000_000_000), detail: "event \(index)"))
            }
        }
        await store.close()
    }

    @Test("history stops at 10,000 events, says so in JSON and text, and --after reads the rest")
    func historyCapIsSaid() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        try await Self.ledgerWithEvents(HistoryCommand.eventCountMax + 1, at: db)

        let first = await ledger(["history", "--db", db, "--player", "p1", "--json"])
        #expect(first.code == 0)
        let page = try first.json()
        let events = try #require(page["events"] as? [[String: Any]])
        #expect(events.count == HistoryCommand.eventCountMax)
        #expect(events.first?["detail"] as? String == "event 1", "oldest first")
        #expect(page["truncated"] as? Bool == true)
        #expect(page["nextAfter"] as? Int == HistoryCommand.eventCountMax)

        let text = await ledger(["history", "--db", db, "--player", "p1"])
        #expect(text.outputLines.filter { $0.hasPrefix("#") }.count == HistoryCommand.eventCountMax)
        #expect(text.outputLines.contains("truncated: 10000 event(s) shown and more follow; next page: the same command with --after 10000"))

        let rest = await ledger(["history", "--db", db, "--player", "p1", "--json", "--after", "10000"])
        let restPage = try rest.json()
        #expect((restPage["events"] as? [[String: Any]])?.map { $0["detail"] as? String } == ["event 10001"])
        #expect(restPage["truncated"] as? Bool == false && restPage["nextAfter"] == nil)
        let restText = await ledger(["history", "--db", db, "--player", "p1", "--after", "10000"])
        #expect(!restText.output.contains("truncated"), "the last page says nothing more follows")
    }

    @Test("history --limit pages a transaction's events, every event once")
    func historyLimitPages() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        try #require(try await fulfill(["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"], db: db).code == 0)
        let refund = #"{"eventID":"r1","store":"test","transactionID":"t1","kind":"fullRefund","eventDate":"2030-01-01T00:00:00Z"}"#
        try #require(await ledger(["revoke", "--db", db, "--catalog", repoCatalogPath], input: refund).code == 0)
        var kinds: [String] = []
        var after = 0
        var pages = 0
        while pages < 5 {
            let run = await ledger(["history", "--db", db, "--transaction", "test/t1", "--limit", "1", "--after", "\(after)", "--json"])
            let page = try run.json()
            kinds += try #require(page["events"] as? [[String: Any]]).compactMap { $0["kind"] as? String }
            pages += 1
            guard let next = page["nextAfter"] as? Int else { break }
            after = next
        }
        #expect(kinds == ["purchaseGranted", "refundApplied"])
        #expect(pages == 2)
    }

    @Test("history --changes prints every player's changes in commit order, a page at a time")
    func historyChangesPagesTheFeed() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        for (transaction, player) in [("t1", "p1"), ("t2", "p2")] {
            let document = ["transactionID": transaction, "productID": "test.gems_small", "playerID": player]
            try #require(try await fulfill(document, db: db).code == 0)
        }
        let first = try await ledger(["history", "--db", db, "--changes", "--limit", "1", "--json"]).json()
        let firstEvents = try #require(first["events"] as? [[String: Any]])
        #expect(firstEvents.map { $0["playerID"] as? String } == ["p1"])
        let next = try #require(first["nextAfter"] as? Int)
        let rest = try await ledger(["history", "--db", db, "--changes", "--after", "\(next)", "--json"]).json()
        #expect(try #require(rest["events"] as? [[String: Any]]).map { $0["playerID"] as? String } == ["p2"])
        #expect(rest["truncated"] as? Bool == false)
        let both = await ledger(["history", "--db", db, "--changes", "--player", "p1"])
        #expect(both.code == 64)
    }

    @Test("history and doctor refuse a bad --limit or --after with exit 64",
        arguments: [
            ["history", "--player", "p1", "--limit", "0"], ["history", "--player", "p1", "--limit", "10001"],
            ["history", "--player", "p1", "--after", "-1"], ["history", "--player", "p1", "--after", "x"],
            ["doctor", "--limit", "1001"], ["doctor", "--limit", "many"], ["doctor", "--after", "12"],
        ])
    func badPaging(arguments: [String]) async throws {
        let directory = try ScratchDirectory()
        let run = await ledger(arguments + ["--db", directory.path("ledger.sqlite")])
        #expect(run.code == 64, "\(arguments): \(run.error)")
        #expect(try directory.fileNames().isEmpty)
    }

    @Test("doctor --limit lists a page, says more follow with the cursor, counts every pending finish, and --after goes on")
    func doctorPages() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        for id in ["t1", "t2", "t3"] {
            let purchase: [String: Any] = ["transactionID": id, "productID": "test.gems_small", "playerID": "p1"]
            try #require(try await fulfill(purchase, db: db, extra: ["--fault", "insideFinish=error"]).code == 0)
        }
        let first = await ledger(["doctor", "--db", db, "--limit", "2", "--json"])
        #expect(first.code == 0)
        let report = try first.json()
        #expect((report["pendingFinishes"] as? [[String: Any]])?.count == 2)
        #expect(report["pendingFinishCount"] as? Int == 3)
        #expect(report["pendingFinishesTruncated"] as? Bool == true)
        let cursor = try #require(report["nextAfter"] as? String)

        let text = await ledger(["doctor", "--db", db, "--limit", "2"])
        #expect(text.outputLines.contains { $0.hasPrefix("pending finishes:") && $0.hasSuffix(" 3") })
        #expect(text.outputLines.contains("truncated: 2 of 3 pending finish(es) listed and more follow; next page: the same command with --after \(cursor)"))

        let second = try await ledger(["doctor", "--db", db, "--limit", "2", "--after", cursor, "--json"]).json()
        let rest = try #require(second["pendingFinishes"] as? [[String: Any]])
        let firstKeys = try #require(report["pendingFinishes"] as? [[String: Any]]).compactMap { ($0["key"] as? [String: Any])?["transactionID"] as? String }
        let restKeys = rest.compactMap { ($0["key"] as? [String: Any])?["transactionID"] as? String }
        #expect(Set(firstKeys + restKeys) == ["t1", "t2", "t3"] && restKeys.count == 1)
        #expect(second["pendingFinishesTruncated"] as? Bool == false && second["nextAfter"] == nil)
        let untruncated = await ledger(["doctor", "--db", db])
        #expect(!untruncated.output.contains("truncated"))
    }
}
