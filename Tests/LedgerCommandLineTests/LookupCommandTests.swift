import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteLedgerStore
import Testing

/// `ledger lookup ID` finds each of the support runbook's seven cases by the transaction ID the
/// player quotes, with its reason in words; `ledger player` lists the attempts that granted nothing.
@Suite("ledger lookup") struct LookupCommandTests {
    /// A SQLite ledger holding the seven cases, and the cases; each of `buyers` then buys
    /// `test.gems_small` once, so that the ledger knows them too.
    static func supportLedger(
        in directory: ScratchDirectory, buyers: [String] = []
    ) async throws -> (db: String, cases: [SupportCaseFixture.Case]) {
        let db = directory.path("ledger.sqlite")
        let clock = ManualClock(start: Date())
        let testStore = TestStore(clock: clock)
        let faults = ScriptedFaultInjector()
        let ledger = try Ledger(
            catalog: try CatalogLoader.load(path: repoCatalogPath), store: try SQLiteLedgerStore(path: db),
            verifier: testStore.verifier, finisher: testStore, source: testStore, clock: clock, faults: faults,
            configuration: .sandbox)
        let fixture = try await SupportCaseFixture.write(into: ledger, testStore: testStore, faults: faults)
        for buyer in buyers {
            _ = try await ledger.fulfill(testStore.purchase(storeProductID: "test.gems_small", playerID: buyer))
        }
        await ledger.store.close()
        return (db, fixture.cases)
    }

    @Test("each of the seven cases is found by its transaction ID, with its player and reason")
    func everyCaseIsFound() async throws {
        let directory = try ScratchDirectory()
        let (db, cases) = try await Self.supportLedger(in: directory)
        for supportCase in cases {
            let text = await ledger(["lookup", supportCase.transactionID, "--db", db])
            #expect(text.code == 0, "\(supportCase.name): \(text.error)")
            #expect(text.output.contains(supportCase.playerID), "\(supportCase.name)")
            #expect(text.output.contains(supportCase.expected), "\(supportCase.name): \(text.output)")
            #expect(text.output.contains("what happened (oldest first):"))
            let json = await ledger(["lookup", supportCase.transactionID, "--db", db, "--json"])
            let report = try json.json()
            #expect((report["steps"] as? [[String: Any]])?.isEmpty == false, "\(supportCase.name)")
        }
        let unfinished = await ledger(["lookup", cases[0].transactionID, "--db", db])
        #expect(unfinished.output.contains("pending finish (1 failed attempt(s)"))
        #expect(unfinished.output.contains("finishPending"))
    }

    @Test("an ID nothing matches exits 3 and says so; a missing ID is a usage error")
    func nothingFound() async throws {
        let directory = try ScratchDirectory()
        let (db, _) = try await Self.supportLedger(in: directory)
        let run = await ledger(["lookup", "GPA.0000-0000-0000-00000", "--db", db])
        #expect(run.code == 3)
        #expect(run.error.contains("nothing in the ledger under \"GPA.0000-0000-0000-00000\""))
        #expect(run.output.contains("purchases: none"))
        #expect(await ledger(["lookup", "--db", db]).code == 64)
        #expect(await ledger(["lookup", String(repeating: "x", count: 5_000), "--db", db]).code == 64)
    }

    @Test("ledger player lists the player's attempts that granted nothing")
    func playerListsAttempts() async throws {
        let directory = try ScratchDirectory()
        let (db, cases) = try await Self.supportLedger(in: directory)
        let pending = try #require(cases.first { $0.name == "pending" })
        let run = await ledger(["player", pending.playerID, "--db", db])
        #expect(run.code == 0, "\(run.error)")
        #expect(run.output.contains("attempts that granted nothing (newest first, at most 200):"))
        #expect(run.output.contains("rejected pending"))
        #expect(run.output.contains("test/\(pending.transactionID)"))
    }
}
