import CSQLite
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// A `write` is one transaction: it commits whole or rolls back whole, and the store stays usable after.
@Suite("Ledger writes")
struct LedgerWriteTests {
    /// SQLITE_CONSTRAINT_PRIMARYKEY.
    static let primaryKeyCode: Int32 = 1555
    /// SQLITE_CONSTRAINT_CHECK.
    static let checkCode: Int32 = 275
    /// SQLITE_CONSTRAINT_FOREIGNKEY.
    static let foreignKeyCode: Int32 = 787

    private static func operation(_ id: String) -> OperationRecord {
        OperationRecord(
            operation: .grant(5, of: "coins", player: "p1", operationID: id), balanceAfter: 5, appliedAt: Rows.date)
    }

    /// Writes one of everything for `p1` and transaction `t1`.
    private static func writeEverything(_ writer: LedgerWriter) throws(LedgerError) {
        _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 100)
        _ = try writer.addToInventory(playerID: "p1", itemID: "frost_tower", delta: 1)
        _ = try writer.grantEntitlement(Rows.entitlement("remove_ads", source: "t1"), playerID: "p1")
        try writer.insertTransaction(Rows.record("t1"))
        try writer.incrementPurchaseCount(playerID: "p1", productID: "gems_small", period: "lifetime", by: 1)
        try writer.insertOperation(operation("op1"))
        try writer.appendEvent(Rows.event())
    }

    /// Proves the store holds no open transaction or write lock: another connection can take the write lock.
    private func expectWriteLockFree(_ path: String) throws {
        let raw = try RawDatabase(path: path)
        try raw.execute("PRAGMA busy_timeout = 0")
        try raw.execute("BEGIN IMMEDIATE")
        try raw.execute("ROLLBACK")
    }

    @Test("a write body that throws after changing every table persists nothing")
    func throwingBodyRollsBack() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        let store = try SQLiteLedgerStore(path: path)

        let error = await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in
                try Self.writeEverything(writer)
                // Inside the transaction the changes are visible...
                guard try writer.balances(playerID: "p1") == ["gems": 100], try writer.transaction(Rows.key("t1")) != nil
                else { throw LedgerError.invalidArgument("changes not visible inside the write") }
                // ...and then the body gives up.
                throw LedgerError.invalidArgument("abandon")
            }
        }
        #expect(error == .invalidArgument("abandon"))
        await #expect(try tableRowCounts(of: store) == emptyTableRowCounts)
        await #expect(try playerRows("p1", in: store) == .empty)
        try expectWriteLockFree(path)

        // The connection is back in autocommit: the same writes now commit.
        try await store.write { writer throws(LedgerError) in try Self.writeEverything(writer) }
        let counts = try await tableRowCounts(of: store)
        #expect(counts.values.allSatisfy { $0 == 1 }, "\(counts)")
        try expectWriteLockFree(path)
        await store.close()
    }

    @Test("a write that returns commits everything and returns its value")
    func returningBodyCommits() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        let sequence = try await store.write { writer throws(LedgerError) -> Int64 in
            try Self.writeEverything(writer)
            return try writer.appendEvent(Rows.event("p1", "second"))
        }
        #expect(sequence == 2)
        await #expect(try tableRowCounts(of: store)["events"] == 2)
        await #expect(try store.read { reader throws(LedgerError) in try reader.operation(id: "op1") } == Self.operation("op1"))
        await store.close()
    }

    /// A write that breaks a constraint of the schema, with the SQL and extended code it must report.
    enum Violation: String, CaseIterable, CustomTestStringConvertible {
        case duplicateOperation
        case zeroQuantityRecord

        var testDescription: String { rawValue }

        var extendedCode: Int32 { self == .zeroQuantityRecord ? LedgerWriteTests.checkCode : LedgerWriteTests.primaryKeyCode }

        var sqlPrefix: String {
            switch self {
            case .zeroQuantityRecord: "INSERT INTO ledger_transactions"
            case .duplicateOperation: "INSERT INTO economy_operations"
            }
        }

        func commit(_ writer: LedgerWriter) throws(LedgerError) {
            switch self {
            case .zeroQuantityRecord: try writer.insertTransaction(Rows.record("t1"))
            case .duplicateOperation: try writer.insertOperation(LedgerWriteTests.operation("op1"))
            }
        }

        func violate(_ writer: LedgerWriter) throws(LedgerError) {
            switch self {
            case .duplicateOperation: try writer.insertOperation(LedgerWriteTests.operation("op1"))
            case .zeroQuantityRecord:
                var record = Rows.record("t2")
                record.quantity = 0
                try writer.insertTransaction(record)
            }
        }
    }

    @Test("a constraint violation throws .storage with SQLite's extended code and SQL, and rolls the write back",
        arguments: Violation.allCases)
    func constraintViolation(violation: Violation) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        let store = try SQLiteLedgerStore(path: path)
        try await store.write { writer throws(LedgerError) in try violation.commit(writer) }
        let countsBefore = try await tableRowCounts(of: store)

        let error = await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 100)
                _ = try writer.addToInventory(playerID: "p1", itemID: "frost_tower", delta: 3)
                try writer.appendEvent(Rows.event("p1", "before the violation"))
                try violation.violate(writer)
            }
        }
        guard case .storage(let failure)? = error else {
            Issue.record("expected .storage, got \(String(describing: error))")
            return
        }
        #expect(failure.engine == "sqlite")
        #expect(failure.sqliteResultCode == SQLITE_CONSTRAINT)
        #expect(failure.sqliteExtendedResultCode == violation.extendedCode)
        #expect(failure.sql?.hasPrefix(violation.sqlPrefix) == true, "\(failure.sql ?? "no SQL")")
        #expect(failure.message.contains("constraint failed"), "\(failure.message)")
        #expect(error?.code == 1007)

        await #expect(try tableRowCounts(of: store) == countsBefore)
        await #expect(try playerRows("p1", in: store).balances.isEmpty)
        try expectWriteLockFree(path)
        try await store.write { writer throws(LedgerError) in
            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1)
        }
        await #expect(try playerRows("p1", in: store).balances == ["gems": 1])
        await store.close()
    }

    @Test("an entitlement may be written before its ledger row in the same write (deferred foreign key)")
    func deferredForeignKeyCommits() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        let granted = try await store.write { writer throws(LedgerError) -> Bool in
            let granted = try writer.grantEntitlement(Rows.entitlement("remove_ads", source: "t1"), playerID: "p1")
            try writer.insertTransaction(Rows.record("t1"))
            return granted
        }
        #expect(granted)
        let entitlements = try await store.read { reader throws(LedgerError) in try reader.entitlements(playerID: "p1") }
        #expect(entitlements == [Rows.entitlement("remove_ads", source: "t1")])

        // The same purchase paying again changes nothing and says so; a second purchase adds its payment.
        let (again, second) = try await store.write { writer throws(LedgerError) -> (Bool, Bool) in
            try writer.insertTransaction(Rows.record("t2"))
            return (
                try writer.grantEntitlement(Rows.entitlement("remove_ads", source: "t1"), playerID: "p1"),
                try writer.grantEntitlement(Rows.entitlement("remove_ads", source: "t2"), playerID: "p1")
            )
        }
        #expect(!again && second)
        let payments = try await store.read { reader throws(LedgerError) in try reader.entitlements(playerID: "p1") }
        #expect(payments.map(\.source) == [Rows.key("t1"), Rows.key("t2")])
        await store.close()
    }

    @Test("an entitlement whose ledger row never comes fails at COMMIT and rolls back")
    func deferredForeignKeyFailsAtCommit() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        let store = try SQLiteLedgerStore(path: path)
        let error = await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 100)
                _ = try writer.grantEntitlement(Rows.entitlement("remove_ads", source: "nowhere"), playerID: "p1")
            }
        }
        guard case .storage(let failure)? = error else {
            Issue.record("expected .storage, got \(String(describing: error))")
            return
        }
        #expect(failure.sqliteExtendedResultCode == Self.foreignKeyCode)
        #expect(failure.sql == "COMMIT")
        await #expect(try tableRowCounts(of: store) == emptyTableRowCounts)
        try expectWriteLockFree(path)
        try await store.write { writer throws(LedgerError) in try Self.writeEverything(writer) }
        await #expect(try playerRows("p1", in: store).entitlements == ["remove_ads"])
        await store.close()
    }

    @Test("a second record with a taken key inserts nothing and says so, so a racing delivery can retry")
    func duplicateKeyInsertsNothing() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        let results = try await store.write { writer throws(LedgerError) in
            [try writer.insertTransaction(Rows.record("t1")), try writer.insertTransaction(Rows.record("t1", player: "p2"))]
        }
        #expect(results == [true, false])
        let record = try await store.read { reader throws(LedgerError) in try reader.transaction(Rows.key("t1")) }
        #expect(record?.playerID == "p1", "the first record stays as it was")
        await store.close()
    }

    @Test("a record is pending its finish until marked, failed attempts are counted on it, and the mark stamps it once")
    func markFinished() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteLedgerStore(path: directory.path("ledger.sqlite"))
        let first = Date(timeIntervalSince1970: 1_790_000_000.123_9)
        try await store.write { writer throws(LedgerError) in
            try writer.insertTransaction(Rows.record("t1"))
            try writer.recordFinishFailure(Rows.key("t1"), message: "store outage")
            try writer.recordFinishFailure(Rows.key("t1"), message: "store outage again")
        }
        let pending = try await store.read { reader throws(LedgerError) in try reader.pendingFinish(Rows.key("t1")) }
        #expect(pending?.attemptCount == 2)
        #expect(pending?.lastError == "store outage again")

        try await store.write { writer throws(LedgerError) in try writer.markFinished(Rows.key("t1"), at: first) }
        try await store.write { writer throws(LedgerError) in
            try writer.markFinished(Rows.key("t1"), at: first.addingTimeInterval(60))
        }
        let (record, outbox) = try await store.read { reader throws(LedgerError) in
            (try reader.transaction(Rows.key("t1")), try reader.pendingFinishes(limit: 10))
        }
        #expect(outbox.isEmpty)
        #expect(record?.finishedAt == first.truncatedToLedgerMilliseconds)
        #expect(record?.isFinished == true)
        await store.close()
    }
}
