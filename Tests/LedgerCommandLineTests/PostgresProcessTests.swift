import Dispatch
import Foundation
import FulfillmentLedgerTesting
import FulfillmentLedger
import LedgerSimulation
import PostgresLedgerStore
import PostgresLedgerStoreTesting
import Synchronization
import Testing

/// Exactly once across processes: several `ledger` processes on one PostgreSQL database,
/// killed, cut off from the server and outlived by a server restart, then recovered and checked.
@Suite(.enabled(if: PostgresScratchSchema.shouldRun, "no PostgreSQL test server (set LEDGER_TEST_POSTGRES_URL)"))
struct PostgresProcessTests {
    /// Processes delivering the same workload at once.
    static let processCount = 4
    /// Transactions in each workload.
    static let workloadCount = 150
    /// Rounds of the kill test, each on a fresh database.
    static let killRoundCount = 3
    /// Longest a child may run before the test gives up on it (a hung child is a failure).
    static let childSecondsMax = 120.0

    /// The children's output and how each ended.
    struct Round {
        var children: [ChildProcess.Exit]
        /// Every transaction a child printed as granted, once per child that printed it.
        var grantedReports: [String] {
            children.flatMap { exit in exit.jsonLines.compactMap { $0["outcome"] as? String == "granted" ? $0["transactionID"] as? String : nil } }
        }
    }

    /// Runs `processCount` `ledger workload` children on `url` with one seed, so every
    /// transaction is delivered by every child at once; `during` runs while they do.
    static func deliverTogether(
        url: String, seed: UInt64, count: Int = workloadCount, killAfterMilliseconds: [Int?] = [],
        during: @Sendable () async throws -> Void = {}
    ) async throws -> Round {
        let executable = try #require(CrashAtFaultPointTests.executable, "build the ledger executable first")
        // The ledger exists before the children start, so they race on purchases, not on its creation.
        let initialized = await ledger(["init", "--db", url])
        try #require(initialized.code == 0, "\(initialized.error)")
        var children: [ChildProcess] = []
        for _ in 0..<processCount {
            children.append(
                try await ChildProcess.launch(
                    executable, ["workload", "--db", url, "--catalog", repoCatalogPath, "--seed", "\(seed)", "--count", "\(count)"]))
        }
        for (child, delay) in zip(children, killAfterMilliseconds) {
            if let delay { child.kill(afterMilliseconds: delay) }
        }
        try await during()
        var exits: [ChildProcess.Exit] = []
        for child in children { exits.append(try await child.exit(timeoutSeconds: childSecondsMax)) }
        return Round(children: exits)
    }

    /// Recovers and redelivers the workload in this process, then checks that every transaction
    /// was granted once in all, by one process, and that nothing is left pending.
    static func verify(_ schema: PostgresScratchSchema, seed: UInt64, count: Int = workloadCount, round: Round) async throws {
        let granted = round.grantedReports
        #expect(granted.count == Set(granted).count, "a transaction was reported granted by two processes")
        let catalog = try CatalogLoader.load(path: repoCatalogPath)
        let workload = CrashWorkload.transactions(seed: seed, count: count, catalog: catalog)
        let store = try await schema.openStore()
        try await RandomCrashTests.redeliver(store: store, workload: workload, catalog: catalog, reportedGranted: granted)
        await store.close()
        let report = try await PostgresLedgerDoctor.examine(connectionString: schema.connectionString)
        #expect(report.transactionCount == Int64(workload.count))
        #expect(report.pendingFinishCount == 0)
    }

    @Test("four processes deliver the same purchases at once, some killed with SIGKILL: each purchase is granted once")
    func overlappingDeliveriesWithKills() async throws {
        var killed = 0
        for round in 0..<Self.killRoundCount {
            let schema = try PostgresScratchSchema.create(prefix: "ledger_processes")
            defer { try? schema.drop() }
            let seed = UInt64(1_000 + round)
            var random = SplitMix64(seed: seed)
            // Half the children die at a random moment of the workload.
            let delays = (0..<Self.processCount).map { _ in random.below(2) == 0 ? 30 + random.below(600) : nil }
            let result = try await Self.deliverTogether(url: schema.connectionString, seed: seed, killAfterMilliseconds: delays)
            killed += result.children.filter(\.killed).count
            for exit in result.children where !exit.killed {
                #expect(exit.status == 0, "an unkilled child failed: \(exit.output)")
            }
            try await Self.verify(schema, seed: seed, round: result)
        }
        #expect(killed > 0, "no child was killed; the test proved nothing about kills")
    }

    @Test("the server cuts the children's connections (pg_terminate_backend) mid-workload: typed errors, then each purchase granted once")
    func terminatedConnections() async throws {
        let schema = try PostgresScratchSchema.create(prefix: "ledger_processes")
        defer { try? schema.drop() }
        let application = schema.name
        let url = schema.connectionString + "&application_name=\(application)"
        let seed: UInt64 = 2_000
        let count = 400
        let terminatedCount = Mutex(0)
        let result = try await Self.deliverTogether(url: url, seed: seed, count: count) {
            // Cut every connection the children hold, again and again, while they work. Each cut
            // counts the backends it ended, so the test knows it cut something mid-workload
            // however fast or slow the machine is.
            let terminate = """
                SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE application_name = '\(application)'
                """
            for _ in 0..<Self.cutCount {
                try await Task.sleep(for: .milliseconds(Self.cutIntervalMilliseconds))
                let ended = try await onOwnThread { () throws -> Int64 in
                    let connection = try PostgresConnection(connectionString: PostgresConnectionString(schema.connectionString))
                    defer { connection.close() }
                    return try connection.queryOne(terminate)?.int64(0) ?? 0
                }
                terminatedCount.withLock { $0 += Int(ended) }
            }
        }
        #expect(terminatedCount.withLock { $0 } > 0, "no cut ended a child's connection: nothing was cut mid-workload")
        for exit in result.children where exit.status != 0 {
            let error = try #require(exit.jsonLines.last?["error"] as? [String: Any], "a failed child printed no error: \(exit.output)")
            #expect(error["name"] as? String == "ledger.storage", "\(error)")
            #expect(error["retryable"] as? Bool == true || error["outcomeUnknown"] as? Bool == true, "\(error)")
        }
        try await Self.verify(schema, seed: seed, count: count, round: result)
    }

    /// Times the terminate test cuts every child's connection, and the pause between cuts.
    static let cutCount = 10
    static let cutIntervalMilliseconds = 120

    @Test("the server restarts while four processes serve: typed errors, nothing partial, each purchase granted once")
    func serverRestart() async throws {
        // A server of its own: restarting the shared one would cut every other test.
        let server = try await TestServer.start()
        defer { server.stop() }
        let schema = try PostgresScratchSchema.create(prefix: "ledger_processes", serverURL: server.url)
        let seed: UInt64 = 3_000
        let count = 400
        let restartBeganAt = Mutex<Date?>(nil)
        let result = try await Self.deliverTogether(url: schema.connectionString, seed: seed, count: count) {
            try await Task.sleep(for: .milliseconds(300))
            // Stamped before the restart: a child the restart cut off ends while the server is
            // down, before `restart` returns, and that is the case this test is about.
            restartBeganAt.withLock { $0 = Date() }
            try await server.restart()
        }
        let restartBegan = try #require(restartBeganAt.withLock { $0 })
        #expect(result.children.contains { $0.endedAt > restartBegan }, "every child ended before the restart began")
        for exit in result.children where exit.status != 0 {
            let error = try #require(exit.jsonLines.last?["error"] as? [String: Any], "a failed child printed no error: \(exit.output)")
            #expect(error["name"] as? String == "ledger.storage", "\(error)")
        }
        try await Self.verify(schema, seed: seed, count: count, round: result)
    }
}
