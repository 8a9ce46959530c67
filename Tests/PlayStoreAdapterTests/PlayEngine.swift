import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PostgresLedgerStore
import PostgresLedgerStoreTesting
import SQLiteLedgerStore
import Testing

/// The store engines the Play ledger tests run on: the same adapter code over each.
enum PlayEngine: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case sqlite
    /// A scratch schema on the test server; listed only when one is configured (or required).
    case postgres

    /// The engines this run tests: PostgreSQL only where `PostgresScratchSchema.shouldRun`.
    static var allCases: [PlayEngine] {
        PostgresScratchSchema.shouldRun ? [.memory, .sqlite, .postgres] : [.memory, .sqlite]
    }

    var testDescription: String { rawValue }

    /// A new, empty store of this engine and what must outlive it.
    func makeStore() async throws -> (any LedgerStore, PlayEngineLease?) {
        switch self {
        case .memory:
            return (InMemoryLedgerStore(), nil)
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fl-play-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try SQLiteLedgerStore(path: directory.appendingPathComponent("ledger.sqlite").path)
            return (store, PlayEngineLease(directory: directory))
        case .postgres:
            let schema = try PostgresScratchSchema.create(prefix: "play_tests")
            do {
                let store = try await schema.openStore { options in
                    // The whole suite runs in parallel beside the server on a small machine.
                    options.pool.acquireTimeoutMilliseconds = 60_000
                }
                return (store, PlayEngineLease(postgres: (schema, store)))
            } catch {
                try? schema.drop()
                throw error
            }
        }
    }
}

/// What a Play test's store needs released when the test's setup goes: its SQLite folder, or its
/// PostgreSQL connections and scratch schema.
final class PlayEngineLease: Sendable {
    private let directory: URL?
    private let postgres: (schema: PostgresScratchSchema, store: PostgresLedgerStore)?

    init(directory: URL? = nil, postgres: (schema: PostgresScratchSchema, store: PostgresLedgerStore)? = nil) {
        self.directory = directory
        self.postgres = postgres
    }

    deinit {
        if let directory { try? FileManager.default.removeItem(at: directory) }
        if let (schema, store) = postgres {
            Task {
                await store.close()
                try? schema.drop()
            }
        }
    }
}
