import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteLedgerStore

/// One empty store of a kind, itself a `LedgerStore`: a SQLite store's temporary directory and a
/// PostgreSQL store's scratch schema live as long as this object, and go with it.
final class ContractStore: ForwardingLedgerStore {
    let store: any LedgerStore
    private let directory: URL?
    private let postgres: PostgresScratchLease?

    /// Opens an empty store of `kind`.
    init(_ kind: StoreKind) async throws {
        switch kind {
        case .memory:
            store = InMemoryLedgerStore()
            directory = nil
            postgres = nil
        case .sqlite:
            let url = try LedgerHarness.temporaryDirectory()
            store = try SQLiteLedgerStore(path: url.appendingPathComponent("ledger.sqlite").path)
            directory = url
            postgres = nil
        case .postgres:
            let harness = try await LedgerHarness(.postgres)
            store = harness.ledger.store
            directory = nil
            postgres = harness.postgres
        }
    }

    deinit { directory.map { try? FileManager.default.removeItem(at: $0) } }
}
