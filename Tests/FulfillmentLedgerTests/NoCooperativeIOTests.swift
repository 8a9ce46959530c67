import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PostgresLedgerStore
import PostgresLedgerStoreTesting
import SQLiteFaultVFS
import SQLiteLedgerStore
import Synchronization
import Testing

/// The store port's rule that no store I/O or wait runs on a thread of the cooperative pool,
/// checked where the I/O happens: each file read, write, truncate and sync of a SQLite ledger
/// notes the store queue it ran on (through the fault VFS), and each statement a PostgreSQL
/// connection sends notes the pool queue it was sent from (through the statement tap).
@Suite("no store I/O on the cooperative pool")
struct NoCooperativeIOTests {
    /// Purchases the workload fulfils.
    static let purchaseCount = 24

    @Test("a SQLite ledger opened, used for grants, duplicates, reads and recovery, and closed does every file I/O on its own queues")
    func sqliteIOStaysOnStoreQueues() async throws {
        let vfs = try SQLiteFaultVFS.register(name: "no-cooperative-io-\(UUID().uuidString.prefix(8))")
        vfs.recordsQueueRoles = true
        let directory = try LedgerHarness.temporaryDirectory()
        let path = directory.appendingPathComponent("ledger.sqlite").path
        var options = SQLiteLedgerStore.Options()
        options.vfsName = vfs.name
        let store = try await SQLiteLedgerStore.open(path: path, options: options)
        try await Self.workload(store: store, path: path)
        await store.close()
        let roles = vfs.callCountsByQueueRole
        #expect(roles[SQLiteFaultVFS.elsewhereRole] == nil, "\(roles)")
        for role in ["open", "read", "groupCommit", "close"] { #expect(roles[role, default: 0] > 0, "\(role): \(roles)") }
        // Closed: no call reaches the file any more.
        await #expect(throws: LedgerError.self) { _ = try await store.read { reader throws(LedgerError) in try reader.balances(playerID: "p0") } }
        await #expect(throws: LedgerError.self) { try await store.write { writer throws(LedgerError) in _ = try writer.addToBalance(playerID: "p0", currencyID: "gems", delta: 1) } }
        #expect(vfs.callCountsByQueueRole == roles)
    }

    @Test(
        "a PostgreSQL ledger sends every statement from its pool's connection queues",
        .enabled(if: PostgresScratchSchema.shouldRun, "needs LEDGER_TEST_POSTGRES_URL"))
    func postgresStatementsStayOnPoolQueues() async throws {
        let schema = try PostgresScratchSchema.create(prefix: "ledger_no_coop")
        defer { try? schema.drop() }
        let store = try await schema.openStore()
        let roles = StatementRoles()
        store.statementTap.setHandler { statement in roles.note(statement.queueRole) }
        try await Self.workload(store: store, path: nil)
        await store.close()
        let counts = roles.counts
        #expect(counts[PostgresStatementTap.Statement.elsewhereRole] == nil, "\(counts)")
        #expect(counts["connection", default: 0] > Self.purchaseCount, "\(counts)")
    }

    /// Grants, a duplicate of each, the player's state and history, and recovery.
    static func workload(store: any LedgerStore, path: String?) async throws {
        let harness = try LedgerHarness(store: store, clock: ManualClock(), testStore: TestStore(), databasePath: path)
        for index in 0..<purchaseCount {
            let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p\(index % 4)")
            guard case .granted = try await harness.ledger.fulfill(purchase) else {
                Issue.record("purchase \(index) was not granted")
                return
            }
            guard case .alreadyFulfilled = try await harness.ledger.fulfill(purchase) else {
                Issue.record("purchase \(index) was granted twice")
                return
            }
        }
        _ = try await store.playerSnapshot("p0", historyCountMax: 10)
        _ = try await harness.ledger.supportReport("p0")
        _ = try await harness.ledger.recover()
    }
}

/// Statement counts by the queue role they were sent from.
final class StatementRoles: Sendable {
    private let state = Mutex<[String: Int]>([:])
    func note(_ role: String) { state.withLock { $0[role, default: 0] += 1 } }
    var counts: [String: Int] { state.withLock { $0 } }
}
