import CSQLite
import Foundation
import SQLiteLedgerStore
import Synchronization

/// A test VFS that wraps SQLite's default VFS to fail chosen file operations and to
/// simulate power loss, so suites can check what the ledger does when the disk misbehaves.
///
/// Register one per test (names must be unique) and open a store through it with
/// `SQLiteLedgerStore.Options.vfsName`. It is never the default VFS, so other connections
/// in the process are unaffected.
///
/// - Faults: `arm(_:)` fails the Nth `xWrite`, `xSync`, `xRead` or `xTruncate` after arming,
///   once (`.transient`) or from then on (`.persistent`), with the operation's
///   `SQLITE_IOERR_*` code or `SQLITE_FULL`. Every call is counted, so a test can first
///   learn how many calls a workload makes and then fail each one in turn.
/// - Power loss: with `powerLossMode` on, writes and truncates of the main database, its
///   WAL and its journal are kept in memory (reads see them) and reach the real file only
///   when SQLite syncs that file. `simulatePowerLoss()` drops whatever is unsynced, deletes
///   the `-shm` files as a reboot would, and kills files still open so their connection
///   cannot write anything more on its way out.
///
/// Registration lasts for the process: SQLite keeps a pointer to the VFS, and unregistering
/// under a live connection would leave it dangling.
public final class SQLiteFaultVFS: Sendable {
    /// Default for `bufferedByteCountMax`: far more than a test workload leaves unsynced,
    /// small enough that a runaway test fails with `SQLITE_FULL` instead of eating memory.
    public static let bufferedByteCountMaxDefault = 64 * 1024 * 1024
    /// Longest accepted VFS name, in UTF-8 bytes.
    public static let nameByteCountMax = 64

    /// The name to pass as `vfsName`.
    public let name: String
    /// Most unsynced bytes held in memory across all files; a write beyond it fails with
    /// `SQLITE_FULL`, as a full disk would.
    public let bufferedByteCountMax: Int

    /// The C structs SQLite holds; immutable after registration, so sharing them is safe.
    private struct Pointers: @unchecked Sendable {
        let base: UnsafeMutablePointer<sqlite3_vfs>
        let registered: UnsafeMutablePointer<sqlite3_vfs>
    }

    private let pointers: Pointers
    let state = Mutex(FaultVFSState())

    /// Every VFS registered, by name: keeps each alive for the process and makes the
    /// name check and the registration one step.
    private static let registry = Mutex<[String: SQLiteFaultVFS]>([:])

    /// The wrapped default VFS.
    var basePointer: UnsafeMutablePointer<sqlite3_vfs> { pointers.base }

    private init(name: String, base: UnsafeMutablePointer<sqlite3_vfs>, bufferedByteCountMax: Int) {
        self.name = name
        self.bufferedByteCountMax = bufferedByteCountMax
        // strdup: SQLite keeps the name pointer for the life of the registration.
        let registered = FaultVFSMethods.make(name: UnsafePointer(strdup(name)), base: base)
        self.pointers = Pointers(base: base, registered: registered)
        // Unretained: the registry holds the object for the life of the process.
        registered.pointee.pAppData = Unmanaged.passUnretained(self).toOpaque()
    }

    /// Registers a new fault VFS wrapping the current default VFS. Throws `SQLITE_MISUSE`
    /// for an empty or over-long name or one already registered (by anyone), or SQLite's
    /// error if registration fails.
    public static func register(
        name: String, bufferedByteCountMax: Int = bufferedByteCountMaxDefault
    ) throws(SQLiteError) -> SQLiteFaultVFS {
        guard !name.isEmpty, name.utf8.count <= nameByteCountMax, !name.utf8.contains(0) else {
            throw SQLiteError(
                extendedResultCode: SQLITE_MISUSE, message: "a VFS name must be 1 to \(nameByteCountMax) bytes")
        }
        guard bufferedByteCountMax >= 0 else {
            throw SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "bufferedByteCountMax must not be negative")
        }
        guard let base = sqlite3_vfs_find(nil) else {
            throw SQLiteError(extendedResultCode: SQLITE_ERROR, message: "SQLite has no default VFS")
        }
        return try registry.withLock { (registry: inout [String: SQLiteFaultVFS]) throws(SQLiteError) in
            guard registry[name] == nil, sqlite3_vfs_find(name) == nil else {
                throw SQLiteError(
                    extendedResultCode: SQLITE_MISUSE, message: "a VFS named \(name) is already registered")
            }
            let vfs = SQLiteFaultVFS(name: name, base: base, bufferedByteCountMax: bufferedByteCountMax)
            let code = sqlite3_vfs_register(vfs.pointers.registered, 0)
            guard code == SQLITE_OK else {
                throw SQLiteError(extendedResultCode: code, message: "sqlite3_vfs_register failed for \(name)")
            }
            registry[name] = vfs
            return vfs
        }
    }

    // MARK: Faults

    /// Arms `fault`, replacing any armed one; its call number counts from now.
    public func arm(_ fault: Fault) { state.withLock { $0.schedule.arm(fault) } }

    /// Disarms the armed fault, if any. Counts are kept.
    public func disarm() { state.withLock { $0.schedule.disarm() } }

    /// The armed fault, if any.
    public var armedFault: Fault? { state.withLock { $0.schedule.armed } }

    /// Calls of `operation` since registration or `resetCounts()`, failed ones included.
    public func callCount(_ operation: Operation) -> Int {
        state.withLock { $0.schedule.callCounts[operation, default: 0] }
    }

    /// Calls failed by injection since registration or `resetCounts()`.
    public var firedCount: Int { state.withLock { $0.schedule.firedCount } }

    /// Zeroes the call and fired counts.
    public func resetCounts() { state.withLock { $0.schedule.resetCounts() } }

    // MARK: Power loss

    /// Whether writes to the main database, WAL and journal are held in memory until their
    /// file is synced. Turning it off does not flush: a file with unsynced data keeps
    /// buffering until its next sync, so the real file never sees writes out of order.
    public var powerLossMode: Bool {
        get { state.withLock { $0.powerLossMode } }
        set { state.withLock { $0.powerLossMode = newValue } }
    }

    /// Longest accepted `syncLatencyMicroseconds`: one second.
    public static let syncLatencyMicrosecondsMax = 1_000_000

    /// Extra time every successful `xSync` takes (default 0), clamped to 0 through
    /// `syncLatencyMicrosecondsMax`: a fast disk made to behave like a slower one, for
    /// example to see how group commit shares syncs that cost milliseconds.
    public var syncLatencyMicroseconds: Int {
        get { state.withLock { $0.syncLatencyMicroseconds } }
        set { state.withLock { $0.syncLatencyMicroseconds = min(max(newValue, 0), Self.syncLatencyMicrosecondsMax) } }
    }

    /// The role noted for I/O that ran on no store queue: a caller's thread, the cooperative pool.
    public static let elsewhereRole = "elsewhere"

    /// Whether each read, write, truncate and sync notes which store queue it runs on (off by
    /// default): how a test checks that no file I/O runs on the cooperative pool.
    public var recordsQueueRoles: Bool {
        get { state.withLock { $0.recordsQueueRoles } }
        set { state.withLock { $0.recordsQueueRoles = newValue } }
    }

    /// The noted reads, writes, truncates and syncs by the role of the store queue they ran on
    /// (`read`, `groupCommit`, `open`, `close`), or `elsewhereRole`.
    public var callCountsByQueueRole: [String: Int] { state.withLock { $0.callCountsByQueueRole } }

    /// Bytes written but not yet synced, across all files.
    public var bufferedByteCount: Int { state.withLock { $0.bufferedByteCount } }

    /// Drops every unsynced write and truncate, so the files hold only synced data; kills
    /// files still open (their every later read, write, sync, size query and lock fails,
    /// so their connection's close cannot checkpoint or delete the WAL); and deletes the
    /// `-shm` file of every main database this VFS opened, which SQLite rebuilds from the
    /// WAL as it does after a reboot.
    @discardableResult
    public func simulatePowerLoss() -> PowerLossReport {
        var report = state.withLock { state in
            let report = PowerLossReport(
                discardedByteCount: state.bufferedByteCount, discardedFilePaths: state.unsynced.keys.sorted(),
                deletedSharedMemoryPaths: [], killedOpenFileCount: state.openFileCount)
            state.unsynced = [:]
            state.bufferedByteCount = 0
            state.openFileCount = 0
            state.generation += 1
            return report
        }
        let databases = state.withLock { $0.mainDatabasePaths }.sorted()
        for path in databases.map({ $0 + "-shm" }) where FileManager.default.fileExists(atPath: path) {
            if (try? FileManager.default.removeItem(atPath: path)) != nil {
                report.deletedSharedMemoryPaths.append(path)
            }
        }
        return report
    }

    // MARK: xOpen

    /// Opens `name` with the default VFS inside `file`'s allocation and attaches a handle.
    func open(
        name: UnsafePointer<CChar>?, file: UnsafeMutablePointer<sqlite3_file>, flags: Int32,
        outFlags: UnsafeMutablePointer<Int32>?
    ) -> Int32 {
        // SQLite calls xClose only if pMethods is set, so it stays nil until the wrapped
        // open has succeeded.
        file.pointee.pMethods = nil
        let real = FaultFileHandle.realFile(in: file)
        guard let baseOpen = basePointer.pointee.xOpen else { return SQLITE_MISUSE }
        let code = baseOpen(basePointer, name, real, flags, outFlags)
        guard code == SQLITE_OK else {
            // A failed open that still set its methods expects its own xClose.
            if let methods = real.pointee.pMethods { _ = methods.pointee.xClose?(real) }
            return code
        }
        let path = name.map { String(cString: $0) }
        let durableKinds = SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL
        let isMainDatabase = flags & SQLITE_OPEN_MAIN_DB != 0
        let generation = noteOpened(path: path, isMainDatabase: isMainDatabase)
        let handle = FaultFileHandle(
            vfs: self, path: path, isDurable: path != nil && flags & durableKinds != 0, generation: generation,
            real: real)
        handle.attach(to: file)
        file.pointee.pMethods = FaultIOMethods.table.pointer
        return SQLITE_OK
    }
}
