import Dispatch
import Synchronization

/// A hook that sees every statement a pool's connections send, in order, with its parameters:
/// the benchmark records the statements of one fulfillment through it, to replay them on a bare
/// connection as its baseline. Off (no handler) it costs one lock per statement.
package final class PostgresStatementTap: Sendable {
    /// One statement as it was sent.
    package struct Statement: Sendable, Hashable {
        /// Whether it went through the simple protocol (`execute`) or as a prepared statement (`query`).
        package var isPrepared: Bool
        /// Its SQL text.
        package var sql: String
        /// The values bound to `$1`...`$n` (none for the simple protocol).
        package var parameters: [PostgresValue]
        /// The role of the pool queue it was sent from (`PoolSlot.roleKey`), or `elsewhereRole`.
        package var queueRole: String

        /// A statement as `execute` (simple protocol) or `query` (prepared) sends it, from the
        /// queue running the caller.
        package init(isPrepared: Bool, sql: String, parameters: [PostgresValue]) {
            self.isPrepared = isPrepared
            self.sql = sql
            self.parameters = parameters
            self.queueRole = DispatchQueue.getSpecific(key: PoolSlot.roleKey) ?? Self.elsewhereRole
        }

        /// The role of a statement sent from no pool queue: a caller's thread, the cooperative pool.
        package static let elsewhereRole = "elsewhere"
    }

    private let handler = Mutex<(@Sendable (Statement) -> Void)?>(nil)

    /// A tap with no handler.
    package init() {}

    /// Sets the handler that sees each statement from now on; nil turns the tap off.
    package func setHandler(_ newHandler: (@Sendable (Statement) -> Void)?) {
        handler.withLock { $0 = newHandler }
    }

    /// Hands `statement` to the handler, if one is set.
    func record(_ statement: @autoclosure () -> Statement) {
        guard let current = handler.withLock({ $0 }) else { return }
        current(statement())
    }
}
