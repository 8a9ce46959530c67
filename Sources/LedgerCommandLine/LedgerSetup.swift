import FulfillmentLedger

/// Builds the ledger the CLI commands run on: a SQLite file or a PostgreSQL database
/// (`LedgerDatabase`) and the store ports the command's flags configure (`StorePortOptions`).
/// No path fakes a store: a store without a configured port refuses, and the test store is
/// wired on a sandbox ledger only, for `test` transactions.
package enum LedgerSetup {
    /// Opens the database and catalog with the test store's ports only (a sandbox ledger).
    package static func ledger(
        database: LedgerDatabase, catalogPath: String, faults: any FaultInjector = NoFaults(),
        createIfMissing: Bool = true, ownershipTransfer: OwnershipTransferPolicy = .never
    ) async throws(LedgerError) -> Ledger {
        try await ledger(
            database: database, catalog: try CatalogLoader.load(path: catalogPath), ports: .testStoreOnly,
            faults: faults, createIfMissing: createIfMissing, ownershipTransfer: ownershipTransfer)
    }

    /// Opens the database with a catalog already loaded and the ports the flags configure.
    static func ledger(
        database: LedgerDatabase, catalog: ProductCatalog, ports: StorePortOptions = .testStoreOnly,
        faults: any FaultInjector = NoFaults(), createIfMissing: Bool = true,
        ownershipTransfer: OwnershipTransferPolicy = .never
    ) async throws(LedgerError) -> Ledger {
        let store = try await database.open(createIfMissing: createIfMissing)
        var configuration = LedgerConfiguration(environment: ports.environment)
        configuration.ownershipTransfer = ownershipTransfer
        return try Ledger(
            catalog: catalog, store: store, verifier: ports.verifier(for: catalog), finisher: ports.finisher(for: configuration), faults: faults,
            configuration: configuration)
    }

    /// Opens an existing database only (never creates one).
    package static func existingStore(_ database: LedgerDatabase) async throws(LedgerError) -> any LedgerStore {
        try await database.open(createIfMissing: false)
    }
}
