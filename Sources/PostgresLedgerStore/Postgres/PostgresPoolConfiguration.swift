/// Where a PostgreSQL connection pool connects and its limits.
public struct PostgresPoolConfiguration: Sendable, Hashable {
    /// Default for `connectionCountMax`.
    public static let connectionCountMaxDefault = 8
    /// Default for `acquireTimeoutMilliseconds`.
    public static let acquireTimeoutMillisecondsDefault = 5_000
    /// Default for `waiterCountMax`.
    public static let waiterCountMaxDefault = 256
    /// Default for `connectTimeoutSeconds`.
    public static let connectTimeoutSecondsDefault = 10
    /// Default for `statementCacheCountMax`; the ledger uses a few dozen distinct SQL texts.
    public static let statementCacheCountMaxDefault = 128
    /// Largest `connectionCountMax` accepted: each connection is a server process and a thread here.
    public static let connectionCountMaxLimit = 1_024
    /// Largest `waiterCountMax` accepted.
    public static let waiterCountMaxLimit = 65_536
    /// Largest `acquireTimeoutMilliseconds` accepted (ten minutes).
    public static let acquireTimeoutMillisecondsLimit = 600_000

    /// The server and credentials: a `postgresql://` URI or `key=value` pairs, passed to libpq untouched.
    public var connectionString: PostgresConnectionString
    /// Most connections open at once (each runs its blocking calls on its own serial queue).
    public var connectionCountMax: Int
    /// How long a caller waits for a free connection before `acquireTimeout`.
    public var acquireTimeoutMilliseconds: Int
    /// Most callers waiting for a connection; one more is refused at once with `poolBusy`.
    public var waiterCountMax: Int
    /// How long libpq tries each host when connecting (libpq counts whole seconds, at least 2).
    public var connectTimeoutSeconds: Int
    /// Most prepared statements each connection keeps.
    public var statementCacheCountMax: Int

    /// A configuration with the default limits.
    public init(
        connectionString: PostgresConnectionString,
        connectionCountMax: Int = PostgresPoolConfiguration.connectionCountMaxDefault,
        acquireTimeoutMilliseconds: Int = PostgresPoolConfiguration.acquireTimeoutMillisecondsDefault,
        waiterCountMax: Int = PostgresPoolConfiguration.waiterCountMaxDefault,
        connectTimeoutSeconds: Int = PostgresPoolConfiguration.connectTimeoutSecondsDefault,
        statementCacheCountMax: Int = PostgresPoolConfiguration.statementCacheCountMaxDefault
    ) {
        self.connectionString = connectionString
        self.connectionCountMax = connectionCountMax
        self.acquireTimeoutMilliseconds = acquireTimeoutMilliseconds
        self.waiterCountMax = waiterCountMax
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.statementCacheCountMax = statementCacheCountMax
    }

    /// Refuses limits out of range and a connection string libpq cannot parse.
    func validate() throws(PostgresError) {
        let problems = [
            (1...Self.connectionCountMaxLimit).contains(connectionCountMax)
                ? nil : "connectionCountMax must be 1 to \(Self.connectionCountMaxLimit), not \(connectionCountMax)",
            (0...Self.waiterCountMaxLimit).contains(waiterCountMax)
                ? nil : "waiterCountMax must be 0 to \(Self.waiterCountMaxLimit), not \(waiterCountMax)",
            (1...Self.acquireTimeoutMillisecondsLimit).contains(acquireTimeoutMilliseconds)
                ? nil
                : "acquireTimeoutMilliseconds must be 1 to \(Self.acquireTimeoutMillisecondsLimit), not \(acquireTimeoutMilliseconds)",
            connectTimeoutSeconds >= 1 ? nil : "connectTimeoutSeconds must be at least 1, not \(connectTimeoutSeconds)",
            statementCacheCountMax >= 1 ? nil : "statementCacheCountMax must be at least 1, not \(statementCacheCountMax)",
        ].compactMap { $0 }
        guard problems.isEmpty else {
            throw PostgresError(kind: .invalidConfiguration, message: problems.joined(separator: "; "), statementSent: false)
        }
        try PostgresConnection.validate(connectionString)
    }
}
