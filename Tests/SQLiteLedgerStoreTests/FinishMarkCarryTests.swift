import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteFaultVFS
import Testing

import LedgerSQL
@testable import SQLiteLedgerStore

/// A finish mark carried into the committer's next transaction: reads through the store show
/// it at once, it shares the next write's commit, it commits alone once its wait is over or
/// the store closes, and a failed transaction leaves the record pending, never half-marked.
@Suite("finish mark carried into the next commit")
struct FinishMarkCarryTests {
    /// A wait long enough that the mark is still carried while a test looks at it, unless
    /// the machine stalls that long; the checks that depend on it look at the counters first.
    static let longWaitMicroseconds = 1_000_000

    static func store(
        _ directory: ScratchDirectory, waitMicroseconds: Int = longWaitMicroseconds, vfs: SQLiteFaultVFS? = nil
    ) throws -> SQLiteLedgerStore {
        var options = SQLiteLedgerStore.Options()
        options.groupCommit.finishMarkWaitMicrosecondsMax = waitMicroseconds
        options.vfsName = vfs?.name
        return try SQLiteLedgerStore(path: directory.path("ledger.sqlite"), options: options)
    }

    static let finishedAt = Date(timeIntervalSince1970: 1_790_000_000.123_9)

    /// `finished_at_ms` of `t1` as another connection reads it from the file.
    static func rawFinishedAt(_ directory: ScratchDirectory, _ transactionID: String = "t1") throws -> Int64 {
        let raw = try RawDatabase(path: directory.path("ledger.sqlite"), readOnly: true)
        return try raw.integer(
            "SELECT coalesce(finished_at_ms, 0) FROM ledger_transactions WHERE transaction_id = '\(transactionID)'")
    }

    static func insertPending(_ store: SQLiteLedgerStore, _ transactionIDs: [String]) async throws {
        try await store.write { writer throws(LedgerError) in
            for (index, id) in transactionIDs.enumerated() {
                try writer.insertTransaction(Rows.record(id, fulfilledAt: Rows.date.addingTimeInterval(Double(index))))
            }
        }
    }

    @Test("a carried mark shows in the store's reads at once and commits with the next write, not before")
    func carriedMarkIsReadAtOnceAndRidesOnTheNextWrite() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        try await Self.insertPending(store, ["t1", "t2", "t3"])
        let transactionsBefore = store.groupCommitStatistics.transactionCount

        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        let raw = try Self.rawFinishedAt(directory)
        let statistics = store.groupCommitStatistics
        #expect(statistics.carriedFinishMarkCount == 1)
        if statistics.transactionCount == transactionsBefore {
            // Nothing committed yet (no stall outlasted the wait): the file does not have the mark.
            #expect(raw == 0, "another connection sees the mark only once it commits")
        }
        let (record, pending, oldest, history) = try await store.read { reader throws(LedgerError) in
            (
                try reader.transaction(Rows.key("t1")), try reader.pendingFinish(Rows.key("t1")),
                try reader.pendingFinishes(limit: 1), try reader.transactions(playerID: "p1", limit: 10)
            )
        }
        #expect(record?.finishedAt == Self.finishedAt.truncatedToLedgerMilliseconds)
        #expect(pending == nil)
        #expect(oldest.map(\.key) == [Rows.key("t2")], "the oldest pending finish is the next one, and the limit holds")
        #expect(history.first { $0.key == Rows.key("t1") }?.isFinished == true)
        #expect(history.filter { !$0.isFinished }.count == 2)

        try await store.write { writer throws(LedgerError) in
            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1)
        }
        #expect(try Self.rawFinishedAt(directory) == Self.finishedAt.ledgerMilliseconds, "committed with the write")
        let after = store.groupCommitStatistics
        // Shared with the write, or, after a stall past the wait, committed alone before it.
        let committedAlone = after.transactionCount - transactionsBefore - 1
        #expect(after.sharedFinishMarkCount + committedAlone == 1)
        #expect(after.lostFinishMarkCount == 0)
        let stillPending = try await store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 10) }
        #expect(stillPending.map(\.key) == [Rows.key("t2"), Rows.key("t3")])
        await store.close()
    }

    @Test("a write body sees the marks carried before it, and a second mark for a record adds nothing")
    func writesSeeCarriedMarks() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        try await Self.insertPending(store, ["t1"])
        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt.addingTimeInterval(60))
        #expect(store.groupCommitStatistics.carriedFinishMarkCount == 1)
        let seen = try await store.write { writer throws(LedgerError) in
            (try writer.transaction(Rows.key("t1"))?.finishedAt, try writer.pendingFinish(Rows.key("t1")))
        }
        #expect(seen.0 == Self.finishedAt.truncatedToLedgerMilliseconds, "the first mark stamps it")
        #expect(seen.1 == nil)
        await store.close()
    }

    @Test("carried marks run before the deferred and the durable writes taken with them")
    func carriedMarksRunFirst() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        try await Self.insertPending(store, ["t1"])
        let release = try await GroupCommitTests.hold(store)
        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        // A deferred write (as a failed finish attempt is) and a durable one, queued together.
        let deferred = Task {
            try await store.write(.deferred) { writer throws(LedgerError) in try writer.pendingFinish(Rows.key("t1")) }
        }
        let durable = Task {
            try await store.write(.durable) { writer throws(LedgerError) in try writer.transaction(Rows.key("t1"))?.finishedAt }
        }
        try await GroupCommitTests.waitUntilQueued(store, 2)
        await release()
        #expect(try await deferred.value == nil, "the deferred write saw the mark")
        #expect(try await durable.value == Self.finishedAt.truncatedToLedgerMilliseconds, "so did the durable one")
        await store.close()
    }

    @Test("a write whose body throws rolls back whole, and the marks carried with it are carried again")
    func failingBodyCarriesItsMarksAgain() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        try await Self.insertPending(store, ["t1"])
        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        let transactionsBefore = store.groupCommitStatistics.transactionCount
        await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1)
                throw LedgerError.invalidArgument("a rejected grant")
            }
        }
        let afterFailure = store.groupCommitStatistics
        #expect(afterFailure.lostFinishMarkCount == 0)
        if afterFailure.transactionCount == transactionsBefore + 1 {
            // No stall outlasted the wait: the mark rolled back with the grant and is carried again.
            #expect(try Self.rawFinishedAt(directory) == 0, "rolled back with the failed write")
        }
        let seen = try await store.read { reader throws(LedgerError) in
            (try reader.transaction(Rows.key("t1"))?.finishedAt, try reader.balances(playerID: "p1"))
        }
        #expect(seen.0 == Self.finishedAt.truncatedToLedgerMilliseconds, "still read as finished")
        #expect(seen.1.isEmpty, "the body's own changes are gone")

        try await store.write { writer throws(LedgerError) in
            _ = try writer.addToBalance(playerID: "p2", currencyID: "gems", delta: 1)
        }
        #expect(try Self.rawFinishedAt(directory) == Self.finishedAt.ledgerMilliseconds, "committed with the next write")
        #expect(store.groupCommitStatistics.lostFinishMarkCount == 0)
        #expect(store.groupCommitStatistics.carriedFinishMarkCount == 1, "carried again, not counted twice")
        await store.close()
    }

    @Test("a mark carried again after a failed write commits alone once its wait is over, and at close")
    func markCarriedAgainCommitsAloneAndAtClose() async throws {
        for closesFirst in [false, true] {
            let directory = try ScratchDirectory()
            var store: SQLiteLedgerStore? = try Self.store(
                directory, waitMicroseconds: closesFirst ? Self.longWaitMicroseconds : 20_000)
            try await Self.insertPending(try #require(store), ["t1"])
            try await store?.markFinished(Rows.key("t1"), at: Self.finishedAt)
            _ = try? await store?.write { writer throws(LedgerError) in throw LedgerError.invalidArgument("refused") }
            if closesFirst {
                await store?.close()
                store = nil
            } else {
                let deadline = ContinuousClock.now + .seconds(20)
                while try Self.rawFinishedAt(directory) == 0, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
            #expect(try Self.rawFinishedAt(directory) == Self.finishedAt.ledgerMilliseconds, "closesFirst \(closesFirst)")
            #expect(store?.groupCommitStatistics.lostFinishMarkCount ?? 0 == 0)
            await store?.close()
        }
    }

    @Test("a write that fails beside another in one transaction rolls back to its savepoint; the marks commit")
    func failingBodyBesideAnotherKeepsTheMarks() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        try await Self.insertPending(store, ["t1"])
        let release = try await GroupCommitTests.hold(store)
        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        let failing = Task {
            try await store.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1)
                throw LedgerError.invalidArgument("a rejected grant")
            }
        }
        let succeeding = Task {
            try await store.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "p2", currencyID: "gems", delta: 2)
            }
        }
        try await GroupCommitTests.waitUntilQueued(store, 2)
        await release()
        await #expect(throws: LedgerError.self) { try await failing.value }
        try await succeeding.value
        #expect(try Self.rawFinishedAt(directory) == Self.finishedAt.ledgerMilliseconds, "the mark committed")
        let statistics = store.groupCommitStatistics
        #expect(statistics.lostFinishMarkCount == 0)
        #expect(statistics.sharedFinishMarkCount == 1)
        let balances = try await store.read { reader throws(LedgerError) in
            (try reader.balances(playerID: "p1"), try reader.balances(playerID: "p2"))
        }
        #expect(balances.0.isEmpty, "the failed body's changes are gone")
        #expect(balances.1 == ["gems": 2])
        await store.close()
    }

    @Test("with no write after it, a carried mark commits alone once its wait is over, without a sync")
    func carriedMarkCommitsAloneAfterItsWait() async throws {
        let directory = try ScratchDirectory()
        let vfs = try SQLiteFaultVFS.register(name: "carry-alone-\(UUID().uuidString.prefix(8))")
        let store = try Self.store(directory, waitMicroseconds: 2_000, vfs: vfs)
        try await Self.insertPending(store, ["t1"])
        let syncsBefore = vfs.callCount(.sync)
        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        var polls = 0
        while try Self.rawFinishedAt(directory) == 0 {
            polls += 1
            try #require(polls < 20_000, "the mark never committed")
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(vfs.callCount(.sync) == syncsBefore, "a mark's own commit is deferred: not synced")
        let statistics = store.groupCommitStatistics
        #expect(statistics.carriedFinishMarkCount == 1)
        #expect(statistics.sharedFinishMarkCount == 0)
        await store.close()
    }

    @Test("closing the store commits the marks it still carries")
    func closeCommitsCarriedMarks() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        try await Self.insertPending(store, ["t1"])
        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        await store.close()
        #expect(try Self.rawFinishedAt(directory) == Self.finishedAt.ledgerMilliseconds)
        let reopened = try Self.store(directory)
        let pending = try await reopened.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 10) }
        #expect(pending.isEmpty)
        await reopened.close()
    }

    @Test("a store let go without close() is reported, commits nothing and waits for nothing: its carried mark is lost and the record stays pending")
    func storeLetGoWithoutCloseOnlyChecks() async throws {
        let directory = try ScratchDirectory()
        let unclosed = UnclosedStoreCheck.Tally()
        try await UnclosedStoreCheck.$tally.withValue(unclosed) {
            let store = try Self.store(directory)
            try await Self.insertPending(store, ["t1"])
            try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        }
        #expect(unclosed.count == 1, "the check counted the store")
        #expect(try Self.rawFinishedAt(directory) == 0, "the carried mark was dropped, not committed")
        #expect(FileManager.default.fileExists(atPath: directory.path("ledger.sqlite") + "-wal"), "no checkpoint ran on release")
        let reopened = try Self.store(directory)
        let pending = try await reopened.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 10) }
        #expect(pending.map(\.key) == [Rows.key("t1")], "recover() finishes it again")
        await reopened.close()
    }

    /// Stores opened and closed while their carry timer fires.
    static let closeRaceRunCount = 50

    @Test("closing a store while its carry timer fires leaves each mark committed or pending, never half-written")
    func closeRacesTheCarryTimer() async throws {
        let directory = try ScratchDirectory()
        for run in 0..<Self.closeRaceRunCount {
            let id = "race-\(run)"
            let store = try Self.store(directory, waitMicroseconds: 1)
            try await Self.insertPending(store, [id])
            try await store.markFinished(Rows.key(id), at: Self.finishedAt)
            await store.close()
            let finishedAt = try Self.rawFinishedAt(directory, id)
            #expect(finishedAt == Self.finishedAt.ledgerMilliseconds, "run \(run): closing commits a mark the timer did not")
        }
    }

    @Test("with finishMarkWaitMicrosecondsMax 0 a mark commits before markFinished returns")
    func carryingOff() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory, waitMicroseconds: 0)
        try await Self.insertPending(store, ["t1"])
        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        #expect(try Self.rawFinishedAt(directory) == Self.finishedAt.ledgerMilliseconds)
        #expect(store.groupCommitStatistics.carriedFinishMarkCount == 0)
        await store.close()
    }

    @Test("a mark whose transaction fails is lost with it: the record reads as pending again")
    func lostMarkLeavesTheRecordPending() async throws {
        let directory = try ScratchDirectory()
        let vfs = try SQLiteFaultVFS.register(name: "carry-lost-\(UUID().uuidString.prefix(8))")
        let store = try Self.store(directory, vfs: vfs)
        try await Self.insertPending(store, ["t1"])
        try await store.markFinished(Rows.key("t1"), at: Self.finishedAt)
        vfs.arm(SQLiteFaultVFS.Fault(.sync, callNumber: 1))
        await #expect(throws: LedgerError.self) {
            try await store.write { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 1)
            }
        }
        vfs.disarm()
        let statistics = store.groupCommitStatistics
        #expect(statistics.sharedFinishMarkCount == 0)
        if statistics.lostFinishMarkCount == 1 {
            let pending = try await store.read { reader throws(LedgerError) in try reader.pendingFinish(Rows.key("t1")) }
            #expect(pending?.key == Rows.key("t1"), "the finish is sent again by recover()")
            #expect(try Self.rawFinishedAt(directory) == 0)
        } else {
            // Only a stall past the wait lets the mark commit alone before the failing write.
            #expect(try Self.rawFinishedAt(directory) == Self.finishedAt.ledgerMilliseconds, "committed alone before the fault")
        }
        await store.close()
    }

    @Test("a finish mark wait out of range is refused at open", arguments: [-1, GroupCommitLimits.finishMarkWaitMicrosecondsLimit + 1])
    func waitIsChecked(wait: Int) throws {
        let directory = try ScratchDirectory()
        #expect(throws: LedgerError.self) { _ = try Self.store(directory, waitMicroseconds: wait) }
    }
}
