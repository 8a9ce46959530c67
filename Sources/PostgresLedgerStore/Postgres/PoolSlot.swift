import CLibPQ
import Dispatch
import FulfillmentLedger
import LedgerSQL

/// One place in a pool: an actor whose executor is a serial queue of its own, which runs every
/// blocking libpq call of the place, and the connection that lives on it (opened on first use,
/// replaced after a connection failure). The compiler checks that the connection is touched only
/// there; a slot is checked out to one caller at a time.
actor PoolSlot {
    /// What happened to the slot's connection during one use, for the pool's statistics.
    struct UseReport {
        /// A connection was opened (the first, or a replacement).
        var opened = false
        /// The connection was closed because it failed or was left unusable.
        var discarded = false
        /// A cancel request was sent for the use's statement (`PQcancel`).
        var cancelSent = false
    }

    private nonisolated let executor: QueueExecutor
    private var connection: PostgresConnection?
    /// Sends a cancel request for the running use's statement, from any thread, at most once
    /// per use.
    private nonisolated let canceller = UseCanceller()

    /// Tags each slot's queue with the role `connection`, so a statement tap can tell the
    /// pool's threads from any other.
    static let roleKey = DispatchSpecificKey<String>()

    /// The slot's executor: its own queue, tagged `connection`.
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// A slot without a connection yet.
    init(label: String) {
        let queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.roleKey, value: "connection")
        executor = QueueExecutor(queue)
    }

    /// Runs `body` on a usable connection, opening or replacing it first, then closes it if the
    /// use left it broken or stuck in a transaction, or if a cancel request was sent for it (the
    /// request may still reach its server process after the statement it was meant for).
    ///
    /// A use whose task is cancelled stops: before it starts, it does not run; while a statement
    /// runs, `PQcancel` stops it; before each further statement, the connection refuses to send
    /// it. It fails with `cancelled`; a transaction it began is rolled back.
    func use<T: Sendable, E: PostgresErrorConvertible>(
        _ configuration: PostgresPoolConfiguration, tap: PostgresStatementTap,
        _ body: (PostgresConnection) throws(E) -> T
    ) -> (Result<T, E>, UseReport) {
        var report = UseReport()
        guard !Task.isCancelled else { return (.failure(E(postgresError: PostgresError.cancelled(statementSent: false))), report) }
        if let current = connection, !current.probeIsUsable() {
            // Found before any statement was sent: replacing it costs the caller nothing.
            discardConnection(&report)
        }
        let checkedOut: PostgresConnection
        if let current = connection {
            checkedOut = current
        } else {
            do throws(PostgresError) {
                checkedOut = try PostgresConnection(
                    connectionString: configuration.connectionString,
                    connectTimeoutSeconds: configuration.connectTimeoutSeconds,
                    statementCacheCountMax: configuration.statementCacheCountMax)
            } catch {
                return (.failure(E(postgresError: error)), report)
            }
            connection = checkedOut
            report.opened = true
            checkedOut.tap = tap
            canceller.attach(PostgresCancelHandle(checkedOut)?.send)
        }
        checkedOut.checksCancellation = true
        canceller.begin()
        var result = Result { () throws(E) -> T in try body(checkedOut) }
        report.cancelSent = canceller.end()
        checkedOut.checksCancellation = false
        if report.cancelSent, case .failure(let error) = result, error.postgresError?.sqlState == PostgresError.queryCanceledState {
            result = .failure(E(postgresError: PostgresError.cancelled(statementSent: true)))
        }
        // A body that left a transaction open must not hand it to the next caller.
        checkedOut.rollbackIfOpen()
        if report.cancelSent || checkedOut.isBroken || checkedOut.transactionState != PQTRANS_IDLE { discardConnection(&report) }
        return (result, report)
    }

    /// Asks the server to cancel the statement of the use running now, if any; from any thread.
    nonisolated func cancelRunningUse() {
        canceller.request()
    }

    /// Closes the connection, if any.
    func close() {
        canceller.attach(nil)
        connection?.close()
        connection = nil
    }

    /// Closes the connection on the slot's queue, without waiting: for code that cannot await.
    nonisolated func closeLater() {
        executor.queue.async { self.assumeIsolated { $0.close() } }
    }

    private func discardConnection(_ report: inout UseReport) {
        close()
        report.discarded = true
    }
}
