import FulfillmentLedger
import SQLiteLedgerStore
import TestStoreAdapter

/// Builds the ledger the CLI commands run on: a SQLite file and the test store's ports
/// (`TestStoreAdapter`).
///
/// The CLI drives the built-in test store (sandbox only), so a production ledger can
/// never be built here: there is no "direct success" path.
package enum LedgerSetup {
    /// Opens the database and catalog and wires the test-store ports.
    package static func ledger(
        database: String, catalogPath: String, faults: any FaultInjector = NoFaults(),
        createIfMissing: Bool = true, ownershipTransfer: OwnershipTransferPolicy = .never
    ) throws(LedgerError) -> Ledger {
        try ledger(
            database: database, catalog: try CatalogLoader.load(path: catalogPath), faults: faults,
            createIfMissing: createIfMissing, ownershipTransfer: ownershipTransfer)
    }

    /// Opens the database with a catalog already loaded (such as the built-in sample).
    static func ledger(
        database: String, catalog: ProductCatalog, faults: any FaultInjector = NoFaults(),
        createIfMissing: Bool = true, ownershipTransfer: OwnershipTransferPolicy = .never
    ) throws(LedgerError) -> Ledger {
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = createIfMissing
        let store = try SQLiteLedgerStore(path: database, options: options)
        var configuration = LedgerConfiguration.sandbox
        configuration.ownershipTransfer = ownershipTransfer
        return try Ledger(
            catalog: catalog, store: store, verifier: TestStoreVerifier(), finisher: TestStoreFinisher(),
            faults: faults, configuration: configuration)
    }

    /// Opens an existing database only (never creates one).
    package static func existingStore(_ database: String) throws(LedgerError) -> SQLiteLedgerStore {
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false
        return try SQLiteLedgerStore(path: database, options: options)
    }
}
