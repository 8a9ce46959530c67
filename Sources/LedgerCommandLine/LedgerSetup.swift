import FulfillmentLedger
import SQLiteLedgerStore

/// Builds the ledger the CLI commands run on: a SQLite file and the store ports the command's
/// flags configure (`StorePortOptions`). No path fakes a store: a store without a configured
/// port refuses, and the test store is wired on a sandbox ledger only, for `test` transactions.
package enum LedgerSetup {
    /// Opens the database and catalog with the test store's ports only (a sandbox ledger).
    package static func ledger(
        database: String, catalogPath: String, faults: any FaultInjector = NoFaults(),
        createIfMissing: Bool = true, ownershipTransfer: OwnershipTransferPolicy = .never
    ) throws(LedgerError) -> Ledger {
        try ledger(
            database: database, catalog: try CatalogLoader.load(path: catalogPath), ports: .testStoreOnly,
            faults: faults, createIfMissing: createIfMissing, ownershipTransfer: ownershipTransfer)
    }

    /// Opens the database with a catalog already loaded and the ports the flags configure.
    static func ledger(
        database: String, catalog: ProductCatalog, ports: StorePortOptions = .testStoreOnly,
        faults: any FaultInjector = NoFaults(), createIfMissing: Bool = true,
        ownershipTransfer: OwnershipTransferPolicy = .never
    ) throws(LedgerError) -> Ledger {
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = createIfMissing
        let store = try SQLiteLedgerStore(path: database, options: options)
        var configuration = LedgerConfiguration(environment: ports.environment)
        configuration.ownershipTransfer = ownershipTransfer
        return try Ledger(
            catalog: catalog, store: store, verifier: ports.verifier, finisher: ports.finisher, faults: faults,
            configuration: configuration)
    }

    /// Opens an existing database only (never creates one).
    package static func existingStore(_ database: String) throws(LedgerError) -> SQLiteLedgerStore {
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false
        return try SQLiteLedgerStore(path: database, options: options)
    }
}
