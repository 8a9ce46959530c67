/// The server settings a doctor report shows: durability and the default isolation level.
public struct PostgresServerSettings: Hashable, Sendable, Codable {
    /// `synchronous_commit`: `on`, `remote_apply`, `remote_write`, `local` or `off` (commits
    /// acknowledged before they are durable).
    public var synchronousCommit: String
    /// `fsync`: `off` means a server crash can corrupt the cluster.
    public var fsync: String
    /// `server_version`, such as `15.18 (Debian 15.18-0+deb12u1)`.
    public var serverVersion: String
    /// `transaction_isolation`: the session's level, the default level outside a transaction.
    public var transactionIsolation: String

    /// Creates settings.
    public init(synchronousCommit: String, fsync: String, serverVersion: String, transactionIsolation: String) {
        self.synchronousCommit = synchronousCommit
        self.fsync = fsync
        self.serverVersion = serverVersion
        self.transactionIsolation = transactionIsolation
    }
}
