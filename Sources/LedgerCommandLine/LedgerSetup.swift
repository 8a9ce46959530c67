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

    /// Opens the database and catalog with the test store's ports only (a sandbox ledger),
    /// runs `body` on it, and closes its store, whether `body` returns or throws.
    package static func withLedger<T>(
        database: LedgerDatabase, catalogPath: String, faults: any FaultInjector = NoFaults(),
        createIfMissing: Bool = true, _ body: (Ledger) async throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let ledger = try await ledger(
            database: database, catalogPath: catalogPath, faults: faults, createIfMissing: createIfMissing)
        return try await closing(ledger.store) { () async throws(LedgerError) -> T in try await body(ledger) }
    }

    /// Opens the database with a catalog already loaded and the ports the flags configure,
    /// runs `body` on it, and closes its store, whether `body` returns or throws.
    static func withLedger<T>(
        database: LedgerDatabase, catalog: ProductCatalog, ports: StorePortOptions = .testStoreOnly,
        createIfMissing: Bool = true, ownershipTransfer: OwnershipTransferPolicy = .never,
        _ body: (Ledger) async throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let ledger = try await ledger(
            database: database, catalog: catalog, ports: ports, createIfMissing: createIfMissing,
            ownershipTransfer: ownershipTransfer)
        return try await closing(ledger.store) { () async throws(LedgerError) -> T in try await body(ledger) }
    }

    /// Opens an existing database only (never creates one), runs `body` on its store, and
    /// closes it, whether `body` returns or throws.
    package static func withExistingStore<T>(
        _ database: LedgerDatabase, _ body: (any LedgerStore) async throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await withStore(database, createIfMissing: false, body)
    }

    /// Opens the database, runs `body` on its store, and closes it, whether `body` returns or
    /// throws: a command closes what it opens, so its carried finish marks commit and its
    /// connections close before the process exits (`UnclosedStoreCheck`).
    package static func withStore<T>(
        _ database: LedgerDatabase, createIfMissing: Bool, _ body: (any LedgerStore) async throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let store = try await database.open(createIfMissing: createIfMissing)
        return try await closing(store) { () async throws(LedgerError) -> T in try await body(store) }
    }

    /// Runs `body`, then closes `store`, whether `body` returned or threw.
    static func closing<T>(
        _ store: any LedgerStore, _ body: () async throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let result: Result<T, LedgerError>
        do throws(LedgerError) { result = .success(try await body()) } catch { result = .failure(error) }
        await store.close()
        return try result.get()
    }
}
