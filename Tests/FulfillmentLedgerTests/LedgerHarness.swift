import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PostgresLedgerStore
import PostgresLedgerStoreTesting
import SQLiteLedgerStore
import Testing

/// Which store implementation a test runs against: every test that takes a `StoreKind` is the
/// conformance suite of the store port, run on each engine.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case memory
    case sqlite
    /// A scratch schema on the test server; listed only when one is configured (or required).
    case postgres

    /// The engines this run tests: PostgreSQL only where `PostgresScratchSchema.shouldRun`.
    static var allCases: [StoreKind] {
        PostgresScratchSchema.shouldRun ? [.memory, .sqlite, .postgres] : [.memory, .sqlite]
    }

    var testDescription: String { rawValue }
}

/// A ledger wired to the test store, a manual clock and a scripted fault injector.
struct LedgerHarness {
    let ledger: Ledger
    let testStore: TestStore
    let faults: ScriptedFaultInjector
    let clock: ManualClock
    let databasePath: String?
    /// What closes the harness's store (and drops its PostgreSQL schema) when the harness goes.
    var lease: LedgerTestEngineLease?

    static let catalogPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ProductCatalog.json").path

    /// How long a PostgreSQL caller waits for a pool connection in tests: the whole suite runs in
    /// parallel beside the server on a small machine, where 64 concurrent callers can wait far
    /// longer than the production default (5 s) with nothing wrong.
    static let postgresAcquireTimeoutMilliseconds = 60_000

    static func sampleCatalog() throws -> ProductCatalog { try CatalogLoader.load(path: catalogPath) }

    /// The folder every test of this process writes under. Folders of earlier runs whose
    /// process is gone are removed first, so runs do not pile up files.
    static let runDirectory: URL = {
        let base = FileManager.default.temporaryDirectory
        let prefix = "fl-tests-run-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? [] where name.hasPrefix(prefix) {
            if let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0 {
                try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
            }
        }
        return base.appendingPathComponent("\(prefix)\(getpid())")
    }()

    /// A new temporary directory for one test's files.
    static func temporaryDirectory() throws -> URL {
        let url = runDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    init(
        _ kind: StoreKind, clock: ManualClock = ManualClock(), testStore: TestStore? = nil,
        databasePath: String? = nil, configuration: LedgerConfiguration = .sandbox
    ) async throws {
        let store: any LedgerStore
        var path: String?
        var lease: LedgerTestEngineLease?
        switch kind {
        case .memory:
            store = InMemoryLedgerStore()
        case .sqlite:
            let file = try databasePath ?? Self.temporaryDirectory().appendingPathComponent("ledger.sqlite").path
            store = try SQLiteLedgerStore(path: file)
            path = file
            lease = LedgerTestEngineLease(store: store)
        case .postgres:
            let schema = try PostgresScratchSchema.create(prefix: "ledger_harness")
            let postgresStore: PostgresLedgerStore
            do {
                postgresStore = try await schema.openStore { options in
                    options.pool.acquireTimeoutMilliseconds = Self.postgresAcquireTimeoutMilliseconds
                }
            } catch {
                try? schema.drop()
                throw error
            }
            lease = LedgerTestEngineLease(store: postgresStore, schema: schema)
            store = postgresStore
        }
        try self.init(
            store: store, clock: clock, testStore: testStore ?? TestStore(clock: clock), databasePath: path,
            configuration: configuration)
        self.lease = lease
    }

    /// Closes the store now, for a test that opens its file again.
    func close() async { await ledger.store.close() }

    init(
        store: any LedgerStore, clock: ManualClock, testStore: TestStore, databasePath: String?,
        configuration: LedgerConfiguration = .sandbox
    ) throws {
        self.clock = clock
        self.testStore = testStore
        self.faults = ScriptedFaultInjector()
        self.databasePath = databasePath
        self.ledger = try Ledger(
            catalog: try Self.sampleCatalog(), store: store, verifier: testStore.verifier, finisher: testStore,
            source: testStore, clock: clock, faults: faults, configuration: configuration)
    }

    /// The player's balance of a currency.
    func balance(_ player: String, _ currency: String) async throws -> Int64 {
        try await ledger.player(player).balances[currency] ?? 0
    }

    /// Everything a player has, for before/after comparisons.
    func progress(_ player: String) async throws -> Progress {
        let snapshot = try await ledger.player(player)
        return Progress(
            balances: snapshot.balances, inventory: snapshot.inventory,
            entitlements: snapshot.entitlements.map(\.entitlementID), transactionCount: snapshot.history.count)
    }

    /// Pending finishes in the outbox.
    func pendingFinishCount() async throws -> Int {
        try await ledger.store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 1000).count }
    }

    /// Purchases a player made of a product in a period.
    func purchaseCount(_ player: String, _ productID: String, _ period: String = PurchasePeriod.lifetime) async throws -> Int {
        try await ledger.store.read { reader throws(LedgerError) in
            try reader.purchaseCount(playerID: player, productID: productID, period: period)
        }
    }
}

/// A player's visible state.
struct Progress: Equatable {
    var balances: [String: Int64]
    var inventory: [String: Int64]
    var entitlements: [String]
    var transactionCount: Int
}
