import Dispatch
import FulfillmentLedger
import Foundation
import LedgerCommandLine
import PostgresLedgerStore
import PostgresLedgerStoreTesting

/// The PostgreSQL part of `ledger-bench` (`--postgres URL`): the raw libpq baseline, fulfillment,
/// duplicates and 64 concurrent callers on `PostgresLedgerStore`, and one process against four.
/// Each repeat works in new scratch schemas on the server, dropped afterwards.
enum BenchPostgres {
    /// Processes of P5's aggregate run.
    static let processCount = 4
    /// How long the parent waits for every child of one P5 run to be ready, answer and exit.
    static let childWaitSecondsMax = 600
    /// The prefix of the bench's scratch schemas.
    static let schemaPrefix = "ledger_bench"
    /// The prefix of the warm-up purchases: one per player, before anything is timed.
    static let warmUpPrefix = "warm"

    /// A ledger on `store` with the bench's catalog and no-op verifier and finisher.
    static func ledger(store: PostgresLedgerStore) throws -> Ledger {
        try Ledger(
            catalog: try BenchWorkloads.catalog(), store: store, verifier: BenchVerifier(), finisher: BenchFinisher(),
            configuration: .sandbox)
    }

    /// Grants one purchase to each of the bench's players, so every timed fulfillment finds its
    /// player and balance rows made, as in a ledger that has been running.
    static func warmUp(_ ledger: Ledger) async throws {
        let submissions = BenchWorkloads.submissions(prefix: warmUpPrefix, count: BenchWorkloads.playerCountMax)
        _ = try await BenchWorkloads.fulfillments(ledger: ledger, submissions: submissions, expecting: "granted")
    }

    /// A new scratch schema on `serverURL`, its store opened and its players warmed up.
    static func warmSchema(serverURL: String) async throws -> (PostgresScratchSchema, PostgresLedgerStore, Ledger) {
        let schema = try PostgresScratchSchema.create(prefix: schemaPrefix, serverURL: serverURL)
        do {
            let store = try await schema.openStore()
            let ledger = try ledger(store: store)
            try await warmUp(ledger)
            return (schema, store, ledger)
        } catch {
            try? schema.drop()
            throw error
        }
    }

    /// Runs every PostgreSQL workload `options.repeats` times, interleaved (the raw baseline and
    /// the ledger swap order from one repeat to the next), and returns the figures.
    static func measure(_ options: BenchOptions, serverURL: String, directory: URL, io: CommandIO) async throws
        -> BenchPostgresFigures
    {
        let interactive = isatty(STDERR_FILENO) == 1
        let executable = try childExecutable()
        var samples: [String: [Double]] = [:]
        var statementCount = 0
        for repeatIndex in 0..<options.repeats {
            if interactive { io.writeError("\rbench: PostgreSQL repeat \(repeatIndex + 1)/\(options.repeats)") }
            for rawFirst in repeatIndex % 2 == 0 ? [true, false] : [false, true] {
                if rawFirst {
                    let raw = try await measureRaw(serverURL: serverURL, count: options.count)
                    samples["p1Raw", default: []].append(raw.sequential.rate)
                    samples["p1RawConcurrent", default: []].append(raw.concurrent.rate)
                    samples["p1RawConcurrentRetries", default: []].append(Double(raw.concurrent.retryCount))
                    statementCount = raw.statementCount
                } else {
                    let ledger = try await measureLedger(serverURL: serverURL, count: options.count)
                    samples["p2Fulfill", default: []].append(ledger.fresh)
                    samples["p3Duplicate", default: []].append(ledger.duplicate)
                    samples["p4Concurrent", default: []].append(ledger.concurrent)
                    samples["p4Retries", default: []].append(Double(ledger.concurrentRetryCount))
                }
            }
            let processes = try await measureProcesses(
                serverURL: serverURL, count: options.count, executable: executable, directory: directory)
            samples["p5OneProcess", default: []].append(processes.one.rate)
            samples["p5Processes", default: []].append(processes.all.rate)
            samples["p5OneProcessBusy", default: []].append(processes.one.busyFraction)
            samples["p5ProcessesBusy", default: []].append(processes.all.busyFraction)
        }
        if interactive { io.writeError("\n") }
        let settings = try await serverSettings(serverURL: serverURL)
        return BenchPostgresFigures(
            samples: samples, statementsPerFulfillment: statementCount, serverVersion: settings.serverVersion,
            synchronousCommit: settings.synchronousCommit)
    }

    /// P1: records one fulfillment's statements on a warm ledger, then replays `count` of them on
    /// one connection and `count` more on as many connections as the store's pool holds, and checks
    /// the rows they left.
    static func measureRaw(serverURL: String, count: Int) async throws -> (
        sequential: (rate: Double, retryCount: Int), concurrent: (rate: Double, retryCount: Int), statementCount: Int
    ) {
        let (schema, store, ledger) = try await warmSchema(serverURL: serverURL)
        defer { try? schema.drop() }
        let work: RawPostgresLedgerWork
        do {
            work = try await RawPostgresLedgerWork.record(store: store, ledger: ledger, pilotPlayerID: "player-0")
            await store.close()
        } catch {
            await store.close()
            throw error
        }
        let connectionString = schema.connectionString
        let sequential = try await work.run(connectionString: connectionString, prefix: "raw", count: count, connectionCount: 1)
        let concurrent = try await work.run(
            connectionString: connectionString, prefix: "rawcon", count: count,
            connectionCount: PostgresPoolConfiguration.connectionCountMaxDefault)
        try RawPostgresLedgerWork.check(
            connectionString: connectionString, transactionCount: BenchWorkloads.playerCountMax + 1 + 2 * count)
        return (sequential, concurrent, work.statements.count)
    }

    /// P2, P3 and P4 on a warm ledger: `count` new fulfillments one after another, the same again
    /// (duplicates), then `count` new ones from 64 concurrent callers.
    static func measureLedger(serverURL: String, count: Int) async throws -> (
        fresh: Double, duplicate: Double, concurrent: Double, concurrentRetryCount: Int
    ) {
        let (schema, store, ledger) = try await warmSchema(serverURL: serverURL)
        defer { try? schema.drop() }
        do {
            let sequential = try await BenchWorkloads.sequential(
                ledger: ledger, submissions: BenchWorkloads.submissions(prefix: "seq", count: count))
            let retriesBefore = store.poolStatistics.transactionRetryCount
            let concurrent = try await BenchWorkloads.concurrent(
                ledger: ledger, submissions: BenchWorkloads.submissions(prefix: "con", count: count))
            let retryCount = store.poolStatistics.transactionRetryCount - retriesBefore
            await store.close()
            return (sequential.fresh, sequential.duplicate, concurrent, retryCount)
        } catch {
            await store.close()
            throw error
        }
    }

    /// P5: one child process fulfilling `count` purchases one after another, then
    /// `processCount` children each doing the same at once on the same warm ledger.
    static func measureProcesses(serverURL: String, count: Int, executable: URL, directory: URL) async throws -> (
        one: (rate: Double, busyFraction: Double), all: (rate: Double, busyFraction: Double)
    ) {
        let (schema, store, _) = try await warmSchema(serverURL: serverURL)
        await store.close()
        defer { try? schema.drop() }
        let one = try await runChildren(
            1, count: count, prefix: "one", schema: schema, serverURL: serverURL, executable: executable, directory: directory)
        let all = try await runChildren(
            processCount, count: count, prefix: "all", schema: schema, serverURL: serverURL, executable: executable,
            directory: directory)
        return (one, all)
    }

    /// Starts `childCount` children, waits until each is connected, tells them all to go, and
    /// returns their fulfillments per second together, from `go` to the last child's answer, and
    /// how busy the machine's processors were meanwhile (0 where that cannot be read).
    static func runChildren(
        _ childCount: Int, count: Int, prefix: String, schema: PostgresScratchSchema, serverURL: String, executable: URL,
        directory: URL
    ) async throws -> (rate: Double, busyFraction: Double) {
        try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(rate: Double, busyFraction: Double), any Error>) in
            // The children are spoken to with blocking reads, so not on a cooperative thread.
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try runChildrenBlocking(
                            childCount, count: count, prefix: prefix, schema: schema, serverURL: serverURL,
                            executable: executable, directory: directory)
                    })
            }
        }
    }

    private static func runChildrenBlocking(
        _ childCount: Int, count: Int, prefix: String, schema: PostgresScratchSchema, serverURL: String, executable: URL,
        directory: URL
    ) throws -> (rate: Double, busyFraction: Double) {
        var children: [BenchChildProcess] = []
        defer { for child in children { child.kill() } }
        for index in 0..<childCount {
            children.append(
                try BenchChildProcess(
                    executable: executable,
                    arguments: [
                        "--postgres", serverURL, "--postgres-child-schema", schema.name,
                        "--postgres-child-prefix", "\(prefix)\(index)", "--count", String(count),
                    ],
                    errorPath: directory.appendingPathComponent("postgres-child-\(prefix)\(index).stderr").path))
        }
        let deadline = ContinuousClock.now + .seconds(childWaitSecondsMax)
        for child in children {
            let line = try child.readLine(deadline: deadline)
            guard line == BenchPostgresChild.readyLine else {
                throw BenchWorkloads.Failure(description: "P5: a child said \(line) instead of \(BenchPostgresChild.readyLine)")
            }
        }
        let start = ContinuousClock.now
        let startCPU = BenchMachineCPU.now()
        for child in children { try child.send(BenchPostgresChild.goLine) }
        for child in children {
            let line = try child.readLine(deadline: deadline)
            guard line == BenchPostgresChild.doneLine(count: count) else {
                throw BenchWorkloads.Failure(description: "P5: a child answered \(line)")
            }
        }
        let elapsed = ContinuousClock.now - start
        var busyFraction = 0.0
        if let startCPU, let endCPU = BenchMachineCPU.now() { busyFraction = endCPU.busyFraction(since: startCPU) }
        for child in children { try child.waitForExit(deadline: deadline) }
        return (Double(childCount * count) / BenchWorkloads.seconds(elapsed), busyFraction)
    }

    /// The `ledger-bench` executable the children run: this process's own when it is
    /// `ledger-bench`, else the one built beside it (a test bundle's neighbour).
    static func childExecutable() throws -> URL {
        let current = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if current.lastPathComponent == "ledger-bench" { return current }
        var directory = current.deletingLastPathComponent()
        // A test bundle may be a folder (…/Foo.xctest/Contents/MacOS/Foo); look a few levels up.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("ledger-bench")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw BenchWorkloads.Failure(description: "P5: cannot find the ledger-bench executable beside \(current.path)")
    }

    /// The server's version and `synchronous_commit`, from a store opened for the purpose.
    static func serverSettings(serverURL: String) async throws -> PostgresServerSettings {
        let schema = try PostgresScratchSchema.create(prefix: schemaPrefix, serverURL: serverURL)
        defer { try? schema.drop() }
        let store = try await schema.openStore()
        do {
            let settings = try await store.serverSettings()
            await store.close()
            return settings
        } catch {
            await store.close()
            throw error
        }
    }
}
