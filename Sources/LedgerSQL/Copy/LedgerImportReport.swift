/// What a copy of a ledger into another engine's store did (`ledger migrate`).
public struct LedgerImportReport: Hashable, Sendable, Codable {
    /// How the copy ended.
    public enum Outcome: String, Hashable, Sendable, Codable {
        /// Every row was copied, and the counts and checksums agree.
        case copied
        /// The target already holds ledger rows; nothing was written.
        case refusedTargetNotEmpty
        /// The copy committed but does not match its source (a concurrent writer, a bug):
        /// `problems` says where. The source is unchanged.
        case verificationFailed
    }

    /// One table's rows in the source and in the target.
    public struct Table: Hashable, Sendable, Codable {
        /// The table.
        public var name: String
        /// Rows in the source.
        public var sourceRowCount: Int64
        /// Rows in the target after the copy (before it, for a refusal).
        public var targetRowCount: Int64
    }

    /// How the copy ended.
    public var outcome: Outcome
    /// The source, as its report names it.
    public var source: String
    /// The target, as its store names it (for PostgreSQL, the connection string without its password).
    public var target: String
    /// Every table, in copy order.
    public var tables: [Table]
    /// The checksum of every balance (player, currency, amount, in that order) in the source.
    public var sourceBalanceChecksum: String
    /// The same checksum read back from the target; equal to the source's when copied.
    public var targetBalanceChecksum: String?
    /// Where the target differs from the source, or why the copy was refused.
    public var problems: [String]
}
