import FulfillmentLedger
import Foundation
import LedgerCommandLine
import PostgresLedgerStoreTesting

/// A child of P5 (`ledger-bench --postgres URL --postgres-child-schema NAME
/// --postgres-child-prefix P --count N`, not in the help): it opens the parent's warm ledger,
/// prints `ready` once its connection is up, waits for `go`, fulfils N new purchases one after
/// another, prints `granted N` and exits.
enum BenchPostgresChild {
    /// What a child prints once it is connected.
    static let readyLine = "ready"
    /// What the parent sends to start every child at once.
    static let goLine = "go"

    /// What a child prints after granting `count` purchases.
    static func doneLine(count: Int) -> String { "granted \(count)" }

    /// Runs the child's part; any failure goes to standard error with exit code 1.
    static func run(_ options: BenchOptions, serverURL: String, schemaName: String, prefix: String, io: CommandIO) async
        -> ExitCode
    {
        do {
            let schema = try PostgresScratchSchema(existing: schemaName, serverURL: serverURL)
            let store = try await schema.openStore { $0.createIfMissing = false }
            do {
                let ledger = try BenchPostgres.ledger(store: store)
                // A redelivery of a warm-up purchase opens the pool's connection before the timing starts.
                let warm = BenchWorkloads.submissions(prefix: BenchPostgres.warmUpPrefix, count: 1)
                _ = try await BenchWorkloads.fulfillments(ledger: ledger, submissions: warm, expecting: "alreadyFulfilled")
                io.print(readyLine)
                guard let line = readLine(strippingNewline: true), line == goLine else {
                    throw BenchWorkloads.Failure(description: "the parent did not say \(goLine)")
                }
                let submissions = BenchWorkloads.submissions(prefix: prefix, count: options.count)
                _ = try await BenchWorkloads.fulfillments(ledger: ledger, submissions: submissions, expecting: "granted")
                io.print(doneLine(count: options.count))
                await store.close()
            } catch {
                await store.close()
                throw error
            }
            return .ok
        } catch {
            io.printError("ledger-bench: PostgreSQL child: \(error)")
            return .failure
        }
    }
}
