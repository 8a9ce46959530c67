import Dispatch
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Synchronization
import Testing

@testable import SQLiteLedgerStore

/// Cancelling a reading task stops its read: before it starts, at its running statement
/// (`sqlite3_interrupt`), or at its next statement; the connection then serves the next read.
@Suite("read cancellation", .timeLimit(.minutes(1)))
struct ReadCancellationTests {
    /// A statement that runs for many seconds unless interrupted (about 20 s on a 2-core
    /// machine), and ends well within the suite's time limit if it is not.
    static let longCount = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 50000000) SELECT count(*) FROM c"

    /// Runs `sql` on the reader's connection inside the read body.
    static func integer(_ reader: LedgerReader, _ sql: String) throws(LedgerError) -> Int64 {
        guard let session = reader.engine as? SQLiteLedgerSession else { throw LedgerError.invalidArgument("not SQLite") }
        return try session.sql { () throws(SQLiteError) in try session.connection.integer(sql) }
    }

    /// The storage failure a cancelled read answered, or nil with the issue recorded.
    static func failure<T>(_ outcome: Result<T, any Error>) -> StorageFailure? {
        guard case .failure(let error) = outcome, case .storage(let failure) = error as? LedgerError else {
            Issue.record("a cancelled read answered \(outcome)")
            return nil
        }
        return failure
    }

    @Test("a running statement is interrupted: the read fails as cancelled, and the next read runs")
    func runningStatementIsInterrupted() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteReadTests.store(directory)
        let started = DispatchSemaphore(value: 0)
        let long = Task {
            try await store.read { reader throws(LedgerError) in
                started.signal()
                return try Self.integer(reader, Self.longCount)
            }
        }
        try await onOwnThread { started.wait() }
        long.cancel()
        let failure = Self.failure(await long.result)
        #expect(failure?.code == "cancelled")
        #expect(failure?.isRetryable == false)
        #expect(store.reader.interruptCount == 1)
        #expect(try await store.read { reader throws(LedgerError) in try reader.balances(playerID: "p") } == [:])
        await store.close()
    }

    @Test("a cancellation between two statements stops the read at the next one")
    func cancellationBetweenStatements() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteReadTests.store(directory)
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let statementsRun = Mutex(0)
        let reading = Task {
            try await store.read { reader throws(LedgerError) in
                _ = try reader.balances(playerID: "p")
                statementsRun.withLock { $0 += 1 }
                started.signal()
                proceed.wait()
                _ = try reader.balances(playerID: "p")
                statementsRun.withLock { $0 += 1 }
            }
        }
        try await onOwnThread { started.wait() }
        reading.cancel()
        proceed.signal()
        #expect(Self.failure(await reading.result)?.code == "cancelled")
        #expect(statementsRun.withLock { $0 } == 1)
        #expect(try await store.read { reader throws(LedgerError) in try reader.balances(playerID: "p") } == [:])
        await store.close()
    }

    @Test("a read whose task is cancelled before it starts never runs")
    func cancelledBeforeItStarts() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteReadTests.store(directory)
        let runs = Mutex(0)
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.read { _ throws(LedgerError) in runs.withLock { $0 += 1 } }
        }
        #expect(Self.failure(await early.result)?.code == "cancelled")
        #expect(runs.withLock { $0 } == 0)
        #expect(store.reader.interruptCount == 0)
        await store.close()
    }

    @Test("an interrupt for a read that is not running touches none")
    func staleInterruptTouchesNoOtherRead() async throws {
        let directory = try ScratchDirectory()
        let store = try SQLiteReadTests.store(directory)
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let counting = Task {
            try await store.read { reader throws(LedgerError) in
                started.signal()
                proceed.wait()
                return try Self.integer(reader, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) SELECT count(*) FROM c")
            }
        }
        try await onOwnThread { started.wait() }
        store.reader.interrupt(UInt64.max)
        proceed.signal()
        #expect(try await counting.value == 100_000)
        #expect(store.reader.interruptCount == 0)
        await store.close()
    }
}
