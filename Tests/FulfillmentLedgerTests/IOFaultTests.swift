import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteFaultVFS
import SQLiteLedgerStore
import Testing

/// One configuration of the fault sweep.
struct IOFaultSweepCase: Sendable, Hashable, CustomTestStringConvertible {
    var operation: SQLiteFaultVFS.Operation
    var persistence: SQLiteFaultVFS.Persistence
    var failure: SQLiteFaultVFS.Failure

    /// Every operation transient and persistent, plus disk-full writes both ways.
    static let all: [IOFaultSweepCase] =
        SQLiteFaultVFS.Operation.allCases.flatMap { operation in
            SQLiteFaultVFS.Persistence.allCases.map {
                IOFaultSweepCase(operation: operation, persistence: $0, failure: .ioError)
            }
        }
        + SQLiteFaultVFS.Persistence.allCases.map {
            IOFaultSweepCase(operation: .write, persistence: $0, failure: .diskFull)
        }

    var testDescription: String { "\(operation) \(persistence) \(failure)" }
}

/// I/O faults below SQLite: every failing write, sync, read and truncate of a fulfillment
/// workload, and simulated power loss.
@Suite struct IOFaultTests {
    /// Most faulty runs per sweep case. The workload makes about 250 writes, so this
    /// covers every call; beyond it the call numbers are sampled evenly, keeping the file
    /// well under a minute on two cores.
    static let sweepRunCountMax = 400
    /// Most runs past the counted calls while the fault still fires (a faulty run can make
    /// more calls than a clean one, for instance when recovery retries).
    static let sweepOvershootCountMax = 50
    /// Sweep runs listed in full when they break a promise; the rest are counted.
    static let reportedProblemRunCountMax = 5

    // MARK: Sweep

    @Test(arguments: IOFaultSweepCase.all)
    func everyFailingCallIsTypedAtomicAndRetryable(_ sweepCase: IOFaultSweepCase) async throws {
        let vfs = try SQLiteFaultVFS.register(name: IOFaultFiles.vfsName("\(sweepCase.operation)"))
        let catalog = try LedgerHarness.sampleCatalog()

        // Count the calls of a clean run, and check the workload and its checks themselves.
        let baseline = try await Self.sweepRun(fault: nil, vfs: vfs, catalog: catalog)
        let callCount = baseline.callCounts[sweepCase.operation, default: 0]
        #expect(baseline.run.thrown.isEmpty, "the clean run must not fail: \(baseline.run.thrown)")
        #expect(baseline.findings.problems.isEmpty, "\(baseline.findings.problems)")
        #expect(callCount >= 1, "the workload must make at least one \(sweepCase.operation) call")

        var tally = IOFaultSweepTally()
        var endedClean = false
        let overshoot = Array(callCount + 1...callCount + Self.sweepOvershootCountMax)
        for callNumber in Self.callNumbers(callCount: callCount) + overshoot {
            let fault = SQLiteFaultVFS.Fault(
                sweepCase.operation, callNumber: callNumber, persistence: sweepCase.persistence,
                failure: sweepCase.failure)
            let result = try await Self.sweepRun(fault: fault, vfs: vfs, catalog: catalog)
            if result.run.firedTotal == 0 {
                // Past the last call: the workload completed with nothing injected.
                #expect(result.run.thrown.isEmpty && result.findings.problems.isEmpty)
                if callNumber <= callCount { tally.unfiredWithinCount.append(callNumber) }
                if callNumber > callCount {
                    endedClean = true
                    break
                }
                continue
            }
            tally.record(result, callNumber: callNumber, resultCode: fault.resultCode)
        }
        #expect(endedClean, "the sweep must end with a run the fault never reached")
        #expect(tally.problemRunCount == 0, "\(tally.problemRunCount) runs broke a promise, first: \(tally.problemRuns)")
        #expect(tally.unexpectedErrors.isEmpty, "errors other than the injected code: \(tally.unexpectedErrors)")
        // An I/O error while opening is a storage error, never "not a ledger".
        #expect(tally.reportedAsNotALedger.isEmpty, "notALedger for \(sweepCase.operation) at \(tally.reportedAsNotALedger)")
        #expect(tally.unfiredWithinCount.isEmpty, "the workload took fewer calls at \(tally.unfiredWithinCount)")
        print("IOFault sweep \(sweepCase.testDescription): \(callCount) calls counted, \(tally.summary)")
    }

    /// Call numbers to fail: all of 1...callCount, or an even sample including both ends.
    static func callNumbers(callCount: Int) -> [Int] {
        guard callCount > sweepRunCountMax else { return Array(stride(from: 1, through: callCount, by: 1)) }
        let sampled = (0..<sweepRunCountMax).map { 1 + $0 * (callCount - 1) / (sweepRunCountMax - 1) }
        return Array(Set(sampled)).sorted()
    }

    /// One workload run on a fresh database with `fault` armed, then the checks disarmed.
    static func sweepRun(
        fault: SQLiteFaultVFS.Fault?, vfs: SQLiteFaultVFS, catalog: ProductCatalog
    ) async throws -> IOFaultSweepRun {
        let directory = try IOFaultFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ledger.sqlite").path
        let workload = IOFaultWorkload(catalog: catalog)
        vfs.resetCounts()
        if let fault { vfs.arm(fault) }
        let run = await workload.run(path: path, vfs: vfs)
        vfs.disarm()
        // Counted before the checks, which read and write too.
        let counts = Dictionary(
            uniqueKeysWithValues: SQLiteFaultVFS.Operation.allCases.map { ($0, vfs.callCount($0)) })
        let findings = await IOFaultVerifier(workload: workload, path: path, vfs: vfs).verify(after: run)
        return IOFaultSweepRun(run: run, findings: findings, callCounts: counts)
    }
}

// MARK: Power loss

extension IOFaultTests {
    /// Purchases granted before the power goes; enough that NORMAL's WAL passes the
    /// 1,000-page auto-checkpoint (which syncs it) and still has commits after it.
    static let powerLossPurchaseCount = 160

    @Test(arguments: SQLiteLedgerStore.Synchronous.allCases, IOFaultLossMoment.allCases)
    func powerLossKeepsACommittedPrefix(
        synchronous: SQLiteLedgerStore.Synchronous, moment: IOFaultLossMoment
    ) async throws {
        let vfs = try SQLiteFaultVFS.register(name: IOFaultFiles.vfsName("power-\(synchronous)-\(moment)"))
        vfs.powerLossMode = true
        let directory = try IOFaultFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = IOFaultPowerLoss(
            catalog: try LedgerHarness.sampleCatalog(), vfs: vfs,
            path: directory.appendingPathComponent("ledger.sqlite").path, synchronous: synchronous)

        var loss: PowerLossReport?
        let granted = try await Self.grantThenRelease(scenario, count: Self.powerLossPurchaseCount) {
            if moment == .whileOpen { loss = vfs.simulatePowerLoss() }
        }
        if moment == .afterRelease { loss = vfs.simulatePowerLoss() }
        let report = try #require(loss)

        // Reopen with the VFS still in power-loss mode; a full integrity check runs on open.
        let outcome = try await Self.reopenCheckAndRetry(scenario, granted: granted) { survivors in
            if synchronous == .full || moment == .afterRelease {
                #expect(survivors.count == granted.count, "every granted fulfill must survive")
            } else {
                // NORMAL syncs the WAL only at a checkpoint: what came before the
                // auto-checkpoint survives, what came after is gone. Both sides must be
                // non-empty, or the scenario tests nothing.
                #expect(!survivors.isEmpty && survivors.count < granted.count)
            }
        }
        print(
            "IOFault power loss \(synchronous) \(moment): \(outcome.survived) of \(granted.count) grants survived, "
                + "\(outcome.lostForGood) lost for good (finished before the loss); "
                + "dropped \(report.discardedByteCount) unsynced bytes in \(report.discardedFilePaths.count) files, "
                + "killed \(report.killedOpenFileCount) open files, "
                + "deleted \(report.deletedSharedMemoryPaths.count) -shm")
        try Self.expectHealthy(scenario, transactionCount: granted.count - outcome.lostForGood)
    }

    @Test func powerCutDuringACommitLosesOnlyThatCommit() async throws {
        let vfs = try SQLiteFaultVFS.register(name: IOFaultFiles.vfsName("power-mid-commit"))
        vfs.powerLossMode = true
        let directory = try IOFaultFiles.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = IOFaultPowerLoss(
            catalog: try LedgerHarness.sampleCatalog(), vfs: vfs,
            path: directory.appendingPathComponent("ledger.sqlite").path, synchronous: .full)
        let count = 12

        // The last purchase's commit writes its WAL frames, then its fsync fails and the
        // power goes before anything else reaches the disk.
        var cut: PowerLossReport?
        var granted: [TransactionRecord] = []
        let last = scenario.purchase(count)
        do {
            let ledger = try scenario.openStore()
            granted = try await scenario.grant(0..<count, on: ledger)
            vfs.arm(SQLiteFaultVFS.Fault(.sync, callNumber: 1, persistence: .persistent))
            await #expect(throws: LedgerError.self) { _ = try await ledger.fulfill(last) }
            cut = vfs.simulatePowerLoss()
            await ledger.store.close()
        }
        vfs.disarm()
        let report = try #require(cut)
        #expect(report.discardedByteCount > 0, "the failed commit's frames were never synced")

        _ = try await Self.reopenCheckAndRetry(scenario, granted: granted, lost: [last]) { survivors in
            #expect(survivors.count == granted.count, "every granted fulfill must survive")
        }
        try Self.expectHealthy(scenario, transactionCount: count + 1)
    }

    /// Opens the store, grants `count` purchases, runs `beforeRelease` with the store still
    /// open, and returns once the store is closed.
    static func grantThenRelease(
        _ scenario: IOFaultPowerLoss, count: Int, beforeRelease: () -> Void
    ) async throws -> [TransactionRecord] {
        let ledger = try scenario.openStore()
        let granted = try await scenario.grant(0..<count, on: ledger)
        beforeRelease()
        await ledger.store.close()
        return granted
    }

    /// Reopens the store (full integrity check), checks that the surviving grants are a
    /// prefix of `granted` that the balances match exactly and that nothing in `lost`
    /// survived, runs `check` on the survivors, then re-submits every purchase the platform
    /// still holds unfinished and recovers: each must end up granted exactly once. Returns
    /// how many grants survived and how many were lost for good; the store is closed on
    /// return.
    static func reopenCheckAndRetry(
        _ scenario: IOFaultPowerLoss, granted: [TransactionRecord], lost: [TransactionSubmission] = [],
        check: ([TransactionRecord]) -> Void
    ) async throws -> (survived: Int, lostForGood: Int) {
        let ledger = try scenario.openStore(openCheck: .full)
        let (survivors, holdings) = try await IOFaultPowerLoss.survey(ledger, granted: granted)
        #expect(survivors.map(\.key) == granted.prefix(survivors.count).map(\.key), "survivors must be a prefix")
        #expect(holdings == IOFaultPowerLoss.holdings(of: survivors), "balances must match exactly the survivors")
        for player in IOFaultPowerLoss.players {
            let kept = survivors.filter { $0.playerID == player }.count
            await #expect(try ledger.player(player).history.count == kept, "\(player) has records nobody granted")
        }
        for submission in lost {
            let key = submission.key
            await #expect(try ledger.store.read { reader throws(LedgerError) in try reader.transaction(key) } == nil)
        }
        check(survivors)

        // The platform still holds unfinished whatever was lost before its finish was called:
        // retrying grants each of those exactly once. A grant lost after its finish (only
        // possible with NORMAL) is lost for good, as SQLiteLedgerStore.Synchronous warns.
        let store = scenario.testStore
        let unfinished = Set(store.unfinishedTransactionIDs())
        let lostForGood = granted.filter { record in
            !survivors.contains { $0.key == record.key } && !unfinished.contains(record.key.transactionID)
        }
        for submission in store.unfinishedTransactionIDs().compactMap({ store.submission($0) }) {
            #expect(try await ledger.fulfill(submission).rejection == nil)
        }
        #expect(try await ledger.recover().isClean)
        #expect(store.unfinishedTransactionIDs().isEmpty)
        var records: [TransactionRecord] = []
        for player in IOFaultPowerLoss.players { await records += try ledger.player(player).history }
        #expect(records.count == granted.count + lost.count - lostForGood.count)
        #expect(Set(records.map(\.key)).count == records.count, "one record per transaction")
        let final = try await IOFaultPowerLoss.survey(ledger, granted: records)
        #expect(final.holdings == IOFaultPowerLoss.holdings(of: records), "exactly one grant per transaction")
        await ledger.store.close()
        return (survivors.count, lostForGood.count)
    }

    /// With the store closed (its close checkpoints and syncs, so nothing is left
    /// buffered), checks the file with the doctor: read-only, through the default VFS.
    static func expectHealthy(_ scenario: IOFaultPowerLoss, transactionCount: Int) throws {
        #expect(scenario.vfs.bufferedByteCount == 0)
        let report = try LedgerDoctor.examine(path: scenario.path)
        #expect(report.integrity == ["ok"])
        #expect(report.transactionCount == Int64(transactionCount))
    }
}

// MARK: The VFS itself, and what the sweep found

extension IOFaultTests {
    /// A small buffer limit for the limit test: above what schema creation leaves unsynced
    /// (every migration's WAL frames, more since schema 8 added the attempts journal), below what a few dozen
    /// NORMAL commits do.
    static let smallBufferByteCountMax = 384 * 1024

    /// A fresh scenario in its own directory; the caller removes the directory.
    static func scenario(
        _ vfs: SQLiteFaultVFS, synchronous: SQLiteLedgerStore.Synchronous = .full
    ) throws -> (IOFaultPowerLoss, URL) {
        let directory = try IOFaultFiles.directory()
        let scenario = IOFaultPowerLoss(
            catalog: try LedgerHarness.sampleCatalog(), vfs: vfs,
            path: directory.appendingPathComponent("ledger.sqlite").path, synchronous: synchronous)
        return (scenario, directory)
    }

    /// The extended SQLite code of a storage error, or nil for any other error.
    static func storageCode(_ body: () async throws -> Void) async -> Int32? {
        do {
            try await body()
            return nil
        } catch {
            guard case .storage(let failure) = error as? LedgerError else { return nil }
            return failure.sqliteExtendedResultCode
        }
    }

    @Test func registrationNamesAreUnique() throws {
        let name = IOFaultFiles.vfsName("unique")
        let vfs = try SQLiteFaultVFS.register(name: name)
        #expect(vfs.name == name)
        #expect(throws: SQLiteError.self) { _ = try SQLiteFaultVFS.register(name: name) }
        #expect(throws: SQLiteError.self) { _ = try SQLiteFaultVFS.register(name: "unix") }
        #expect(throws: SQLiteError.self) { _ = try SQLiteFaultVFS.register(name: "") }
        let long = String(repeating: "x", count: SQLiteFaultVFS.nameByteCountMax + 1)
        #expect(throws: SQLiteError.self) { _ = try SQLiteFaultVFS.register(name: long) }
    }

    @Test func transientFailsOneCallPersistentFailsUntilDisarmed() async throws {
        let vfs = try SQLiteFaultVFS.register(name: IOFaultFiles.vfsName("modes"))
        let (scenario, directory) = try Self.scenario(vfs)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try scenario.openStore()

        // With FULL, a purchase syncs once: its grant's commit. Its finish mark is deferred,
        // carried into the next transaction, whose sync (if durable) covers it.
        vfs.resetCounts()
        _ = try await scenario.grant(0..<1, on: ledger)
        #expect(vfs.callCount(.sync) == 1)
        #expect(vfs.callCount(.write) > 0)

        let first = scenario.purchase(1)
        vfs.arm(SQLiteFaultVFS.Fault(.sync, callNumber: 1))
        let fsyncError = SQLiteFaultVFS.Fault(.sync, callNumber: 1).resultCode
        #expect(await Self.storageCode { _ = try await ledger.fulfill(first) } == fsyncError)
        #expect(vfs.firedCount == 1)
        #expect(try await ledger.fulfill(first).name == "granted", "a transient fault fails one call only")

        let second = scenario.purchase(2)
        let full = SQLiteFaultVFS.Fault(.write, callNumber: 1, persistence: .persistent, failure: .diskFull)
        vfs.arm(full)
        #expect(full.resultCode == 13)
        #expect(await Self.storageCode { _ = try await ledger.fulfill(second) } == 13)
        #expect(await Self.storageCode { _ = try await ledger.fulfill(second) } == 13, "persistent until disarmed")
        vfs.disarm()
        #expect(vfs.armedFault == nil)
        #expect(try await ledger.fulfill(second).name == "granted")
        await #expect(try ledger.player(IOFaultPowerLoss.players[1]).history.count == 1)
        await #expect(try ledger.player(IOFaultPowerLoss.players[2]).history.count == 1)
        await ledger.store.close()
    }

    @Test func bufferLimitFailsWritesAsDiskFull() async throws {
        let vfs = try SQLiteFaultVFS.register(
            name: IOFaultFiles.vfsName("buffer-limit"), bufferedByteCountMax: Self.smallBufferByteCountMax)
        vfs.powerLossMode = true
        let (scenario, directory) = try Self.scenario(vfs, synchronous: .normal)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try scenario.openStore()
        var granted: [TransactionRecord] = []
        var code: Int32?
        // NORMAL never syncs the WAL before a checkpoint, so the buffer only grows.
        for index in 0..<IOFaultTests.powerLossPurchaseCount where code == nil {
            code = await Self.storageCode { granted += try await scenario.grant(index..<index + 1, on: ledger) }
        }
        #expect(code == 13, "a write past the buffer limit fails as SQLITE_FULL")
        #expect(vfs.bufferedByteCount <= Self.smallBufferByteCountMax)
        #expect(!granted.isEmpty)
        let survey = try await IOFaultPowerLoss.survey(ledger, granted: granted)
        #expect(survey.survivors.count == granted.count)
        #expect(survey.holdings == IOFaultPowerLoss.holdings(of: granted), "the failed purchase left nothing behind")
        await ledger.store.close()
    }

    /// A disk that fails one read while opening gives a storage error with the I/O code,
    /// never "not a database" for a healthy ledger.
    @Test func readErrorWhileOpeningIsAStorageError() async throws {
        let vfs = try SQLiteFaultVFS.register(name: IOFaultFiles.vfsName("open-read"))
        let (scenario, directory) = try Self.scenario(vfs)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await Self.grantThenRelease(scenario, count: 1) {}

        vfs.arm(SQLiteFaultVFS.Fault(.read, callNumber: 1))
        var thrown: LedgerError?
        do { _ = try scenario.openStore() } catch { thrown = error }
        vfs.disarm()
        #expect(thrown != nil)
        guard case .storage(let failure) = thrown else {
            Issue.record("expected a storage error, got \(String(describing: thrown))")
            return
        }
        #expect(failure.sqliteExtendedResultCode == SQLiteFaultVFS.Fault(.read, callNumber: 1).resultCode)
        let reopened = try scenario.openStore()
        await #expect(try reopened.player(IOFaultPowerLoss.players[0]).history.count == 1, "the file is fine")
        await reopened.store.close()
    }

    /// If the first switch of a new file to WAL fails on I/O, SQLite 3.40.1 still answers
    /// `PRAGMA journal_mode = WAL` with `wal` and falls back to a rollback journal at the next
    /// transaction; the store re-checks after migrating and switches again.
    @Test func failedWalSwitchOnCreationStillEndsInWal() async throws {
        let vfs = try SQLiteFaultVFS.register(name: IOFaultFiles.vfsName("wal-switch"))
        let (scenario, directory) = try Self.scenario(vfs)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The first fsync of a new ledger is the rollback journal of that switch.
        vfs.arm(SQLiteFaultVFS.Fault(.sync, callNumber: 1))
        let ledger = try scenario.openStore()
        vfs.disarm()
        _ = try await scenario.grant(0..<1, on: ledger)
        let walExists = FileManager.default.fileExists(atPath: scenario.path + "-wal")
        #expect(walExists, "a committed grant in WAL mode leaves a -wal file while the store is open")
        await ledger.store.close()
    }
}
