import CSQLite
import Dispatch
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteFaultVFS
import Testing

@testable import SQLiteLedgerStore

/// Group commit: shared transactions, per-request savepoints, results only after the
/// commit, durability as asked, and the named limits.
@Suite("group commit")
struct GroupCommitTests {
    static func store(
        _ directory: ScratchDirectory, limits: GroupCommitLimits = GroupCommitLimits(), vfs: SQLiteFaultVFS? = nil
    ) throws -> SQLiteLedgerStore {
        var options = SQLiteLedgerStore.Options()
        options.groupCommit = limits
        options.vfsName = vfs?.name
        return try SQLiteLedgerStore(path: directory.path("ledger.sqlite"), options: options)
    }

    /// Limits that always queue (a caller never runs alone), with no real wait.
    static func queueing() -> GroupCommitLimits {
        var limits = GroupCommitLimits()
        limits.waitMicroseconds = 1
        return limits
    }

    /// Most polls while waiting for the committer; 1 ms apart.
    static let pollCountMax = 20_000

    /// Keeps the committer busy with a request that blocks until released, then fails (so
    /// it writes and syncs nothing). Requests queued meanwhile form the next transaction,
    /// whatever the machine's speed.
    static func hold(_ store: SQLiteLedgerStore) async throws -> @Sendable () async -> Void {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let task = Task {
            _ = try? await store.write(.durable) { _ throws(LedgerError) in
                started.signal()
                release.wait()
                throw LedgerError.invalidArgument("hold")
            }
        }
        var polls = 0
        while started.wait(timeout: .now()) == .timedOut {
            polls += 1
            guard polls < pollCountMax else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
        return {
            release.signal()
            await task.value
        }
    }

    /// Waits until `count` requests are queued behind a hold.
    static func waitUntilQueued(_ store: SQLiteLedgerStore, _ count: Int) async throws {
        var polls = 0
        while store.committer.waitingCount < count {
            polls += 1
            guard polls < pollCountMax else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    static func balance(_ store: SQLiteLedgerStore, _ player: String) async throws -> Int64 {
        try await store.read { reader throws(LedgerError) in try reader.balances(playerID: player)["gold"] ?? 0 }
    }

    @Test("64 queued writers share transactions of at most batchCountMax, each visible when its call returns")
    func queuedWritersShare() async throws {
        let directory = try ScratchDirectory()
        var limits = Self.queueing()
        limits.batchCountMax = 16
        let store = try Self.store(directory, limits: limits)
        let release = try await Self.hold(store)
        let writerCount = 64
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<writerCount {
                group.addTask {
                    let after = try await store.write(.durable) { writer throws(LedgerError) in
                        try writer.addToBalance(playerID: "p\(index)", currencyID: "gold", delta: Int64(index + 1))
                    }
                    #expect(after == Int64(index + 1))
                    // Committed before the call returned: a fresh read sees it.
                    await #expect(try Self.balance(store, "p\(index)") == Int64(index + 1))
                }
            }
            try await Self.waitUntilQueued(store, writerCount)
            await release()
            try await group.waitForAll()
        }
        let statistics = store.groupCommitStatistics
        #expect(statistics.requestCount == writerCount + 1)
        #expect(statistics.transactionCount == 1 + writerCount / 16, "the hold, then four full batches: \(statistics)")
        #expect(statistics.batchCountPeak == 16)
        #expect(statistics.syncedTransactionCount == writerCount / 16, "the hold rolled back; each batch synced once")
        await store.close()
    }

    @Test("with the default limits a lone writer runs alone, and 256 concurrent writers each commit exactly once")
    func concurrentWritersCommitOnce() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        _ = try await store.write(.durable) { writer throws(LedgerError) in
            try writer.addToBalance(playerID: "alone", currencyID: "gold", delta: 1)
        }
        #expect(store.groupCommitStatistics.transactionCount == 1)
        let writerCount = 256
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<writerCount {
                group.addTask {
                    _ = try await store.write(.durable) { writer throws(LedgerError) in
                        try writer.addToBalance(playerID: "p\(index % 8)", currencyID: "gold", delta: 1)
                    }
                }
            }
            try await group.waitForAll()
        }
        let statistics = store.groupCommitStatistics
        #expect(statistics.requestCount == writerCount + 1)
        #expect(statistics.transactionCount <= statistics.requestCount)
        for index in 0..<8 { await #expect(try Self.balance(store, "p\(index)") == Int64(writerCount / 8)) }
        await store.close()
    }

    @Test("one request's failure rolls back only that request")
    func failureRollsBackOnlyItsRequest() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory, limits: Self.queueing())
        let release = try await Self.hold(store)
        let results = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<8 {
                group.addTask {
                    do throws(LedgerError) {
                        _ = try await store.write(.durable) { writer throws(LedgerError) in
                            _ = try writer.addToBalance(playerID: "p\(index)", currencyID: "gold", delta: 10)
                            if index % 3 == 0 { throw LedgerError.invalidArgument("request \(index) fails") }
                        }
                        return (index, true)
                    } catch {
                        #expect(error == .invalidArgument("request \(index) fails"))
                        return (index, false)
                    }
                }
            }
            try? await Self.waitUntilQueued(store, 8)
            await release()
            var results: [Int: Bool] = [:]
            for await (index, succeeded) in group { results[index] = succeeded }
            return results
        }
        let statistics = store.groupCommitStatistics
        #expect(statistics.transactionCount == 2, "the hold, then all eight in one transaction: \(statistics)")
        #expect(statistics.batchCountPeak == 8)
        for index in 0..<8 {
            #expect(results[index] == (index % 3 != 0))
            await #expect(try Self.balance(store, "p\(index)") == (index % 3 == 0 ? 0 : 10))
        }
        await store.close()
    }

    @Test("when SQLite ends the shared transaction, the requests already run fail too and the rest run anew")
    func endedTransactionFailsEarlierRequests() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory, limits: Self.queueing())
        let release = try await Self.hold(store)
        // Enqueue in a fixed order: each task starts only after the previous one is queued.
        var tasks: [Task<Bool, Never>] = []
        for index in 0..<3 {
            tasks.append(
                Task {
                    do throws(LedgerError) {
                        _ = try await store.write(.durable) { writer throws(LedgerError) in
                            _ = try writer.addToBalance(playerID: "p\(index)", currencyID: "gold", delta: 5)
                            guard index == 1, let session = writer.engine as? SQLiteLedgerSession else { return }
                            // What an I/O error or a full disk does: the whole transaction is gone.
                            try session.sql { () throws(SQLiteError) in try session.connection.execute("ROLLBACK") }
                            throw LedgerError.invalidArgument("request 1 broke the transaction")
                        }
                        return true
                    } catch {
                        return false
                    }
                })
            try await Self.waitUntilQueued(store, index + 1)
        }
        await release()
        var succeeded: [Bool] = []
        for task in tasks { succeeded.append(await task.value) }
        #expect(succeeded == [false, false, true])
        await #expect(try Self.balance(store, "p0") == 0, "rolled back with the transaction")
        await #expect(try Self.balance(store, "p1") == 0)
        await #expect(try Self.balance(store, "p2") == 5, "ran in a new transaction")
        #expect(store.groupCommitStatistics.transactionCount == 3, "the hold, the broken one, the new one")
        await store.close()
    }

    @Test("a failed commit fails every request in it, and none of their changes stay")
    func failedCommitFailsEveryRequest() async throws {
        let directory = try ScratchDirectory()
        let vfs = try SQLiteFaultVFS.register(name: "group-commit-sync-\(UUID().uuidString.prefix(8))")
        let store = try Self.store(directory, limits: Self.queueing(), vfs: vfs)
        let release = try await Self.hold(store)
        vfs.arm(SQLiteFaultVFS.Fault(.sync, callNumber: 1))
        let failures = await withTaskGroup(of: LedgerError?.self) { group in
            for index in 0..<4 {
                group.addTask {
                    do throws(LedgerError) {
                        _ = try await store.write(.durable) { writer throws(LedgerError) in
                            try writer.addToBalance(playerID: "p\(index)", currencyID: "gold", delta: 1)
                        }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            try? await Self.waitUntilQueued(store, 4)
            await release()
            var failures: [LedgerError?] = []
            for await failure in group { failures.append(failure) }
            return failures
        }
        #expect(failures.count == 4)
        for failure in failures {
            guard case .storage(let storage) = failure else {
                Issue.record("expected a storage error, got \(String(describing: failure))")
                continue
            }
            #expect(storage.sqliteResultCode == SQLITE_IOERR)
        }
        vfs.disarm()
        for index in 0..<4 { await #expect(try Self.balance(store, "p\(index)") == 0) }
        await store.close()
    }

    @Test("a full queue refuses at once with a busy storage error")
    func fullQueueRefuses() async throws {
        let directory = try ScratchDirectory()
        var limits = Self.queueing()
        limits.queueCountMax = 1
        let store = try Self.store(directory, limits: limits)
        let release = try await Self.hold(store)
        let first = Task {
            try await store.write(.durable) { writer throws(LedgerError) in
                try writer.addToBalance(playerID: "first", currencyID: "gold", delta: 1)
            }
        }
        try await Self.waitUntilQueued(store, 1)
        await #expect {
            try await store.write(.durable) { writer throws(LedgerError) in
                try writer.addToBalance(playerID: "second", currencyID: "gold", delta: 1)
            }
        } throws: { error in
            guard case LedgerError.storage(let failure) = error else { return false }
            return failure.sqliteResultCode == SQLITE_BUSY && failure.message.contains("queueCountMax")
        }
        await release()
        #expect(try await first.value == 1)
        await #expect(try Self.balance(store, "second") == 0)
        #expect(store.groupCommitStatistics.refusedCount == 1)
        await store.close()
    }

    @Test("a deferred write is not synced on its own; the next durable commit makes it durable")
    func deferredWritesRideOnTheNextSync() async throws {
        let directory = try ScratchDirectory()
        let vfs = try SQLiteFaultVFS.register(name: "group-commit-power-\(UUID().uuidString.prefix(8))")
        vfs.powerLossMode = true
        do {
            let store = try Self.store(directory, vfs: vfs)
            vfs.resetCounts()
            _ = try await store.write(.durable) { writer throws(LedgerError) in
                try writer.addToBalance(playerID: "kept", currencyID: "gold", delta: 1)
            }
            #expect(vfs.callCount(.sync) == 1)
            _ = try await store.write(.deferred) { writer throws(LedgerError) in
                try writer.addToBalance(playerID: "carried", currencyID: "gold", delta: 1)
            }
            #expect(vfs.callCount(.sync) == 1, "a deferred commit does not sync")
            await #expect(try Self.balance(store, "carried") == 1, "but it is visible at once")
            // A plain write after a deferred one is synced again: the level is restored.
            try await store.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "kept", currencyID: "gold", delta: 1)
            }
            #expect(vfs.callCount(.sync) == 2, "and it makes the deferred write before it durable")
            _ = try await store.write(.deferred) { writer throws(LedgerError) in
                try writer.addToBalance(playerID: "lost", currencyID: "gold", delta: 1)
            }
            vfs.simulatePowerLoss()
            await store.close()
        }
        vfs.powerLossMode = false
        let reopened = try Self.store(directory, vfs: vfs)
        await #expect(try Self.balance(reopened, "kept") == 2)
        await #expect(try Self.balance(reopened, "carried") == 1)
        await #expect(try Self.balance(reopened, "lost") == 0, "a deferred write with no durable commit after it is lost")
        await reopened.close()
    }

    @Test("the fault VFS can make every sync slower, clamped to its maximum")
    func syncLatencyStandsInForASlowDisk() async throws {
        let directory = try ScratchDirectory()
        let vfs = try SQLiteFaultVFS.register(name: "group-commit-slow-\(UUID().uuidString.prefix(8))")
        vfs.syncLatencyMicroseconds = -5
        #expect(vfs.syncLatencyMicroseconds == 0)
        vfs.syncLatencyMicroseconds = SQLiteFaultVFS.syncLatencyMicrosecondsMax + 1
        #expect(vfs.syncLatencyMicroseconds == SQLiteFaultVFS.syncLatencyMicrosecondsMax)
        vfs.syncLatencyMicroseconds = 50_000
        let store = try Self.store(directory, vfs: vfs)
        let start = ContinuousClock.now
        _ = try await store.write(.durable) { writer throws(LedgerError) in
            try writer.addToBalance(playerID: "slow", currencyID: "gold", delta: 1)
        }
        #expect(ContinuousClock.now - start >= .milliseconds(50), "one durable commit, one slow sync")
        let syncCount = vfs.callCount(.sync)
        _ = try await store.write(.deferred) { writer throws(LedgerError) in
            try writer.addToBalance(playerID: "slow", currencyID: "gold", delta: 1)
        }
        #expect(vfs.callCount(.sync) == syncCount, "a deferred commit does not sync, so it does not wait")
        await store.close()
    }

    @Test("limits out of range are refused at open", arguments: [(0, 1, 0), (1, 0, 0), (1, 1, -1), (1, 1, 1_000_001)])
    func limitsAreChecked(batch: Int, queue: Int, wait: Int) async throws {
        let directory = try ScratchDirectory()
        var limits = GroupCommitLimits()
        limits.batchCountMax = batch
        limits.queueCountMax = queue
        limits.waitMicroseconds = wait
        #expect(throws: LedgerError.self) { _ = try Self.store(directory, limits: limits) }
        // The refused store released its claim: the file opens with valid limits.
        await (try Self.store(directory)).close()
    }
}
