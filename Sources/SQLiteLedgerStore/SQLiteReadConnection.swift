import CSQLite
import FulfillmentLedger
import LedgerSQL
import Synchronization

/// The store's read-only connection, as an actor whose executor is the connection's own queue:
/// every read runs there, one at a time, never on a thread of the cooperative pool (a read may
/// read cold pages from disk, or wait up to the busy timeout for a lock).
///
/// Cancelling the reading task stops the read: before it starts, it does not run; while it
/// runs, `sqlite3_interrupt` stops its statement, and the session checks for cancellation
/// before each further statement. Either way the read answers `cancelled` and returns nothing.
actor SQLiteReadConnection {
    private nonisolated let executor: QueueExecutor
    private let connection: SQLiteConnection
    /// Which read runs now, so a late cancellation interrupts that read and no other, and
    /// never the connection once closed: `sqlite3_interrupt` is the one call SQLite allows on
    /// an open connection from another thread.
    private nonisolated let interrupter = UseCanceller()

    /// The connection's executor: its own queue, tagged `read`.
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(_ connection: sending SQLiteConnection) {
        executor = QueueExecutor(StoreQueue.make("read"))
        nonisolated(unsafe) let handle = connection.handle
        interrupter.attach { sqlite3_interrupt(handle) }
        // `sqlite3_interrupt` alone can be lost: SQLite clears it when a statement starts with
        // none running, so one that lands just before the statement's first step is forgotten.
        // The progress handler sees the request for as long as the read runs. It is called
        // only inside `sqlite3_step`, while `run` holds this actor, and so the interrupter.
        sqlite3_progress_handler(
            connection.handle, Self.progressInstructionCount,
            { context in
                guard let context else { return 0 }
                return Unmanaged<UseCanceller>.fromOpaque(context).takeUnretainedValue().isRequested ? 1 : 0
            }, Unmanaged.passUnretained(interrupter).toOpaque())
        self.connection = connection
    }

    /// How many virtual-machine instructions a statement runs between two looks at an
    /// interrupt request: a few microseconds of work, and a look costs one atomic load.
    static let progressInstructionCount: Int32 = 1_000

    /// Runs one read body in a read transaction, with the carried finish marks laid over its
    /// snapshot. `id` names the read for `interrupt`.
    func run<T: Sendable>(
        _ id: UInt64, _ body: @Sendable (LedgerReader) throws(LedgerError) -> T, committer: GroupCommitter
    ) -> Result<T, LedgerError> {
        interrupter.begin(id)
        // Ended before the rollback, which an interrupt must not reach.
        defer { connection.rollbackIfOpen() }
        defer { interrupter.end() }
        // Checked after `begin`: a cancellation before it is seen here, one after it interrupts.
        guard !Task.isCancelled else { return .failure(Self.cancelled) }
        // Taken before the snapshot starts (at the body's first statement): a mark that
        // left it since had committed before, so the snapshot holds it.
        let marks = committer.unsettledFinishMarks
        do throws(SQLiteError) { try connection.executeCached("BEGIN DEFERRED") } catch { return .failure(error.ledgerError) }
        do throws(LedgerError) {
            let session = SQLiteLedgerSession(connection: connection, checksCancellation: true)
            return .success(try body(LedgerReader(engine: session, unsettledFinishMarks: marks)))
        } catch {
            // An interrupted statement fails with SQLITE_INTERRUPT; the caller asked for it.
            return .failure(Task.isCancelled ? Self.cancelled : error)
        }
    }

    /// Interrupts read `id` if it is the one running; any other read, or none, is left alone.
    /// Safe from any thread.
    nonisolated func interrupt(_ id: UInt64) {
        interrupter.request(id)
    }

    /// Closes the connection on its queue, after the read running there; reads after this fail.
    nonisolated func close() {
        interrupter.attach(nil)
        guard !executor.isCurrent else {
            // The last reference to the store went away inside a read, on this queue.
            assumeIsolated { $0.connection.close() }
            return
        }
        executor.queue.sync { self.assumeIsolated { $0.connection.close() } }
    }

    /// Reads interrupted while a statement ran.
    nonisolated var interruptCount: Int { interrupter.requestCount }

    /// The answer of a read whose task was cancelled: not retryable, and it returned nothing.
    static let cancelled = SQLiteError.cancelled("the task was cancelled; the read stopped and returned nothing")
}
