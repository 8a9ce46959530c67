/// What `SQLiteFaultVFS.simulatePowerLoss()` threw away.
public struct PowerLossReport: Sendable, Hashable {
    /// Unsynced bytes dropped across all files.
    public var discardedByteCount: Int
    /// Files that had unsynced data, by path.
    public var discardedFilePaths: [String]
    /// `-shm` files deleted to model the reboot.
    public var deletedSharedMemoryPaths: [String]
    /// Files still open at the moment of the loss; all their later I/O fails.
    public var killedOpenFileCount: Int
}
