import Synchronization

/// A connection behind its lock, shared by the store and its committer.
final class LockedConnection: Sendable {
    let mutex: Mutex<SQLiteConnection>

    init(_ connection: sending SQLiteConnection) { mutex = Mutex(connection) }
}
