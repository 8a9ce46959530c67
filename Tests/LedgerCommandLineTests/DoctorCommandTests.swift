import Foundation
import FulfillmentLedgerTesting
import Testing

/// `ledger doctor`: a read-only report; refuses files that are not ledgers with exit 1 and never changes them.
@Suite("ledger doctor")
struct DoctorCommandTests {
    /// Files that are not ledgers, by name and contents.
    static let notLedgers: [(name: String, bytes: [UInt8])] = [
        ("text", Array("these are not the pages you are looking for\n".utf8)),
        ("binary", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }),
        ("sqlite header only", Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0xFF, count: 84)),
        ("empty", []),
    ]

    @Test("doctor on a file that is not a ledger exits 1, reports a typed error, and leaves the file unchanged",
        arguments: notLedgers.indices)
    func notALedger(index: Int) async throws {
        let (name, bytes) = Self.notLedgers[index]
        let directory = try ScratchDirectory()
        let db = directory.path("garbage.sqlite")
        try Data(bytes).write(to: URL(fileURLWithPath: db))

        for extra in [[], ["--json"]] {
            let run = await ledger(["doctor", "--db", db] + extra)
            #expect(run.code == 1, "\(name): \(run.output)")
            let error = try #require(try run.json()["error"] as? [String: Any], "\(name)")
            #expect(error["name"] as? String == "ledger.notALedger", "\(name)")
            #expect(error["code"] as? Int == 1001, "\(name)")
            #expect(run.error.contains(db), "\(name)")
        }
        #expect(try contents(db) == Data(bytes), "\(name)")
        #expect(try directory.fileNames() == ["garbage.sqlite"], "\(name)")
    }

    @Test("doctor on a healthy ledger prints the report, exits 0, and leaves the file unchanged")
    func healthyLedger() async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let purchase: [String: Any] = ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"]
        #expect(try await fulfill(purchase, db: db, extra: ["--fault", "insideFinish=error"]).code == 0)
        let before = try contents(db)

        let text = await ledger(["doctor", "--db", db])
        #expect(text.code == 0)
        #expect(text.outputLines.contains { $0.hasPrefix("integrity:") && $0.hasSuffix("ok") })
        #expect(text.outputLines.contains { $0.hasPrefix("transactions:") && $0.hasSuffix(" 1") })
        #expect(text.outputLines.contains { $0.hasPrefix("pending finishes:") && $0.hasSuffix(" 1") })
        #expect(text.outputLines.contains { $0.contains("test/t1 player p1") && $0.contains("1 failed attempt(s)") })
        #expect(text.outputLines.contains("healthy"))

        let json = await ledger(["doctor", "--db", db, "--json"])
        #expect(json.code == 0)
        let report = try json.json()
        #expect(report["path"] as? String == db)
        #expect(report["integrity"] as? [String] == ["ok"])
        #expect(report["healthy"] as? Bool == true)
        #expect(report["transactionCount"] as? Int == 1)
        #expect(report["schemaVersion"] as? Int == report["schemaVersionSupported"] as? Int)
        let pending = try #require(report["pendingFinishes"] as? [[String: Any]])
        #expect(pending.count == 1)
        #expect((pending.first?["ageSeconds"] as? Int ?? -1) >= 0)

        #expect(try contents(db) == before)
        #expect(!FileManager.default.fileExists(atPath: db + "-journal"))
    }

    /// A header field of a real ledger changed in a copy: its byte offset, the new big-endian value, the error.
    static let headerChanges: [(field: String, offset: Int, value: [UInt8], errorName: String)] = [
        ("application_id", 68, [0x41, 0x42, 0x43, 0x44], "ledger.foreignDatabase"),
        ("user_version", 60, [0, 0, 0, 99], "ledger.newerSchema"),
    ]

    @Test("a ledger copy with another application ID or a newer schema is refused by every command and left as it was",
        arguments: headerChanges)
    func changedHeader(change: (field: String, offset: Int, value: [UInt8], errorName: String)) async throws {
        let directory = try ScratchDirectory()
        let db = directory.path("ledger.sqlite")
        let purchase: [String: Any] = ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"]
        #expect(try await fulfill(purchase, db: db).code == 0)
        var bytes = try contents(db)
        bytes.replaceSubrange(change.offset..<(change.offset + 4), with: change.value)
        let changed = directory.path("changed.sqlite")
        try bytes.write(to: URL(fileURLWithPath: changed))

        let runs = [
            await ledger(["doctor", "--db", changed]), await ledger(["player", "p1", "--db", changed]),
            await ledger(["reset", "p1", "--db", changed]),
            await ledger(["recover", "--db", changed, "--catalog", repoCatalogPath]),
            try await fulfill(purchase, db: changed),
        ]
        for run in runs {
            #expect(run.code == 1, "\(change.field): \(run.output)")
            let error = try #require(try run.json()["error"] as? [String: Any])
            #expect(error["name"] as? String == change.errorName, "\(change.field)")
        }
        #expect(try contents(changed) == bytes)
    }
}
