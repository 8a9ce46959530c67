import Dispatch
import SQLiteLedgerStore

/// Everything a fault VFS changes at run time, guarded by one mutex so counting, failing,
/// buffering and power loss never interleave.
struct FaultVFSState: Sendable {
    /// Call counts and the armed fault.
    var schedule = FaultSchedule()
    /// Whether new writes to durable files are held in memory until the file is synced.
    var powerLossMode = false
    /// Extra time every successful sync takes, to stand in for a slower disk.
    var syncLatencyMicroseconds = 0
    /// Bumped by every simulated power loss; files opened in an earlier generation are dead.
    var generation = 0
    /// Unsynced writes and truncates per path. Keyed by path rather than by open file, like
    /// an OS page cache: data written and not synced before a close is still readable by
    /// the next open, and still lost if the power goes.
    var unsynced: [String: UnsyncedFile] = [:]
    /// Sum of `unsynced` byte counts, checked against the VFS's limit.
    var bufferedByteCount = 0
    /// Main database files ever opened, whose `-shm` files a power loss deletes.
    var mainDatabasePaths: Set<String> = []
    /// Files open in the current generation.
    var openFileCount = 0
    /// Whether each read, write, truncate and sync notes the store queue it runs on.
    var recordsQueueRoles = false
    /// Those calls by the role of the store queue they ran on (`StoreQueue.roleKey`), or
    /// `SQLiteFaultVFS.elsewhereRole` off every store queue. A handful of keys.
    var callCountsByQueueRole: [String: Int] = [:]

    /// Notes the queue the current I/O call runs on, when recording.
    mutating func noteQueueRole() {
        guard recordsQueueRoles else { return }
        callCountsByQueueRole[DispatchQueue.getSpecific(key: StoreQueue.roleKey) ?? SQLiteFaultVFS.elsewhereRole, default: 0] += 1
    }
}
