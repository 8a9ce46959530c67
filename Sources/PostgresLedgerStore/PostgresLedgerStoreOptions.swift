extension PostgresLedgerStore {
    /// Where the ledger lives and the store's limits.
    public struct Options: Sendable {
        /// Largest `conflictRetryCountMax` accepted.
        public static let conflictRetryCountMaxLimit = 100

        /// The server, the credentials (TLS settings such as `sslmode` pass through untouched)
        /// and the pool's limits: connections, waiters, acquire timeout, statement cache.
        public var pool: PostgresPoolConfiguration
        /// Whether an empty database is made a ledger; false refuses it with `.ledgerMissing`.
        public var createIfMissing = true
        /// Most times a transaction that failed with a serialization failure, a deadlock or a
        /// connection lost before COMMIT runs again.
        public var transactionRetryCountMax = 16
        /// Most times a write body that reported a concurrent write (`StoreConflict`) runs again.
        public var conflictRetryCountMax = 8

        /// Options for the database at `connectionString` (a `postgresql://` URI or libpq
        /// `key=value` pairs), with the default pool limits.
        public init(connectionString: String) {
            pool = PostgresPoolConfiguration(connectionString: PostgresConnectionString(connectionString))
        }
    }
}
