import CSQLite
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// Migration 2 (refund and revocation tables) and what only the SQLite store can show:
/// upgrading an existing file, the stored text, and the constraints SQLite enforces.
@Suite("Refund tables")
struct RefundTablesTests {
    /// The tables migration 2 adds.
    static let refundTables = ["player_flags", "players", "refund_states", "revocation_events"]

    /// Writes a version-1 ledger at `path` holding one purchase of `p1`, still pending its finish.
    static func writeVersionOneLedger(at path: String, extraSQL: String = "") throws {
        let raw = try RawDatabase(path: path)
        try raw.execute(LedgerSchema.migrations[0])
        try raw.execute(
            """
            PRAGMA user_version = 1;
            INSERT INTO ledger_transactions VALUES
                ('test', 't1', 'p1', 'gems_small', 'test.gems_small', 'consumable', 1, 'sandbox',
                 1780000000000, 1780000000000, 'catalog-hash',
                 '[{"id":"gems","kind":"currency","quantity":100}]', NULL);
            INSERT INTO balances VALUES ('p1', 'gems', 100);
            INSERT INTO pending_finishes VALUES ('test', 't1', 'p1', 1780000000000, 0, NULL);
            INSERT INTO events (kind, player_id, store, transaction_id, at_ms, detail)
                VALUES ('purchaseGranted', 'p1', 'test', 't1', 1780000000000, 'granted');
            \(extraSQL)
            """)
    }

    /// The names of the tables in the file at `path` among `names`.
    static func existingTables(_ names: [String], at path: String) throws -> [String] {
        let raw = try RawDatabase(path: path, readOnly: true)
        return try names.filter { name in
            try raw.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '\(name)'") == 1
        }
    }

    @Test("a version-1 ledger is migrated to version 2 on open and keeps its data")
    func migratesVersionOne() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("v1.sqlite")
        try Self.writeVersionOneLedger(at: path)
        #expect(try Self.existingTables(Self.refundTables, at: path).isEmpty)
        let before = try LedgerDoctor.examine(path: path)
        #expect(before.schemaVersion == 1)
        #expect(!before.healthy)

        let store = try SQLiteLedgerStore(path: path)
        await #expect(try connectionPragma("user_version", of: store) == Int64(LedgerSchema.versionSupported))
        #expect(LedgerSchema.versionSupported >= 2)
        let rows = try await playerRows("p1", in: store)
        #expect(rows.balances == ["gems": 100])
        #expect(rows.history == ["t1"])
        #expect(rows.events == ["granted"])
        let record = try await store.read { reader throws(LedgerError) in try reader.transaction(Rows.key("t1")) }
        #expect(record?.grants == [GrantLine(kind: .currency, id: "gems", quantity: 100)])
        // The new methods work on the migrated file, including against the old rows.
        let history = try await store.write { writer throws(LedgerError) in
            try writer.upsertRefundState(.active(Rows.key("t1")))
            try writer.reassignTransaction(Rows.key("t1"), toPlayerID: "p2")
            return try writer.events(transaction: Rows.key("t1"), limit: 10).map(\.detail)
        }
        #expect(history == ["granted"])
        let outbox = try await store.read { reader throws(LedgerError) in try reader.pendingFinish(Rows.key("t1")) }
        #expect(outbox?.playerID == "p2")
        #expect(try Self.existingTables(Self.refundTables, at: path) == Self.refundTables)
        await store.close()
    }

    @Test("the doctor finds a migrated ledger with refund rows healthy")
    func doctorAfterMigration() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("v1.sqlite")
        try Self.writeVersionOneLedger(at: path)
        do {
            let store = try SQLiteLedgerStore(path: path)
            try await store.write { writer throws(LedgerError) in
                try writer.insertRevocationEvent(Self.refund("e1"))
                try writer.upsertRefundState(.active(Rows.key("t1")))
                let flag = PlayerFlag(flag: "refundFloored", detail: "d", transaction: Rows.key("t1"), at: Rows.date)
                try writer.insertPlayerFlag(flag, playerID: "p1")
                _ = try writer.bumpEntitlementVersion(playerID: "p1")
            }
            await store.close()
        }
        let report = try LedgerDoctor.examine(path: path)
        #expect(report.schemaVersion == LedgerSchema.versionSupported)
        #expect(report.integrity == ["ok"])
        #expect(report.healthy)
        let raw = try RawDatabase(path: path, readOnly: true)
        #expect(try raw.text("PRAGMA foreign_key_check") == nil)
    }

    @Test("a migration that fails leaves the file at version 1, without half of the new schema")
    func failedMigrationRollsBack() throws {
        let directory = try ScratchDirectory()
        let path = directory.path("v1.sqlite")
        // A table in the way of migration 2: its CREATE TABLE fails after earlier ones ran.
        try Self.writeVersionOneLedger(at: path, extraSQL: "CREATE TABLE player_flags (x);")
        let error = #expect(throws: LedgerError.self) { _ = try SQLiteLedgerStore(path: path) }
        guard case .storage(let failure)? = error else {
            Issue.record("expected a storage error, got \(String(describing: error))")
            return
        }
        #expect(failure.message.contains("player_flags"))
        let raw = try RawDatabase(path: path, readOnly: true)
        #expect(try raw.integer("PRAGMA user_version") == 1)
        #expect(try Self.existingTables(["revocation_events", "refund_states"], at: path).isEmpty)
    }

    @Test("migrations 2 and 5 create the indexes the refund reads use")
    func indexes() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        await (try SQLiteLedgerStore(path: path)).close()
        let raw = try RawDatabase(path: path, readOnly: true)
        let expected = [
            "events_by_transaction": "store,transaction_id,sequence",
            "revocation_events_by_purchase": "store,purchase_id,event_date_ms",
            "player_flags_by_player": "player_id,sequence",
        ]
        for (index, columns) in expected {
            let found = try raw.text(
                "SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_index_info('\(index)') ORDER BY seqno)")
            #expect(found == columns, "\(index)")
        }
        for table in ["revocation_events", "refund_states", "players", "entitlements"] {
            let sql = try raw.text("SELECT sql FROM sqlite_schema WHERE name = '\(table)'") ?? ""
            #expect(sql.contains("WITHOUT ROWID"), "\(table)")
        }
    }

    /// A partial refund that took gems back and left debt.
    static func refund(_ eventID: String) -> RevocationRecord {
        RevocationRecord(
            event: RevocationEvent(
                eventID: eventID, store: .test, transactionID: "t1", kind: .partialRefund, quantity: 1,
                eventDate: Rows.date),
            disposition: .applied, effect: [GrantLine(kind: .currency, id: "gems", quantity: -100)],
            debtCreated: ["gems": 40, "coins": 7], receivedAt: Rows.date, reversed: true)
    }

    @Test("effect and debt are stored as readable JSON; quantity and reason may be NULL")
    func storedText() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        do {
            let store = try SQLiteLedgerStore(path: path)
            var revoke = Self.refund("e2")
            revoke.event.kind = .revoke
            revoke.event.quantity = nil
            revoke.debtCreated = [:]
            revoke.effect = []
            revoke.reversed = false
            let stored = revoke
            try await store.write { writer throws(LedgerError) in
                try writer.insertRevocationEvent(Self.refund("e1"))
                try writer.insertRevocationEvent(stored)
            }
            await #expect(try store.read { reader throws(LedgerError) in try reader.revocationEvent(id: "e2") } == revoke)
            await store.close()
        }
        let raw = try RawDatabase(path: path, readOnly: true)
        let debt = try raw.text("SELECT debt_created FROM revocation_events WHERE event_id = 'e1'")
        #expect(debt == #"{"coins":7,"gems":40}"#)
        let effect = try raw.text("SELECT effect FROM revocation_events WHERE event_id = 'e1'") ?? ""
        #expect(effect.hasPrefix("[{") && effect.contains(#""quantity":-100"#))
        #expect(try raw.integer("SELECT reversed FROM revocation_events WHERE event_id = 'e1'") == 1)
        #expect(try raw.text("SELECT debt_created || effect FROM revocation_events WHERE event_id = 'e2'") == "{}[]")
        let nulls = try raw.integer("SELECT count(*) FROM revocation_events WHERE quantity IS NULL AND reason IS NULL")
        #expect(nulls == 1)
    }

    @Test("a refund state without its ledger record fails at commit with SQLite's foreign key error")
    func refundStateForeignKey() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        let error = await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in try writer.upsertRefundState(.active(Rows.key("t-none"))) }
        }
        guard case .storage(let failure)? = error else {
            Issue.record("expected a storage error, got \(String(describing: error))")
            return
        }
        #expect(failure.sqliteResultCode == SQLITE_CONSTRAINT)
        #expect(failure.sqliteExtendedResultCode == LedgerWriteTests.foreignKeyCode)
        // The failed commit left no transaction open: the store still writes.
        try await store.write { writer throws(LedgerError) in try writer.insertTransaction(Rows.record("t1")) }
        await store.close()
    }

    @Test("a stored row SQLite accepts but the ledger cannot read is reported as corruption")
    func unreadableDisposition() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        do {
            let store = try SQLiteLedgerStore(path: path)
            try await store.write { writer throws(LedgerError) in try writer.insertRevocationEvent(Self.refund("e1")) }
            await store.close()
        }
        // Edited outside the ledger while no store has the file open.
        try RawDatabase(path: path).execute("UPDATE revocation_events SET disposition = 'bogus'")
        let store = try SQLiteLedgerStore(path: path)
        let error = await #expect(throws: LedgerError.self) {
            _ = try await store.read { reader throws(LedgerError) in try reader.revocationEvent(id: "e1") }
        }
        guard case .integrityCheckFailed(_, let detail)? = error else {
            Issue.record("expected an integrity error, got \(String(describing: error))")
            return
        }
        #expect(detail.contains("bogus"))
        await store.close()
    }
}
