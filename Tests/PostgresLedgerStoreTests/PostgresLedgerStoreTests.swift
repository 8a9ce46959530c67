import FulfillmentLedger
import FulfillmentLedgerTesting
import Foundation
import PostgresLedgerStoreTesting
import Testing
import TestStoreAdapter

@testable import PostgresLedgerStore

extension PostgresServerTests {
    /// Opening, migrating and refusing: the schema rules of the PostgreSQL store.
    @Suite struct LedgerStoreOpenTests {
        /// Runs `body` with a fresh scratch schema, dropped afterwards.
        static func withSchema<T>(_ body: (PostgresScratchSchema) async throws -> T) async throws -> T {
            let schema = try PostgresScratchSchema.create(prefix: "ledger_open")
            defer { try? schema.drop() }
            return try await body(schema)
        }

        @Test("an empty schema becomes a ledger at the current version; reopening changes nothing")
        func createsThenReopens() async throws {
            try await Self.withSchema { schema in
                let store = try await schema.openStore()
                let version = try await Self.meta(store)
                #expect(version == ["application": "FulfillmentLedger", "schema_version": "\(PostgresLedgerStore.schemaVersion)"])
                try await store.write { writer throws(LedgerError) in
                    _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 5)
                }
                await store.close()
                let again = try await schema.openStore()
                #expect(try await again.read { reader throws(LedgerError) in try reader.balances(playerID: "p1") } == ["gems": 5])
                await again.close()
            }
        }

        @Test("a newer schema, another application's stamp and stray ledger tables are refused untouched")
        func refusesWhatItMustNotTouch() async throws {
            try await Self.withSchema { schema in
                let store = try await schema.openStore()
                try await Self.execute(store, "UPDATE ledger_meta SET value = '999' WHERE name = 'schema_version'")
                await store.close()
                await #expect {
                    _ = try await schema.openStore()
                } throws: { error in
                    guard case LedgerError.newerSchema(_, let found, let supported) = error else { return false }
                    return found == 999 && supported == PostgresLedgerStore.schemaVersion
                }
            }
            try await Self.withSchema { schema in
                let store = try await schema.openStore()
                try await Self.execute(store, "UPDATE ledger_meta SET value = 'SomethingElse' WHERE name = 'application'")
                await store.close()
                await #expect {
                    _ = try await schema.openStore()
                } throws: { error in
                    guard case LedgerError.notALedger = error else { return false }
                    return true
                }
            }
            try await Self.withSchema { schema in
                try schema.execute("CREATE TABLE balances (player_id text)")
                await #expect {
                    _ = try await schema.openStore()
                } throws: { error in
                    guard case LedgerError.notALedger(_, let detail) = error else { return false }
                    return detail.contains("without ledger_meta")
                }
                // Untouched: no ledger table was created next to the stray one.
                let tables = try PostgresScratchSchema.tableCount(in: schema)
                #expect(tables == 1)
            }
        }

        @Test("createIfMissing false refuses an empty schema and creates nothing")
        func refusesToCreate() async throws {
            try await Self.withSchema { schema in
                await #expect {
                    _ = try await schema.openStore { $0.createIfMissing = false }
                } throws: { error in
                    guard case LedgerError.ledgerMissing(let location) = error else { return false }
                    return !location.contains("ledger_test:") || location.contains("***")
                }
                let tables = try PostgresScratchSchema.tableCount(in: schema)
                #expect(tables == 0)
            }
        }

        @Test("servers opening one empty database together migrate it once")
        func concurrentOpensMigrateOnce() async throws {
            try await Self.withSchema { schema in
                let stores = try await withThrowingTaskGroup(of: PostgresLedgerStore.self) { group in
                    for _ in 0..<6 { group.addTask { try await schema.openStore() } }
                    var opened: [PostgresLedgerStore] = []
                    for try await store in group { opened.append(store) }
                    return opened
                }
                #expect(stores.count == 6)
                #expect(try await Self.meta(stores[0])["schema_version"] == "\(PostgresLedgerStore.schemaVersion)")
                for store in stores { await store.close() }
            }
        }

        @Test("a purchase through the ledger is granted once, finished, and replayed as alreadyFulfilled")
        func fulfillThroughTheLedger() async throws {
            try await Self.withSchema { schema in
                let store = try await schema.openStore()
                let clock = ManualClock()
                let testStore = TestStore(clock: clock)
                let ledger = try Ledger(
                    catalog: try CatalogLoader.load(path: Self.catalogPath), store: store, verifier: testStore.verifier,
                    finisher: testStore, source: testStore, clock: clock, configuration: .sandbox)
                let purchase = testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
                let outcome = try await ledger.fulfill(purchase)
                #expect(outcome.name == "granted")
                #expect(outcome.receipt?.finished == true)
                #expect(try await ledger.fulfill(purchase).name == "alreadyFulfilled")
                let snapshot = try await ledger.player("p1")
                #expect(snapshot.balances == ["gems": 100])
                #expect(snapshot.history.count == 1 && snapshot.history.first?.finishedAt != nil)
                await store.close()
            }
        }

        static let catalogPath = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ProductCatalog.json").path

        static func meta(_ store: PostgresLedgerStore) async throws -> [String: String] {
            try await store.pool.withConnection { (connection) throws(PostgresError) in
                let rows = try connection.query("SELECT name, value FROM ledger_meta").rows
                var values: [String: String] = [:]
                for row in rows { values[try row.text(0)] = try row.text(1) }
                return values
            }
        }

        static func execute(_ store: PostgresLedgerStore, _ sql: String) async throws {
            try await store.pool.withConnection { (connection) throws(PostgresError) in _ = try connection.execute(sql) }
        }
    }
}

extension PostgresScratchSchema {
    /// Tables in the schema.
    static func tableCount(in schema: PostgresScratchSchema) throws -> Int64 {
        let connection = try PostgresConnection(connectionString: PostgresConnectionString(schema.connectionString))
        defer { connection.close() }
        return try connection.queryOne(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = $1", [.text(schema.name)])?.int64(0) ?? 0
    }
}
