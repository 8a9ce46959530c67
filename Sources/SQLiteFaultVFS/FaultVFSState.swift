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
}
