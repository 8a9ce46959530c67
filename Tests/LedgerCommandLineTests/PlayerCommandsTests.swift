import Foundation
import FulfillmentLedgerTesting
import Testing

/// `ledger player` shows what a player has and what happened; `ledger reset` clears progress and keeps the ledger.
@Suite("ledger player and reset")
struct PlayerCommandsTests {
    /// A ledger where p1 bought gems, the starter bundle and Remove Ads, and p2 bought gems.
    private func makeLedger(in directory: ScratchDirectory) async throws -> String {
        let db = directory.path("ledger.sqlite")
        let purchases: [(String, String, String)] = [
            ("t1", "test.gems_small", "p1"), ("t2", "test.starter_bundle", "p1"), ("t3", "test.remove_ads", "p1"),
            ("t4", "test.gems_small", "p2"),
        ]
        for (id, product, player) in purchases {
            let run = try await fulfill(["transactionID": id, "productID": product, "playerID": player], db: db)
            try #require(run.code == 0, "\(id): \(run.output)\(run.error)")
        }
        return db
    }

    @Test("player prints balances, inventory, entitlements, history and events as one JSON object")
    func playerSnapshotFields() async throws {
        let directory = try ScratchDirectory()
        let db = try await makeLedger(in: directory)
        let snapshot = try await playerSnapshot("p1", db: db)

        #expect(snapshot["playerID"] as? String == "p1")
        #expect(snapshot["balances"] as? [String: Int] == ["gems": 600, "coins": 10_000])
        #expect(snapshot["inventory"] as? [String: Int] == ["frost_tower": 1, "revive_token": 3])
        let entitlements = try #require(snapshot["entitlements"] as? [[String: Any]])
        #expect(entitlements.map { $0["entitlementID"] as? String } == ["remove_ads"])
        let history = try #require(snapshot["history"] as? [[String: Any]])
        let historyIDs = history.compactMap { ($0["key"] as? [String: Any])?["transactionID"] as? String }
        #expect(Set(historyIDs) == ["t1", "t2", "t3"])
        #expect(history.allSatisfy { $0["finishedAt"] != nil })
        let events = try #require(snapshot["events"] as? [[String: Any]])
        let kinds = events.compactMap { $0["kind"] as? String }
        #expect(kinds.filter { $0 == "purchaseGranted" }.count == 3)
        #expect(!kinds.contains("finishSucceeded"), "a finish is stamped on its record, shown in history")
        let sequences = events.compactMap { $0["sequence"] as? Int }
        #expect(sequences == sequences.sorted(by: >), "events are newest first")
    }

    @Test("a player the ledger has never seen is unknown (exit 3), not a player with nothing")
    func unknownPlayer() async throws {
        let directory = try ScratchDirectory()
        let db = try await makeLedger(in: directory)
        #expect(try await knownPlayerSnapshot("nobody", db: db) == nil)
    }

    @Test("reset clears one player's balances and inventory, keeps history and entitlements, and logs the reset")
    func resetKeepsLedger() async throws {
        let directory = try ScratchDirectory()
        let db = try await makeLedger(in: directory)
        let p2Before = try await playerSnapshot("p2", db: db)

        let reset = await ledger(["reset", "p1", "--db", db])
        #expect(reset.code == 0)
        #expect(try reset.json()["reset"] as? String == "p1")

        let snapshot = try await playerSnapshot("p1", db: db)
        #expect((snapshot["balances"] as? [String: Int])?.isEmpty == true)
        #expect((snapshot["inventory"] as? [String: Int])?.isEmpty == true)
        #expect((snapshot["entitlements"] as? [[String: Any]])?.count == 1)
        #expect((snapshot["history"] as? [Any])?.count == 3)
        let events = try #require(snapshot["events"] as? [[String: Any]])
        #expect(events.first?["kind"] as? String == "playerReset")
        #expect(events.count == 4, "three grants and the reset")

        let p2After = try await playerSnapshot("p2", db: db)
        #expect(p2After["balances"] as? [String: Int] == p2Before["balances"] as? [String: Int])
        #expect(p2After["balances"] as? [String: Int] == ["gems": 100])
    }

    @Test("after a reset an old transaction replayed grants nothing, and a new purchase grants normally")
    func replayAfterReset() async throws {
        let directory = try ScratchDirectory()
        let db = try await makeLedger(in: directory)
        #expect(await ledger(["reset", "p1", "--db", db]).code == 0)

        let replay = try await fulfill(["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"], db: db)
        #expect(replay.code == 0)
        #expect(try replay.json()["outcome"] as? String == "alreadyFulfilled")
        #expect(try await balances("p1", db: db).isEmpty)

        // A payment that already happened is always fulfilled, even a second starter bundle.
        let second = try await fulfill(
            ["transactionID": "t5", "productID": "test.starter_bundle", "playerID": "p1"], db: db)
        #expect(second.code == 0, "\(second.output)")
        #expect(try await balances("p1", db: db) == ["gems": 500, "coins": 10_000])
    }

    @Test("reset twice is harmless and logs two resets")
    func resetTwice() async throws {
        let directory = try ScratchDirectory()
        let db = try await makeLedger(in: directory)
        #expect(await ledger(["reset", "p1", "--db", db]).code == 0)
        #expect(await ledger(["reset", "p1", "--db", db]).code == 0)
        let events = try #require(try await playerSnapshot("p1", db: db)["events"] as? [[String: Any]])
        #expect(events.prefix(2).allSatisfy { $0["kind"] as? String == "playerReset" })
    }
}
