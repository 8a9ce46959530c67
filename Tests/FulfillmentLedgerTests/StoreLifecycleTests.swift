import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PostgresLedgerStore
import PostgresLedgerStoreTesting
import SQLiteLedgerStore
import Testing

/// Opening and closing are the store port's own (`LedgerStore.open`, `close`): code generic over
/// the port opens any engine from its configuration, and a closed store refuses work.
@Suite("store lifecycle through the port")
struct StoreLifecycleTests {
    /// Opens a store through the port, writes, closes, checks the closed store refuses a read and
    /// a write with a storage error and a second close does nothing, then opens the same
    /// configuration again and returns the balance the new store reads (what survived).
    static func balanceAfterReopening<S: LedgerStore>(_ type: S.Type, _ configuration: S.Configuration) async throws -> Int64 {
        let store = try await S.open(configuration)
        try await store.write { writer throws(LedgerError) in
            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 5)
        }
        await store.close()
        await store.close()
        await #expect(throws: LedgerError.self) { try await store.read { reader throws(LedgerError) in try reader.balances(playerID: "p1") } }
        let refusedWrite = await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1) }
        }
        guard case .storage = refusedWrite else {
            Issue.record("a write on a closed \(S.self) failed with \(String(describing: refusedWrite)), not a storage error")
            return -1
        }
        let reopened = try await S.open(configuration)
        let balance = try await reopened.read { reader throws(LedgerError) in try reader.balances(playerID: "p1")["gems"] ?? 0 }
        await reopened.close()
        return balance
    }

    @Test("SQLite: a ledger opened through the port keeps its writes across a close and a reopen")
    func sqlite() async throws {
        let directory = try ScratchDirectory()
        let configuration = SQLiteLedgerStore.Configuration(path: directory.path("ledger.sqlite"))
        #expect(try await Self.balanceAfterReopening(SQLiteLedgerStore.self, configuration) == 5)
    }

    @Test("memory: each open is a new, empty ledger")
    func memory() async throws {
        #expect(try await Self.balanceAfterReopening(InMemoryLedgerStore.self, .init()) == 0)
    }

    @Test("PostgreSQL: a ledger opened through the port keeps its writes across a close and a reopen")
    func postgres() async throws {
        guard PostgresScratchSchema.shouldRun else { return }
        let schema = try PostgresScratchSchema.create(prefix: "lifecycle")
        defer { try? schema.drop() }
        let configuration = PostgresLedgerStore.Options(connectionString: schema.connectionString)
        #expect(try await Self.balanceAfterReopening(PostgresLedgerStore.self, configuration) == 5)
    }
}
