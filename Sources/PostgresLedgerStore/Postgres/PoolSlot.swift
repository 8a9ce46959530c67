import Dispatch

/// One place in a pool: a serial queue, which runs every blocking libpq call of the place, and the
/// connection that lives on it (opened on first use, replaced after a connection failure).
///
/// `@unchecked Sendable`: `connection` is touched only on `queue`, and a slot is checked out to
/// one caller at a time, so no two threads ever use the connection together.
final class PoolSlot: @unchecked Sendable {
    /// What happened to the slot's connection during one use, for the pool's statistics.
    struct UseReport {
        /// A connection was opened (the first, or a replacement).
        var opened = false
        /// The connection was closed because it failed or was left unusable.
        var discarded = false
    }

    /// The queue every call on `connection` runs on.
    let queue: DispatchQueue
    private var connection: PostgresConnection?

    /// Tags each slot's queue with the role `connection`, so a statement tap can tell the
    /// pool's threads from any other.
    static let roleKey = DispatchSpecificKey<String>()

    /// A slot without a connection yet.
    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.roleKey, value: "connection")
    }

    /// On `queue`: runs `body` on a usable connection, opening or replacing it first, then closes it
    /// if the use left it broken or stuck in a transaction.
    func use<T, E: PostgresErrorConvertible>(
        _ configuration: PostgresPoolConfiguration, tap: PostgresStatementTap,
        _ body: (PostgresConnection) throws(E) -> T
    ) -> (Result<T, E>, UseReport) {
        dispatchPrecondition(condition: .onQueue(queue))
        var report = UseReport()
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
        }
        let result = Result { () throws(E) -> T in try body(checkedOut) }
        // A body that left a transaction open must not hand it to the next caller.
        checkedOut.rollbackIfOpen()
        if checkedOut.isBroken || checkedOut.transactionState != .idle { discardConnection(&report) }
        return (result, report)
    }

    /// On `queue`: closes the connection, if any.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        connection?.close()
        connection = nil
    }

    private func discardConnection(_ report: inout UseReport) {
        close()
        report.discarded = true
    }
}
