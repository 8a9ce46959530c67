import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// Opening a file the ledger does not own raises a typed error and leaves the file byte-for-byte as it was.
@Suite("Ledger file safety")
struct LedgerFileSafetyTests {
    @Test(
        "opening a refused file throws its typed error and leaves it untouched",
        arguments: RefusedFile.allCases, SQLiteLedgerStore.OpenCheck.allCases)
    func storeRefusesFile(file: RefusedFile, check: SQLiteLedgerStore.OpenCheck) throws {
        let directory = try ScratchDirectory()
        let path = directory.path("refused.db")
        try file.write(to: path)
        try #require(existingSideFiles(of: path).isEmpty, "the fixture must start without side files")
        let before = try contents(path)
        var options = SQLiteLedgerStore.Options()
        options.openCheck = check

        for attempt in 1...2 {
            // The second attempt shows a failed open does not leave the path marked in use.
            let error = #expect(throws: LedgerError.self, "attempt \(attempt)") {
                _ = try SQLiteLedgerStore(path: path, options: options)
            }
            let thrown = try #require(error)
            #expect(file.matches(thrown, path: path), "unexpected error \(thrown)")
        }

        #expect(try contents(path) == before)
        #expect(existingSideFiles(of: path).isEmpty)
        #expect(try directory.fileNames() == ["refused.db"])
    }

    @Test("the doctor refuses the same files with the same errors and leaves them untouched", arguments: RefusedFile.allCases)
    func doctorRefusesFile(file: RefusedFile) throws {
        let directory = try ScratchDirectory()
        let path = directory.path("refused.db")
        try file.write(to: path)
        let before = try contents(path)

        let error = #expect(throws: LedgerError.self) { _ = try LedgerDoctor.examine(path: path) }
        let thrown = try #require(error)
        #expect(file.matches(thrown, path: path), "unexpected error \(thrown)")
        #expect(try contents(path) == before)
        #expect(try noJournalDataBeside(path))
        if file != .foreignApplicationWAL {
            #expect(existingSideFiles(of: path).isEmpty)
            #expect(try directory.fileNames() == ["refused.db"])
        }
    }

    @Test("the typed errors carry their stable codes", arguments: [
        (RefusedFile.randomBytes, 1001, "ledger.notALedger"),
        (.foreignApplication, 1002, "ledger.foreignDatabase"),
        (.newerLedgerSchema, 1003, "ledger.newerSchema"),
    ])
    func refusalCodes(file: RefusedFile, code: Int, codeName: String) throws {
        let directory = try ScratchDirectory()
        let path = directory.path("refused.db")
        try file.write(to: path)
        let error = try #require(#expect(throws: LedgerError.self) { _ = try SQLiteLedgerStore(path: path) })
        #expect(error.code == code)
        #expect(error.codeName == codeName)
        #expect(error.description.contains(path))
    }

    @Test("a missing file is not created when createIfMissing is false")
    func missingFileNotCreated() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("missing.sqlite")
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false

        #expect(throws: LedgerError.ledgerMissing(location: path)) { _ = try SQLiteLedgerStore(path: path, options: options) }
        #expect(throws: LedgerError.ledgerMissing(location: path)) { _ = try LedgerDoctor.examine(path: path) }
        #expect(try directory.fileNames().isEmpty)
        // The failed open released the path: creating it now works.
        options.createIfMissing = true
        await (try SQLiteLedgerStore(path: path, options: options)).close()
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("the doctor calls a zero-byte file empty and does not initialise it")
    func doctorOnEmptyFile() throws {
        let directory = try ScratchDirectory()
        let path = directory.path("empty.sqlite")
        try #require(FileManager.default.createFile(atPath: path, contents: Data()))

        let error = try #require(#expect(throws: LedgerError.self) { _ = try LedgerDoctor.examine(path: path) })
        guard case .notALedger(let found, let detail) = error else {
            Issue.record("expected notALedger, got \(error)")
            return
        }
        #expect(found == path)
        #expect(detail == "the database is empty")
        #expect(try contents(path).isEmpty)
        #expect(try directory.fileNames() == ["empty.sqlite"])
    }

    @Test("a zero-byte file is a new database: the store initialises it as a ledger")
    func storeInitialisesEmptyFile() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("empty.sqlite")
        try #require(FileManager.default.createFile(atPath: path, contents: Data()))
        do {
            let store = try SQLiteLedgerStore(path: path)
            await #expect(try tableRowCounts(of: store) == emptyTableRowCounts)
            await store.close()
        }
        let raw = try RawDatabase(path: path)
        #expect(try raw.integer("PRAGMA application_id") == Int64(LedgerSchema.applicationID))
        #expect(try raw.integer("PRAGMA user_version") == Int64(LedgerSchema.versionSupported))
    }

    @Test("a ledger whose pages were damaged fails its check, typed, and is left as it was", arguments: [
        SQLiteLedgerStore.OpenCheck.quick, .full,
    ])
    func damagedLedgerFailsCheck(check: SQLiteLedgerStore.OpenCheck) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("damaged.sqlite")
        do {
            let store = try SQLiteLedgerStore(path: path)
            try await store.write { writer throws(LedgerError) in
                for number in 0..<200 {
                    try writer.insertTransaction(Rows.record("t\(number)"))
                    try writer.appendEvent(Rows.event("p1", String(repeating: "x", count: 200)))
                }
            }
            await store.close()
        }
        try damageLastPage(of: path)
        let before = try contents(path)
        var options = SQLiteLedgerStore.Options()
        options.openCheck = check

        let error = try #require(#expect(throws: LedgerError.self) { _ = try SQLiteLedgerStore(path: path, options: options) })
        guard case .integrityCheckFailed(let found, let detail) = error else {
            Issue.record("expected integrityCheckFailed, got \(error)")
            return
        }
        #expect(found == path)
        #expect(!detail.isEmpty)
        #expect(try contents(path) == before)
        #expect(existingSideFiles(of: path).isEmpty)
    }

    /// Overwrites the b-tree page header of the last page with garbage, keeping the file header intact.
    private func damageLastPage(of path: String) throws {
        let (pageSize, pageCount) = try { () throws -> (Int, Int) in
            let raw = try RawDatabase(path: path)
            return (Int(try raw.integer("PRAGMA page_size")), Int(try raw.integer("PRAGMA page_count")))
        }()
        try #require(pageCount > 2)
        var bytes = try contents(path)
        let start = (pageCount - 1) * pageSize
        for offset in 0..<64 { bytes[start + offset] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
    }
}
