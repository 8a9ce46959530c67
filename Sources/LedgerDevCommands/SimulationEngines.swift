import Dispatch
import Foundation
import FulfillmentLedger
import LedgerSimulation
import PostgresLedgerStore
import PostgresLedgerStoreTesting
import SQLiteLedgerStore

/// The engines `ledger simulate` runs its ledgers on.
enum SimulationEngines {
    /// Connections each PostgreSQL run's store may open: the simulation calls it from one task.
    static let postgresConnectionCountMax = 2

    /// A SQLite file per run in `directory`, checked with `PRAGMA integrity_check` at its end.
    static func sqlite(in directory: URL) -> SimulationDatabases {
        .files(
            in: directory, open: { path throws(LedgerError) in try SQLiteLedgerStore(path: path) },
            integrityCheck: { path in LedgerDoctor.integrityProblem(path: path) })
    }

    /// A scratch schema per run on the PostgreSQL server at `serverURL`, dropped after the run;
    /// each run ends with the doctor's read of it.
    static func postgres(serverURL: String) -> SimulationDatabases {
        SimulationDatabases(
            create: { seed throws(LedgerError) in
                try await offCooperativeThreads { () throws(LedgerError) in
                    try PostgresScratchSchema.create(prefix: "ledger_sim_\(seed)", serverURL: serverURL).name
                }
            },
            open: { name throws(LedgerError) in
                try await PostgresScratchSchema(existing: name, serverURL: serverURL).openStore { options in
                    options.pool.connectionCountMax = postgresConnectionCountMax
                }
            },
            integrityCheck: { name in
                do throws(LedgerError) {
                    let schema = try PostgresScratchSchema(existing: name, serverURL: serverURL)
                    let report = try await PostgresLedgerDoctor.examine(connectionString: schema.connectionString)
                    return report.schemaVersion == report.schemaVersionSupported ? nil : "schema \(report.schemaVersion)"
                } catch {
                    return error.description
                }
            },
            remove: { name in
                try? await offCooperativeThreads { () throws(LedgerError) in
                    try PostgresScratchSchema(existing: name, serverURL: serverURL).drop()
                }
            })
    }

    /// Runs a blocking call (a connection of its own) on a thread of its own: neither on the
    /// concurrency pool nor on a global Dispatch queue, both as wide as the machine has cores.
    private static func offCooperativeThreads<T: Sendable>(
        _ body: @escaping @Sendable () throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let result: Result<T, LedgerError> = await withCheckedContinuation { continuation in
            Thread {
                do throws(LedgerError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }.start()
        }
        return try result.get()
    }
}
