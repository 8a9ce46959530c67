/// A transaction's isolation level, as `BEGIN ISOLATION LEVEL ...` takes it.
package enum PostgresIsolationLevel: String, Hashable, Sendable, CaseIterable {
    /// Each statement sees what was committed before it began.
    case readCommitted = "READ COMMITTED"
    /// The transaction sees one snapshot; a concurrent update of a row it updates fails with 40001.
    case repeatableRead = "REPEATABLE READ"
    /// As if the transactions ran one at a time; any anomaly fails one of them with 40001.
    case serializable = "SERIALIZABLE"

    /// The `BEGIN` statement that opens a transaction at this level, read-only if asked (the
    /// server then refuses any write in it).
    func beginStatement(readOnly: Bool) -> String { "BEGIN ISOLATION LEVEL \(rawValue)" + (readOnly ? " READ ONLY" : "") }
}
