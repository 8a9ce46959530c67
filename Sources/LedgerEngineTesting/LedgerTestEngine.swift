import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PostgresLedgerStore
import PostgresLedgerStoreTesting
import SQLiteLedgerStore

/// The store engines a suite runs the same ledger code on: in memory, SQLite and, where a test
/// server is configured, PostgreSQL. Pass `LedgerTestEngine.allCases` as a parameterized test's
/// arguments, and keep the lease for as long as the store is used.
public enum LedgerTestEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case sqlite
    /// A scratch schema on the test server; listed only when one is configured (or required).
    case postgres

    /// The engines this run tests: PostgreSQL only where `PostgresScratchSchema.shouldRun`.
    public static var allCases: [LedgerTestEngine] {
        PostgresScratchSchema.shouldRun ? [.memory, .sqlite, .postgres] : [.memory, .sqlite]
    }

    /// The engine's name, as a parameterized test shows it.
    public var description: String { rawValue }

    /// A new, empty store of this engine and what must outlive it.
    public func makeStore(prefix: String = "engine_tests") async throws -> (any LedgerStore, LedgerTestEngineLease?) {
        switch self {
        case .memory:
            return (InMemoryLedgerStore(), nil)
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fl-engine-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try await SQLiteLedgerStore.open(path: directory.appendingPathComponent("ledger.sqlite").path)
            return (store, LedgerTestEngineLease(store: store, directory: directory))
        case .postgres:
            let schema = try PostgresScratchSchema.create(prefix: prefix)
            do {
                let store = try await schema.openStore { options in
                    // The whole suite runs in parallel beside the server on a small machine.
                    options.pool.acquireTimeoutMilliseconds = 60_000
                }
                return (store, LedgerTestEngineLease(store: store, schema: schema))
            } catch {
                try? schema.drop()
                throw error
            }
        }
    }
}

/// What a test's store needs released when the test's setup goes: the store closed (a store's
/// `deinit` only checks that it was), on the store's own thread where it can, then its SQLite
/// folder removed or its PostgreSQL scratch schema dropped. A test that opens the same file
/// again closes the store itself first.
public final class LedgerTestEngineLease: Sendable {
    /// The store the lease closes.
    public let store: any LedgerStore
    private let directory: URL?
    private let schema: PostgresScratchSchema?

    /// A lease on `store`, with the folder or the scratch schema that goes once it is closed.
    public init(store: any LedgerStore, directory: URL? = nil, schema: PostgresScratchSchema? = nil) {
        self.store = store
        self.directory = directory
        self.schema = schema
    }

    /// The SQLite file of a `.sqlite` store, for the tools that open it by path (`LedgerDoctor`).
    public var sqlitePath: String? { directory?.appendingPathComponent("ledger.sqlite").path }
    /// The connection string of a `.postgres` store's schema, for the tools that connect
    /// themselves (`PostgresLedgerDoctor`).
    public var postgresConnectionString: String? { schema?.connectionString }

    deinit {
        let (directory, schema) = (self.directory, self.schema)
        StoreCleanup.closeInBackground(store) {
            if let directory { try? FileManager.default.removeItem(at: directory) }
            try? schema?.drop()
        }
    }
}
