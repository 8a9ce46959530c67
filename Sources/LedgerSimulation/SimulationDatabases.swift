import Foundation
import FulfillmentLedger

/// Where the simulation's runs keep their ledgers: a fresh, empty database per run, opened again
/// at every simulated restart, checked at the end of the run and removed after it. Any engine
/// can serve: SQLite files in a folder (`files`), or a PostgreSQL schema per run.
public struct SimulationDatabases: Sendable {
    /// Makes an empty database for the run with this seed and returns its location.
    public var create: @Sendable (_ runSeed: UInt64) async throws(LedgerError) -> String
    /// Opens the store at a location (the simulation drops it and opens it again to restart).
    public var open: @Sendable (_ location: String) async throws(LedgerError) -> any LedgerStore
    /// Checks the engine's own integrity of a database no store has open: nil when ok.
    public var integrityCheck: @Sendable (_ location: String) async -> String?
    /// Removes the database and everything in it.
    public var remove: @Sendable (_ location: String) async -> Void

    /// Databases from four functions.
    public init(
        create: @escaping @Sendable (UInt64) async throws(LedgerError) -> String,
        open: @escaping @Sendable (String) async throws(LedgerError) -> any LedgerStore,
        integrityCheck: @escaping @Sendable (String) async -> String?,
        remove: @escaping @Sendable (String) async -> Void
    ) {
        self.create = create
        self.open = open
        self.integrityCheck = integrityCheck
        self.remove = remove
    }

    /// One file per run in `directory` (`run-SEED.sqlite`), opened with `open`; its side files
    /// (`-wal`, `-shm`, `-journal`) go with it.
    public static func files(
        in directory: URL, open: @escaping @Sendable (String) throws(LedgerError) -> any LedgerStore,
        integrityCheck: @escaping @Sendable (String) -> String?
    ) -> SimulationDatabases {
        let remove: @Sendable (String) -> Void = { path in
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        return SimulationDatabases(
            create: { seed throws(LedgerError) in
                let path = directory.appendingPathComponent("run-\(seed).sqlite").path
                remove(path)
                return path
            },
            open: { path throws(LedgerError) in try open(path) },
            integrityCheck: { path in integrityCheck(path) },
            remove: { path in remove(path) })
    }
}
