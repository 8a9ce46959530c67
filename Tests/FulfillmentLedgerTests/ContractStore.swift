import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import SQLiteLedgerStore

/// One empty store of a kind, itself a `LedgerStore`: a SQLite store's temporary directory and a
/// PostgreSQL store's scratch schema live as long as this object, and go with it.
final class ContractStore: ForwardingLedgerStore {
    let store: any LedgerStore
    /// Closes the store and removes its folder, or drops its schema, when this object goes.
    private let lease: LedgerTestEngineLease?

    /// An empty store of `kind`, through the store port.
    static func open(_ kind: StoreKind) async throws(LedgerError) -> ContractStore {
        do { return try await ContractStore(kind) } catch let error as LedgerError { throw error } catch {
            throw LedgerError.invalidArgument("cannot open a \(kind) store: \(error)")
        }
    }

    /// Opens an empty store of `kind`.
    init(_ kind: StoreKind) async throws {
        switch kind {
        case .memory:
            store = InMemoryLedgerStore()
            lease = nil
        case .sqlite:
            let url = try LedgerHarness.temporaryDirectory()
            store = try SQLiteLedgerStore(path: url.appendingPathComponent("ledger.sqlite").path)
            lease = LedgerTestEngineLease(store: store, directory: url)
        case .postgres:
            let harness = try await LedgerHarness(.postgres)
            store = harness.ledger.store
            lease = harness.lease
        }
    }
}
