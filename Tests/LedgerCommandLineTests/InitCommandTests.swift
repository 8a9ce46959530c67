import Foundation
import FulfillmentLedgerTesting
import Testing

/// `ledger init`: a first deployment creates its ledger once, then servers open it with
/// `createIfMissing = false`.
@Suite struct InitCommandTests {
    @Test func createsAMigratedLedgerOnceAndKeepsItAfterwards() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let first = await ledger(["init", "--db", db])
        #expect(first.code == 0, "\(first.output)\(first.error)")
        #expect(try first.json()["created"] as? Bool == true)
        let version = try #require(try first.json()["schemaVersion"] as? Int)
        #expect(version >= 5)
        let purchase: [String: Any] = ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"]
        #expect(try await fulfill(purchase, db: db).code == 0)
        let again = await ledger(["init", "--db", db])
        #expect(again.code == 0)
        #expect(try again.json()["created"] as? Bool == false)
        #expect(try await balances("p1", db: db) == ["gems": 100], "an existing ledger is kept")
        let doctor = await ledger(["doctor", "--db", db])
        #expect(doctor.code == 0)
    }

    @Test func refusesAFileThatIsNotALedgerAndLeavesItAsItWas() async throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("not a database, just text that SQLite will not open as one\n", to: "notes.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let run = await ledger(["init", "--db", path])
        #expect(run.code == 1, "\(run.output)\(run.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let missingFolder = await ledger(["init", "--db", scratch.path("no/such/folder/ledger.sqlite")])
        #expect(missingFolder.code == 1)
        #expect(await ledger(["init"]).code == 64)
    }
}
