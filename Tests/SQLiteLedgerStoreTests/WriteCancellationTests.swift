import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// Cancelling a task withdraws its write while the write still waits in the group committer's
/// queue; a write a transaction took runs to its end.
@Suite("write cancellation")
struct WriteCancellationTests {
    @Test("a cancelled task's queued write is withdrawn: it fails as cancelled, writes nothing, and the writes beside it commit")
    func queuedWriteIsWithdrawn() async throws {
        let directory = try ScratchDirectory()
        let store = try GroupCommitTests.store(directory, limits: GroupCommitTests.queueing())
        let release = try await GroupCommitTests.hold(store)
        let cancelled = Task {
            try await store.write(.durable) { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "cancelled", currencyID: "gold", delta: 5)
            }
        }
        let kept = Task {
            try await store.write(.durable) { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "kept", currencyID: "gold", delta: 7)
            }
        }
        try await GroupCommitTests.waitUntilQueued(store, 2)
        cancelled.cancel()
        // The withdrawn write leaves the queue at once, while the hold still blocks the writer.
        var polls = 0
        while store.committer.waitingCount > 1, polls < GroupCommitTests.pollCountMax / 10 {
            polls += 1
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(store.committer.waitingCount == 1)
        await release()
        let outcome = await cancelled.result
        guard case .failure(let error) = outcome, case .storage(let failure) = error as? LedgerError else {
            Issue.record("a cancelled queued write answered \(outcome)")
            return
        }
        #expect(failure.code == "cancelled")
        #expect(!failure.isRetryable)
        try await kept.value
        #expect(try await GroupCommitTests.balance(store, "cancelled") == 0)
        #expect(try await GroupCommitTests.balance(store, "kept") == 7)
        #expect(store.groupCommitStatistics.withdrawnCount == 1)
        await store.close()
    }

    @Test("a write whose task is cancelled before it is queued is withdrawn at once; one already running commits")
    func cancelledBeforeAndWhileRunning() async throws {
        let directory = try ScratchDirectory()
        let store = try GroupCommitTests.store(directory, limits: GroupCommitTests.queueing())
        let release = try await GroupCommitTests.hold(store)
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.write(.durable) { writer throws(LedgerError) in
                _ = try writer.addToBalance(playerID: "early", currencyID: "gold", delta: 1)
            }
        }
        // Released first: a write that was not withdrawn would run now, and succeed.
        await release()
        await #expect(throws: LedgerError.self) { try await early.value }

        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let running = Task {
            try await store.write(.durable) { writer throws(LedgerError) in
                started.signal()
                proceed.wait()
                _ = try writer.addToBalance(playerID: "running", currencyID: "gold", delta: 3)
            }
        }
        try await onOwnThread { started.wait() }
        running.cancel()
        proceed.signal()
        try await running.value
        #expect(try await GroupCommitTests.balance(store, "early") == 0)
        #expect(try await GroupCommitTests.balance(store, "running") == 3)
        #expect(store.groupCommitStatistics.withdrawnCount == 1)
        await store.close()
    }
}
