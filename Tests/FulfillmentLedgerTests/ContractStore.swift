import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteLedgerStore

/// One empty store of a kind, itself a `LedgerStore`: a SQLite store's temporary directory and a
/// PostgreSQL store's scratch schema live as long as this object, and go with it.
final class ContractStore: ForwardingLedgerStore {
    let store: any LedgerStore
    private let directory: URL?
    private let lease: HarnessStoreLease?

    /// Opens an empty store of `kind`.
    init(_ kind: StoreKind) async throws {
        switch kind {
        case .memory:
            store = InMemoryLedgerStore()
            directory = nil
            lease = nil
        case .sqlite:
            let url = try LedgerHarness.temporaryDirectory()
            store = try SQLiteLedgerStore(path: url.appendingPathComponent("ledger.sqlite").path)
            directory = url
            lease = HarnessStoreLease(store: store)
        case .postgres:
            let harness = try await LedgerHarness(.postgres)
            store = harness.ledger.store
            directory = nil
            lease = harness.lease
        }
    }

    deinit {
        // The lease closes the store in the background; the folder goes once it has.
        if let directory, let lease {
            StoreCleanup.closeInBackground(lease.store) { try? FileManager.default.removeItem(at: directory) }
        }
    }
}
