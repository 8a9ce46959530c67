import Dispatch
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Synchronization
import Testing

@testable import SQLiteLedgerStore

/// Where a read runs: on the caller's thread when the read connection is free, with no busy
/// wait there; on the reader's queue, with the configured busy timeout, when the connection is
/// taken or the read met a lock, which runs its body a second time.
@Suite struct SQLiteReadTests {
    static let busyTimeoutMilliseconds: Int32 = 1_234
    /// Longest the tests poll for a read to reach the reader's queue.
    static let pollCountMax = 10_000

    static func store(_ directory: ScratchDirectory) throws -> SQLiteLedgerStore {
        var options = SQLiteLedgerStore.Options()
        options.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        return try SQLiteLedgerStore(path: directory.path("ledger.sqlite"), options: options)
    }

    /// The read connection's busy timeout, as the body sees it where it runs.
    static func busyTimeout(_ reader: any LedgerReader) throws(LedgerError) -> Int64 {
        guard let session = SQLiteLedgerSession.of(reader) else { throw LedgerError.invalidArgument("not SQLite") }
        return try session.sql { () throws(SQLiteError) in try session.connection.integer("PRAGMA busy_timeout") }
    }

    /// Waits on a thread of its own, never on a cooperative one.
    static func wait(_ semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                semaphore.wait()
                continuation.resume()
            }.start()
        }
    }

    @Test("a read on a free connection runs on the caller's thread with no busy wait; one that finds it taken waits its turn on the reader's queue")
    func whereAReadRuns() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        #expect(try await store.read { reader throws(LedgerError) in try Self.busyTimeout(reader) } == 0)
        #expect(store.readStatistics == ReadStatistics(callersThreadCount: 1, queuedCount: 0))

        // Another read holds the connection (here, a thread holding its lock).
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread {
            store.reader.mutex.withLock { _ in
                held.signal()
                release.wait()
            }
        }.start()
        await Self.wait(held)
        let queued = Task { try await store.read { reader throws(LedgerError) in try Self.busyTimeout(reader) } }
        var polls = 0
        while store.readStatistics.queuedCount == 0, polls < Self.pollCountMax {
            polls += 1
            try await Task.sleep(for: .milliseconds(1))
        }
        release.signal()
        #expect(try await queued.value == Int64(Self.busyTimeoutMilliseconds), "the queue waits up to the busy timeout")
        #expect(store.readStatistics == ReadStatistics(callersThreadCount: 1, queuedCount: 1))
        // The caller's thread got its timeout back: the next read there still waits for nothing.
        #expect(try await store.read { reader throws(LedgerError) in try Self.busyTimeout(reader) } == 0)
    }

    @Test("a read that meets a lock on the caller's thread runs again on the reader's queue; any other error is the answer")
    func aLockSendsTheReadToTheQueue() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        let runs = Mutex(0)
        let value = try await store.read { reader throws(LedgerError) -> Int64 in
            let run = runs.withLock { count in
                count += 1
                return count
            }
            // SQLITE_BUSY, as a WAL reader meets it while another connection rebuilds the WAL index.
            if run == 1 { throw SQLiteError(extendedResultCode: 5, message: "database is locked").ledgerError }
            return try Self.busyTimeout(reader)
        }
        #expect(value == Int64(Self.busyTimeoutMilliseconds))
        #expect(runs.withLock { $0 } == 2)
        #expect(store.readStatistics == ReadStatistics(callersThreadCount: 0, queuedCount: 1))

        let otherRuns = Mutex(0)
        await #expect(throws: LedgerError.self) {
            try await store.read { _ throws(LedgerError) -> Int in
                otherRuns.withLock { $0 += 1 }
                throw SQLiteError(extendedResultCode: 11, message: "database disk image is malformed").ledgerError
            }
        }
        #expect(otherRuns.withLock { $0 } == 1, "only a lock sends a read to the queue")
        #expect(store.readStatistics == ReadStatistics(callersThreadCount: 1, queuedCount: 1))
    }
}
