import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// A new SQLite ledger's file settings, reopening, and the one-store-per-file rule.
@Suite("SQLite ledger store")
struct SQLiteLedgerStoreTests {
    @Test("a new ledger is in WAL mode, stamped with the application ID and the current schema")
    func freshLedgerHeader() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        do {
            let store = try SQLiteLedgerStore(path: path)
            #expect(store.path == path)
            await #expect(try tableRowCounts(of: store) == emptyTableRowCounts)
            await store.close()
        }
        let raw = try RawDatabase(path: path)
        #expect(try raw.text("PRAGMA journal_mode") == "wal")
        #expect(try raw.integer("PRAGMA application_id") == 0x464C_4447)
        #expect(try raw.integer("PRAGMA user_version") == Int64(LedgerSchema.versionSupported))
        // SQLite's history ends at its own count; the shared line continues from there.
        #expect(LedgerSchema.versionSupported == LedgerSchemaDescription.versionSupported(historyVersion: LedgerSchema.migrations.count))
        #expect(LedgerSchema.versionSupported >= 1)
        var tables: [String] = []
        for table in ledgerTables {
            let count = try raw.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '\(table)'")
            if count == 1 { tables.append(table) }
        }
        #expect(tables == ledgerTables)
        let triggers = try raw.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'events'")
        #expect(triggers == 2)
        // Migration 9: a player's economy operations by time, for the balance history.
        let indexed = try raw.text(
            "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_index_info('economy_operations_by_player') ORDER BY seqno)")
        #expect(indexed == "player_id,applied_at_ms")
    }

    @Test(
        "per-connection settings: foreign keys on, synchronous as configured, busy timeout as configured",
        arguments: [
            (SQLiteLedgerStore.Synchronous?.none, Int64(2)), (.full, 2), (.normal, 1),
        ])
    func connectionSettings(synchronous: SQLiteLedgerStore.Synchronous?, expectedLevel: Int64) async throws {
        let directory = try ScratchDirectory()
        var options = SQLiteLedgerStore.Options()
        if let synchronous { options.synchronous = synchronous }
        options.busyTimeoutMilliseconds = 1_234
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"), options: options)

        await #expect(try connectionPragma("synchronous", of: store) == expectedLevel)
        await #expect(try connectionPragma("foreign_keys", of: store) == 1)
        await #expect(try connectionPragma("busy_timeout", of: store) == 1_234)
        await store.close()
    }

    @Test("the default options are FULL durability, a quick check, a 5 s busy timeout, and create if missing")
    func defaultOptions() {
        let options = SQLiteLedgerStore.Options()
        #expect(options.synchronous == .full)
        #expect(options.openCheck == .quick)
        #expect(options.busyTimeoutMilliseconds == 5_000)
        #expect(options.createIfMissing)
    }

    @Test("data survives closing and reopening, with every open check", arguments: SQLiteLedgerStore.OpenCheck.allCases)
    func reopenPersists(check: SQLiteLedgerStore.OpenCheck) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        let written: PlayerRows
        do {
            let store = try SQLiteLedgerStore(path: path)
            try await store.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 250)
                _ = try writer.addToInventory(playerID: "p1", itemID: "frost_tower", delta: 2)
                try writer.insertTransaction(Rows.record("t1"))
                _ = try writer.grantEntitlement(Rows.entitlement("remove_ads", source: "t1"), playerID: "p1")
                try writer.incrementPurchaseCount(playerID: "p1", productID: "gems_small", period: "lifetime", by: 1)
                try writer.appendEvent(Rows.event("p1", "bought gems"))
            }
            written = try await playerRows("p1", in: store)
            await store.close()
        }
        #expect(
            written
                == PlayerRows(
                    balances: ["gems": 250], inventory: ["frost_tower": 2], entitlements: ["remove_ads"], history: ["t1"],
                    events: ["bought gems"], lifetimePurchases: 1))

        var options = SQLiteLedgerStore.Options()
        options.openCheck = check
        options.createIfMissing = false
        let reopened = try SQLiteLedgerStore(path: path, options: options)
        await #expect(try playerRows("p1", in: reopened) == written)
        let record = try await reopened.read { reader throws(LedgerError) in try reader.transaction(Rows.key("t1")) }
        #expect(record == Rows.record("t1"))
        let pending = try await reopened.read { reader throws(LedgerError) in try reader.pendingFinish(Rows.key("t1")) }
        #expect(pending == PendingFinish(key: Rows.key("t1"), playerID: "p1", enqueuedAt: Rows.date, attemptCount: 0, lastError: nil))
        await reopened.close()
    }

    @Test("a second store for the same file in one process is refused until the first is released")
    func ledgerInUse() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        do {
            let first = try SQLiteLedgerStore(path: path)
            withExtendedLifetime(first) {
                #expect(throws: LedgerError.ledgerInUse(location: path)) { _ = try SQLiteLedgerStore(path: path) }
                // A refused open must not release the first store's claim.
                #expect(throws: LedgerError.ledgerInUse(location: path)) { _ = try SQLiteLedgerStore(path: path) }
            }
            try await first.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 7)
            }
            await first.close()
        }
        let second = try SQLiteLedgerStore(path: path)
        await #expect(try playerRows("p1", in: second).balances == ["gems": 7])
        await second.close()
    }

    /// Other spellings of one file's path.
    enum PathAlias: String, CaseIterable, CustomTestStringConvertible {
        case dotComponent
        case parentComponent
        case symlinkedDirectory
        case hardLink

        var testDescription: String { rawValue }

        /// Makes the alias of the existing `directory/real/ledger.sqlite` and returns it.
        func make(in directory: ScratchDirectory) throws -> String {
            switch self {
            case .dotComponent: return directory.path("real/./ledger.sqlite")
            case .parentComponent:
                try FileManager.default.createDirectory(
                    atPath: directory.path("real/sub"), withIntermediateDirectories: true)
                return directory.path("real/sub/../ledger.sqlite")
            case .symlinkedDirectory:
                try FileManager.default.createSymbolicLink(
                    atPath: directory.path("link"), withDestinationPath: directory.path("real"))
                return directory.path("link/ledger.sqlite")
            case .hardLink:
                try FileManager.default.linkItem(
                    atPath: directory.path("real/ledger.sqlite"), toPath: directory.path("hard.sqlite"))
                return directory.path("hard.sqlite")
            }
        }
    }

    @Test("another spelling of the same path is also refused while the file is open", arguments: PathAlias.allCases)
    func ledgerInUseThroughAlias(alias: PathAlias) async throws {
        let directory = try ScratchDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("real"), withIntermediateDirectories: true)
        let path = directory.path("real/ledger.sqlite")
        let aliasPath: String
        do {
            let first = try SQLiteLedgerStore(path: path)
            aliasPath = try alias.make(in: directory)
            withExtendedLifetime(first) {
                #expect(throws: LedgerError.ledgerInUse(location: aliasPath)) { _ = try SQLiteLedgerStore(path: aliasPath) }
                #expect(first.path == path)
            }
            await first.close()
        }
        // Released: the alias now opens the same ledger.
        let reopened = try SQLiteLedgerStore(path: aliasPath)
        await #expect(try tableRowCounts(of: reopened) == emptyTableRowCounts)
        await reopened.close()
    }

    @Test("two different files can be open at the same time")
    func differentFilesCoexist() async throws {
        let directory = try ScratchDirectory()
        let first = try SQLiteLedgerStore(path: directory.path("a.sqlite"))
        let second = try SQLiteLedgerStore(path: directory.path("b.sqlite"))
        try await first.write { writer throws(LedgerError) in
            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1)
        }
        try await second.write { writer throws(LedgerError) in
            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 2)
        }
        await #expect(try playerRows("p1", in: first).balances == ["gems": 1])
        await #expect(try playerRows("p1", in: second).balances == ["gems": 2])
        await first.close()
        await second.close()
    }

    @Test("a write blocked by another connection's write lock fails after the busy timeout, and the store recovers")
    func busyTimeout() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        var options = SQLiteLedgerStore.Options()
        options.busyTimeoutMilliseconds = 100
        let store = try SQLiteLedgerStore(path: path, options: options)
        let other = try RawDatabase(path: path)
        try other.execute("BEGIN IMMEDIATE")

        let started = Date()
        let error = await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1)
            }
        }
        #expect(Date().timeIntervalSince(started) >= 0.09)
        guard case .storage(let failure)? = error else {
            Issue.record("expected .storage, got \(String(describing: error))")
            return
        }
        #expect(failure.sqliteResultCode == 5)  // SQLITE_BUSY
        #expect(failure.sql == "BEGIN IMMEDIATE")

        try other.execute("ROLLBACK")
        try await store.write { writer throws(LedgerError) in
            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1)
        }
        await #expect(try playerRows("p1", in: store).balances == ["gems": 1])
        await store.close()
    }

    @Test(
        "a path SQLite would not keep on disk in WAL mode is refused as a configuration error",
        arguments: ["", ":memory:", "file:ledger.sqlite?mode=memory"])
    func nonFilePathRefused(path: String) throws {
        let error = try #require(#expect(throws: LedgerError.self) { _ = try SQLiteLedgerStore(path: path) })
        guard case .configuration(let message) = error else {
            Issue.record("expected .configuration, got \(error)")
            return
        }
        #expect(message.contains("WAL is required"))
        // The failed open released its claim on the path.
        #expect(throws: LedgerError.self) { _ = try SQLiteLedgerStore(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path) || path.isEmpty)
    }

    @Test("concurrent writes from many tasks are serialized and none is lost")
    func concurrentWritesSerialize() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        let taskCount = 16
        let writesPerTask = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<taskCount {
                group.addTask {
                    for write in 0..<writesPerTask {
                        try await store.write { writer throws(LedgerError) in
                            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1)
                            try writer.appendEvent(Rows.event("p1", "task \(task) write \(write)"))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let rows = try await playerRows("p1", in: store)
        #expect(rows.balances == ["gems": Int64(taskCount * writesPerTask)])
        await #expect(try tableRowCounts(of: store)["events"] == Int64(taskCount * writesPerTask))
        await store.close()
    }
}
