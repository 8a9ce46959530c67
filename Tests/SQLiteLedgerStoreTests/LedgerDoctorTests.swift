import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// The doctor reports a ledger's health read-only: the file is byte-identical afterwards.
@Suite("Ledger doctor")
struct LedgerDoctorTests {
    static let enqueued = Date(timeIntervalSince1970: 1_790_000_000)

    /// Writes three transactions, two of them still owed a finish, then releases the store.
    private func makeLedger(at path: String) async throws {
        let store = try SQLiteLedgerStore(path: path)
        try await store.write { writer throws(LedgerError) in
            for (id, at) in [("t-old", Self.enqueued), ("t-new", Self.enqueued.addingTimeInterval(60)), ("t-done", Self.enqueued)] {
                try writer.insertTransaction(Rows.record(id, player: "p-\(id)", fulfilledAt: at))
            }
            try writer.recordFinishFailure(Rows.key("t-old"), message: "store outage")
            try writer.markFinished(Rows.key("t-done"), at: Self.enqueued.addingTimeInterval(1))
        }
        await store.close()
    }

    @Test("a healthy ledger with two pending finishes is reported in full, and the file is not changed")
    func healthyReport() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        try await makeLedger(at: path)
        try #require(existingSideFiles(of: path).isEmpty, "closing the store checkpoints and removes the WAL")
        let before = try contents(path)

        let report = try LedgerDoctor.examine(path: path, now: Self.enqueued.addingTimeInterval(3_600.9))

        #expect(report.path == path)
        #expect(report.schemaVersion == LedgerSchema.versionSupported)
        #expect(report.schemaVersionSupported == LedgerSchema.versionSupported)
        #expect(report.integrity == ["ok"])
        #expect(report.transactionCount == 3)
        #expect(report.healthy)
        #expect(
            report.pendingFinishes == [
                .init(key: Rows.key("t-old"), playerID: "p-t-old", ageSeconds: 3_600, attemptCount: 1, lastError: "store outage", overdue: false),
                .init(key: Rows.key("t-new"), playerID: "p-t-new", ageSeconds: 3_540, attemptCount: 0, lastError: nil, overdue: false),
            ])

        #expect(try contents(path) == before)
        #expect(try noJournalDataBeside(path))
        // Whatever the doctor left beside the file, the next store opens and closes it cleanly.
        do {
            let store = try SQLiteLedgerStore(path: path)
            await #expect(try store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 10) }.count == 2)
            await store.close()
        }
        #expect(try contents(path) == before)
        #expect(existingSideFiles(of: path).isEmpty)
    }

    @Test("ages are never negative when `now` is before the grant", arguments: [-1.0, -3_600.0, 0.0, 0.999])
    func agesClampAtZero(offset: Double) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        try await makeLedger(at: path)
        let report = try LedgerDoctor.examine(path: path, now: Self.enqueued.addingTimeInterval(offset))
        #expect(report.pendingFinishes.map(\.ageSeconds) == [0, 0])
    }

    @Test(
        "a pending finish at or past the warning age is overdue; overdue finishes do not make the ledger unhealthy",
        arguments: [(Int64(3_600), 1), (3_540, 2), (3_601, 0), (0, 2)])
    func overdueFinishes(warningAge: Int64, overdueCount: Int) async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        try await makeLedger(at: path)
        let report = try LedgerDoctor.examine(
            path: path, now: Self.enqueued.addingTimeInterval(3_600), finishWarningAgeSeconds: warningAge)
        #expect(report.finishWarningAgeSeconds == warningAge)
        #expect(report.overdueFinishCount == overdueCount)
        #expect(report.pendingFinishes.filter(\.overdue).count == overdueCount)
        #expect(report.pendingFinishes.allSatisfy { $0.overdue == ($0.ageSeconds >= warningAge) })
        #expect(report.healthy)
    }

    @Test("the doctor works on a ledger another store has open, and does not disturb it")
    func examineWhileOpen() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        try await makeLedger(at: path)
        let store = try SQLiteLedgerStore(path: path)
        try await store.write { writer throws(LedgerError) in
            var live = Rows.record("t-live")
            live.finishedAt = Rows.date
            try writer.insertTransaction(live)
        }

        let report = try LedgerDoctor.examine(path: path, now: Self.enqueued)
        #expect(report.transactionCount == 4)
        #expect(report.pendingFinishes.map(\.key.transactionID) == ["t-old", "t-new"])
        #expect(report.healthy)
        try await store.write { writer throws(LedgerError) in try writer.insertTransaction(Rows.record("t-pending")) }
        await #expect(try store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 10) }.count == 3)
        await store.close()
    }

    @Test("an empty ledger is healthy with no transactions")
    func emptyLedger() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        await (try SQLiteLedgerStore(path: path)).close()
        let report = try LedgerDoctor.examine(path: path)
        #expect(report.transactionCount == 0)
        #expect(report.pendingFinishes.isEmpty)
        #expect(report.integrity == ["ok"])
        #expect(report.healthy)
    }

    @Test("a ledger at an older schema version is reported as not healthy")
    func olderSchemaNotHealthy() throws {
        let directory = try ScratchDirectory()
        let path = directory.path("old.sqlite")
        do {
            let raw = try RawDatabase(path: path)
            try raw.execute(LedgerSchema.migrations[0])
            try raw.execute("PRAGMA user_version = 0")
        }
        // Version 0 with our application ID and tables: readable, but not current.
        let report = try LedgerDoctor.examine(path: path)
        #expect(report.schemaVersion == 0)
        #expect(report.integrity == ["ok"])
        #expect(!report.healthy)
    }

    @Test("the report encodes to JSON with every field")
    func reportEncodes() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        try await makeLedger(at: path)
        let report = try LedgerDoctor.examine(path: path, now: Self.enqueued.addingTimeInterval(10))
        let data = try JSONEncoder().encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "path", "schemaVersion", "schemaVersionSupported", "integrity", "transactionCount", "pendingFinishes",
                "pendingFinishCount", "pendingFinishesTruncated", "finishWarningAgeSeconds", "overdueFinishCount",
                "unacknowledgedPlayVoids", "healthy",
            ])
        #expect(try JSONDecoder().decode(LedgerHealthReport.self, from: data) == report)
    }
}
