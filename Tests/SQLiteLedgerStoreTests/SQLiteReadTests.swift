import Dispatch
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Synchronization
import Testing

@testable import SQLiteLedgerStore

/// Where a read runs: always on the reader's queue, with the configured busy timeout, never on
/// the caller's thread; its body runs once.
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
    static func busyTimeout(_ reader: LedgerReader) throws(LedgerError) -> Int64 {
        guard let session = reader.engine as? SQLiteLedgerSession else { throw LedgerError.invalidArgument("not SQLite") }
        return try session.sql { () throws(SQLiteError) in try session.connection.integer("PRAGMA busy_timeout") }
    }

    @Test("every read runs on the reader's queue with the busy timeout, and one that finds the connection taken waits its turn")
    func whereAReadRuns() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        #expect(try await store.read { reader throws(LedgerError) in try Self.busyTimeout(reader) } == Int64(Self.busyTimeoutMilliseconds))
        #expect(store.readStatistics == ReadStatistics(queuedCount: 1))

        // Another read holds the connection: its body waits on the reader's queue.
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holding = Task {
            try await store.read { _ throws(LedgerError) in
                held.signal()
                release.wait()
            }
        }
        try await onOwnThread { held.wait() }
        let queued = Task { try await store.read { reader throws(LedgerError) in try Self.busyTimeout(reader) } }
        var polls = 0
        while store.readStatistics.queuedCount == 2, polls < Self.pollCountMax {
            polls += 1
            try await Task.sleep(for: .milliseconds(1))
        }
        release.signal()
        try await holding.value
        #expect(try await queued.value == Int64(Self.busyTimeoutMilliseconds), "the queue waits up to the busy timeout")
        #expect(store.readStatistics == ReadStatistics(queuedCount: 3))
        await store.close()
    }

    @Test("a read body runs once: its error, a lock included, is the answer")
    func aReadRunsOnce() async throws {
        let directory = try ScratchDirectory()
        let store = try Self.store(directory)
        for code: Int32 in [5, 11] {
            let runs = Mutex(0)
            await #expect(throws: LedgerError.self) {
                try await store.read { _ throws(LedgerError) -> Int in
                    runs.withLock { $0 += 1 }
                    throw SQLiteError(extendedResultCode: code, message: "refused").ledgerError
                }
            }
            #expect(runs.withLock { $0 } == 1)
        }
        await store.close()
    }
}
