import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerSimulation
import SQLiteLedgerStore
import Testing
import TestStoreAdapter

/// The `ledger` process killed with SIGKILL at random moments of a 300-transaction
/// workload, then the ledger reopened, recovered and checked.
@Suite struct RandomCrashTests {
    /// Killed runs required; runs where the child finished before the kill do not count.
    static let killedRunCountMin = 200
    /// Attempts allowed to reach that many kills.
    static let attemptCountMax = 500
    /// Transactions per workload (at least 200; more keeps a loaded machine from finishing before the kill).
    static let workloadCount = 300
    /// Runs at once (the machine has 2 cores).
    static let concurrentRunCount = 2

    struct Outcome: Sendable {
        var killed: Bool
        var reportedCount: Int
    }

    @Test func killAtRandomMomentsThenRecover() async throws {
        let executable = try #require(CrashAtFaultPointTests.executable, "build the ledger executable first")
        let catalog = try CatalogLoader.load(path: repoCatalogPath)
        var killed = 0
        var attempts = 0
        var reported = 0
        while killed < Self.killedRunCountMin && attempts < Self.attemptCountMax {
            let batch = (attempts..<attempts + Self.concurrentRunCount)
            attempts += Self.concurrentRunCount
            let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                for seed in batch {
                    group.addTask { try await Self.crashAndCheck(seed: UInt64(seed), executable: executable, catalog: catalog) }
                }
                var outcomes: [Outcome] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            killed += outcomes.filter(\.killed).count
            reported += outcomes.map(\.reportedCount).reduce(0, +)
        }
        #expect(killed >= Self.killedRunCountMin, "only \(killed) of \(attempts) runs were killed before finishing")
        #expect(reported > 0, "children must report outcomes before dying")
    }

    static func crashAndCheck(seed: UInt64, executable: URL, catalog: ProductCatalog) async throws -> Outcome {
        let base = FileManager.default.fileExists(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let directory = base.appendingPathComponent("fl-random-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("ledger.sqlite").path

        let (killed, printed) = try await onOwnThread { try Self.runAndKill(executable, database: database, seed: seed) }
        // Only complete lines were reported; a line cut by the kill was not.
        let lines = printed.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let reportedGranted = lines.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["outcome"] as? String == "granted"
            else { return nil }
            return object["transactionID"] as? String
        }
        try await verify(database: database, seed: seed, catalog: catalog, reportedGranted: reportedGranted)
        return Outcome(killed: killed, reportedCount: lines.count)
    }

    /// Runs the workload child and kills it at a random moment, on the calling thread, which
    /// must be one of its own; whether the kill ended it, and what it printed.
    static func runAndKill(_ executable: URL, database: String, seed: UInt64) throws -> (killed: Bool, printed: String) {
        ProcessLaunchGuard.waitForFewDescriptors()
        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "workload", "--db", database, "--catalog", repoCatalogPath, "--seed", "\(seed)", "--count",
            "\(workloadCount)",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var random = SplitMix64(seed: seed)
        // A dispatch timer, not a task sleep: busy test threads must not delay the kill.
        let pid = process.processIdentifier
        let delayMicroseconds = 5_000 + random.below(150_000)
        let timer = DispatchWorkItem { if process.isRunning { kill(pid, SIGKILL) } }
        Self.timers.asyncAfter(deadline: .now() + .microseconds(delayMicroseconds), execute: timer)
        process.waitUntilExit()
        // Never signal a process ID the system may hand to someone else once the child is gone.
        timer.cancel()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationReason == .uncaughtSignal, printed)
    }

    /// Where kill timers run: a serial queue of the test's own, which gets a thread even while
    /// the global queues' few workers are busy.
    static let timers = DispatchQueue(label: "RandomCrashTests.timers")

    /// Reopens, recovers, redelivers everything and checks exactly-once and integrity.
    static func verify(database: String, seed: UInt64, catalog: ProductCatalog, reportedGranted: [String]) async throws {
        let workload = CrashWorkload.transactions(seed: seed, count: workloadCount, catalog: catalog)
        let store = try SQLiteLedgerStore(path: database)
        try await Self.redeliver(store: store, workload: workload, catalog: catalog, reportedGranted: reportedGranted)
        await store.close()
        let report = try LedgerDoctor.examine(path: database)
        #expect(report.integrity == ["ok"], "seed \(seed)")
        #expect(report.pendingFinishes.isEmpty, "seed \(seed)")
        #expect(report.transactionCount == Int64(workload.count), "seed \(seed)")
    }

    /// Recovers, delivers the whole workload again and checks each player's balances are one
    /// grant per transaction; a transaction reported granted must now be `alreadyFulfilled`.
    static func redeliver(
        store: any LedgerStore, workload: [TestStoreTransaction], catalog: ProductCatalog, reportedGranted: [String]
    ) async throws {
        let ledger = try Ledger(
            catalog: catalog, store: store, verifier: TestStoreVerifier(),
            finisher: TestStore(), configuration: .sandbox)
        _ = try await ledger.recover()
        var expected: [String: [String: Int64]] = [:]
        let reported = Set(reportedGranted)
        for document in workload {
            let outcome = try await ledger.fulfill(document.submission())
            if reported.contains(document.transactionID) {
                #expect(outcome.name == "alreadyFulfilled", "\(document.transactionID) was reported granted before the crash")
            }
            let product = try #require(catalog.product(store: .test, storeProductID: document.storeProductID))
            #expect(outcome.receipt != nil, "\(document.transactionID) was \(outcome.name)")
            for line in product.rewards.lines where line.kind == .currency {
                expected[document.playerID, default: [:]][line.id, default: 0] += line.quantity * Int64(document.quantity)
            }
        }
        for (player, balances) in expected.sorted(by: { $0.key < $1.key }) {
            await #expect(try ledger.player(player).balances == balances, "\(player): exactly one grant per transaction")
        }
        _ = try await ledger.recover()
    }
}
