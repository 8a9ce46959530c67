import CSQLite
import FulfillmentLedger
import LedgerSQL
import Foundation
import Synchronization

/// The embedded default ledger store: one SQLite file in WAL mode, one writing connection
/// per database per process, every write inside `BEGIN IMMEDIATE`, concurrent grants
/// sharing one commit (group commit), and a read-only connection so reads never wait for
/// a commit's sync.
///
/// Opening never modifies a file it does not recognise: a file that is not a database,
/// belongs to another application, has a newer schema or fails its check raises a typed
/// error and is left byte-for-byte as it was.
public final class SQLiteLedgerStore: LedgerStore, DetachedClosing {
    /// How durable each commit is.
    public enum Synchronous: String, Sendable, CaseIterable {
        /// fsync on every commit: a committed grant survives power loss. The default.
        case full = "FULL"
        /// In WAL mode, commits survive a process crash but the last ones may be lost on
        /// power loss or an OS crash. A grant lost that way after its platform finish was
        /// called is lost for good, so use it only where the ledger is replicated or the
        /// platform can be asked again (for example a Play purchase token).
        case normal = "NORMAL"
    }

    /// How thoroughly the file is checked when opened.
    public enum OpenCheck: String, Sendable, CaseIterable {
        /// No check beyond the header.
        case none
        /// `PRAGMA quick_check`: structure without index contents.
        case quick
        /// `PRAGMA integrity_check`: everything, slow on large files.
        case full
    }

    /// Options for opening a ledger.
    public struct Options: Sendable {
        /// Commit durability; `.full` unless you accept the trade-off described above.
        public var synchronous: Synchronous = .full
        /// How long a write waits for another process's lock before failing.
        public var busyTimeoutMilliseconds: Int32 = 5_000
        /// The check run on open.
        public var openCheck: OpenCheck = .quick
        /// Whether a missing file is created.
        public var createIfMissing = true
        /// The SQLite VFS to open the file through; nil for the default. Test suites name a
        /// fault-injecting VFS here.
        public var vfsName: String?
        /// Batch size, queue length and waits of group commit, and how long a finish mark is carried.
        public var groupCommit = GroupCommitLimits()

        /// Default options.
        public init() {}
    }

    /// Files open in this process, by device and inode so links and symlinks to one file
    /// count as one: one store, and so one writing connection, per database, because
    /// Debian's SQLite 3.40 can corrupt a WAL file when two connections of one process
    /// write. The store's second connection is read-only and never checkpoints.
    private static let openFiles = Mutex<[String: (path: String, owner: UUID)]>([:])

    /// The file's path as given.
    public let path: String
    private let fileIdentity: String
    /// This store's claim on its file, so it never releases a claim another store took since.
    private let claimOwner = UUID()
    /// The one connection that writes; `write` and the group committer take turns on it.
    private let writer: LockedConnection
    /// A read-only connection on its own queue: in WAL mode it reads the last commit while the
    /// writer works.
    let reader: SQLiteReadConnection
    let committer: GroupCommitter
    private let readCounts = Mutex(ReadStatistics())
    /// Set once by `close()` (or by `deinit`'s check, for a store let go without it).
    private let isClosed = Mutex(false)
    /// The commit durability chosen at open; group commit relaxes it only for deferred batches.
    private let synchronous: Synchronous

    /// Opens or creates a ledger.
    public init(path: String, options: Options = Options()) throws(LedgerError) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else {
            throw LedgerError.configuration(
                "\(path.isEmpty ? "an empty path" : path) is not a file on disk: WAL is required, and SQLite keeps in-memory and temporary databases out of WAL")
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard options.createIfMissing else { throw LedgerError.ledgerMissing(location: path) }
            // An empty file is an empty database to SQLite; creating it first gives it an inode to register.
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                let reason = FileManager.default.fileExists(atPath: directory) ? "" : ": its directory does not exist"
                throw SQLiteError(extendedResultCode: SQLITE_CANTOPEN, message: "cannot create \(path)\(reason)").ledgerError
            }
        }
        let identity = try Self.identity(of: path)
        guard Self.register(identity, path: path, owner: claimOwner) else {
            throw LedgerError.ledgerInUse(location: path)
        }
        guard options.groupCommit.isValid else {
            Self.release(identity, owner: claimOwner)
            throw LedgerError.configuration(
                "group commit limits: batchCountMax and queueCountMax must be at least 1, waitMicroseconds 0 to \(GroupCommitLimits.waitMicrosecondsMax), finishMarkWaitMicrosecondsMax 0 to \(GroupCommitLimits.finishMarkWaitMicrosecondsLimit)")
        }
        do {
            let writing = try Self.open(path: path, options: options)
            // Opened once the writer has made the file a ledger in WAL mode.
            let reading = try LedgerFileInspector.open(
                path, mode: .readOnly, vfsName: options.vfsName, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
            self.writer = LockedConnection(writing)
            self.reader = SQLiteReadConnection(reading)
        } catch {
            Self.release(identity, owner: claimOwner)
            throw error
        }
        self.synchronous = options.synchronous
        self.committer = GroupCommitter(writer: writer, limits: options.groupCommit, durableSynchronous: options.synchronous)
        self.path = path
        self.fileIdentity = identity
    }

    /// Where a ledger is and how to open it, for `open(_:)`.
    public struct Configuration: Sendable {
        /// The ledger file's path.
        public var path: String
        /// How to open it.
        public var options: Options

        /// The file at `path`, opened with `options`.
        public init(path: String, options: Options = Options()) {
            self.path = path
            self.options = options
        }
    }

    /// `open(path:options:)` through the store port.
    public static func open(_ configuration: Configuration) async throws(LedgerError) -> SQLiteLedgerStore {
        try await open(path: configuration.path, options: configuration.options)
    }

    /// Opens or creates a ledger on a thread of the store's own, never on the caller's: opening
    /// reads the file, checks it, and may migrate it, none of which may hold a thread of the
    /// cooperative pool. Prefer it to `init` in async code.
    public static func open(path: String, options: Options = Options()) async throws(LedgerError) -> SQLiteLedgerStore {
        let result = await StoreQueue.run("open") { () -> Result<SQLiteLedgerStore, LedgerError> in
            do throws(LedgerError) { return .success(try SQLiteLedgerStore(path: path, options: options)) } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Commits the carried finish marks, closes both connections (the writer last, so it
    /// checkpoints and removes the WAL) and releases the file, on a thread of the store's own.
    /// A read or write after this fails with a storage error; a second call does nothing.
    public func close() async {
        guard isClosed.withLock({ (closed: inout Bool) in defer { closed = true }; return !closed }) else { return }
        await StoreQueue.run("close") { self.shutDown() }
    }

    /// `close()` with no caller awaiting it, on a thread of the store's own (`DetachedClosing`).
    package func closeDetached(then: @escaping @Sendable () -> Void) {
        guard isClosed.withLock({ (closed: inout Bool) in defer { closed = true }; return !closed }) else { return then() }
        StoreQueue.make("close").async {
            self.shutDown()
            then()
        }
    }

    deinit {
        // Only a check (`UnclosedStoreCheck`): a store let go without `close()` commits nothing
        // and waits for no commit here, on whatever thread let go of it. No read or write is in
        // flight (each keeps its store alive), so the reader closes at once, and the writer
        // closes without a checkpoint; a drain of carried marks still running holds the writer
        // and closes it on the committer's queue when its turn ends.
        guard isClosed.withLock({ (closed: inout Bool) in defer { closed = true }; return !closed }) else { return }
        UnclosedStoreCheck.report(engine: "SQLite", location: path)
        committer.abandon()
        reader.close()
        _ = writer.mutex.withLockIfAvailable { connection in
            connection.skipCheckpointOnClose()
            connection.close()
        }
        Self.release(fileIdentity, owner: claimOwner)
    }

    /// Carried finish marks commit first. Both connections close before the file is released,
    /// so no second store opens the file while this one still holds it.
    private func shutDown() {
        committer.close()
        reader.close()
        writer.mutex.withLock { $0.close() }
        Self.release(fileIdentity, owner: claimOwner)
    }

    /// The writing connection's page counters, for the benchmark and the write-path page test:
    /// every commit runs on that connection, so its pages written are the WAL frames this store wrote.
    package func writerPageCounters() -> SQLitePageCounters {
        writer.mutex.withLock { $0.pageCounters() }
    }

    /// The schema version this build writes; a ledger opened by it is migrated to this version.
    public static var schemaVersion: Int { LedgerSchema.versionSupported }

    /// Group commit's counters since this store was opened.
    public var groupCommitStatistics: GroupCommitStatistics { committer.statistics }

    /// Reads run since this store was opened.
    public var readStatistics: ReadStatistics { readCounts.withLock { $0 } }

    /// Runs `body` in a read transaction on the read-only connection: it sees one consistent
    /// snapshot and never waits for a commit's sync.
    ///
    /// The body runs on the reader's own queue, never on the caller's thread: a read may read
    /// cold pages from disk or wait up to the busy timeout for a lock (a WAL reader meets one
    /// while another connection rebuilds the WAL index), and neither may hold a thread of the
    /// cooperative pool. The round trip costs 11,000 instructions and two context switches per
    /// read (measured against running free reads on the caller's thread).
    ///
    /// Cancelling the calling task stops the read: one not yet started never runs, and one
    /// running is interrupted (`sqlite3_interrupt`) at its statement. It fails with a
    /// `cancelled` storage error (not retryable); the body's result, if any, is dropped.
    public func read<T: Sendable>(
        _ body: @escaping @Sendable (LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        guard !isClosed.withLock({ $0 }) else {
            throw SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "\(path): the store is closed").ledgerError
        }
        let reader = self.reader
        readCounts.withLock { $0.queuedCount += 1 }
        let id = Self.nextRequestID.add(1, ordering: .relaxed).newValue
        let result = await withTaskCancellationHandler {
            await reader.run(id, body, committer: committer)
        } onCancel: {
            reader.interrupt(id)
        }
        return try result.get()
    }

    /// Queues `body` for the group committer and suspends until its transaction has committed
    /// (and, for `.durable`, synced at the configured level). The body runs on the committer's
    /// queue, inside `BEGIN IMMEDIATE`, possibly sharing the transaction and its sync with
    /// concurrent callers (its own savepoint keeps a failure to itself). A body that fails
    /// retryably (busy, a conflict it reports) runs again, up to `writeRetryCountMax` times;
    /// a write refused because `queueCountMax` writes already wait fails at once.
    ///
    /// Cancelling the calling task withdraws the write while it still waits in the queue: it
    /// fails with a `cancelled` storage error (not retryable) and nothing of it runs. A write a
    /// transaction already took runs to its end: it shares that transaction with other
    /// callers' writes, which an interrupt would roll back too.
    @discardableResult
    public func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        var refused = false
        // A full queue is the caller's signal to back off: it is refused at once, not retried.
        return try await Self.writeRetry.run(retryable: { !refused && WriteRetryPolicy.allowsRetry($0) }) {
            () async throws(LedgerError) -> T in
            let value = GroupWriteValue<T>()
            let id = Self.nextRequestID.add(1, ordering: .relaxed).newValue
            let committer = self.committer
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, LedgerError>, Never>) in
                    let request = GroupWriteRequest(
                        id: id, durability: durability,
                        perform: { writer throws(LedgerError) in value.set(try body(writer)) },
                        deliver: { error in continuation.resume(returning: value.result(error)) })
                    if Task.isCancelled {
                        continuation.resume(returning: .failure(committer.withdrawBeforeQueueing()))
                    } else if let refusal = committer.enqueue(request) {
                        refused = true
                        continuation.resume(returning: .failure(refusal))
                    } else if Task.isCancelled {
                        // Cancelled between the check and the queue: withdraw it now.
                        committer.withdraw(id)
                    }
                }
            } onCancel: {
                committer.withdraw(id)
            }
            return try result.get()
        }
    }

    /// The ID of the next write request, unique in the process.
    private static let nextRequestID = Atomic<UInt64>(0)

    /// Stamps a record finished by carrying the mark into the committer's next transaction
    /// (`GroupCommitLimits.finishMarkWaitMicrosecondsMax`): reads through this store show it at
    /// once, and it shares that transaction's pages instead of writing its own. With carrying
    /// off, or the carried marks at their limit, it commits alone as a deferred write.
    public func markFinished(_ key: TransactionKey, at date: Date) async throws(LedgerError) {
        if committer.carry(key, finishedAtMilliseconds: date.ledgerMilliseconds) { return }
        try await write(.deferred) { writer throws(LedgerError) in try writer.markFinished(key, at: date) }
    }

    /// How a write that failed retryably runs again: a short pause, longer each time, so
    /// another process's lock can clear.
    static let writeRetry = WriteRetryPolicy(
        retryCountMax: writeRetryCountMax, pauseMillisecondsBase: writeRetryPauseMillisecondsBase,
        pauseMillisecondsMax: writeRetryPauseMillisecondsMax)

    /// Most times a write that failed retryably is run again.
    public static let writeRetryCountMax = 3
    /// The pause before the first retry; each further retry doubles it, up to the maximum.
    static let writeRetryPauseMillisecondsBase = 1
    static let writeRetryPauseMillisecondsMax = 8

    /// Claims a file for this process. A claim whose file was deleted (its inode then free
    /// for reuse by a new file) is stale and yields.
    private static func register(_ identity: String, path: String, owner: UUID) -> Bool {
        openFiles.withLock { claims in
            if let claim = claims[identity], (try? Self.identity(of: claim.path)) == identity {
                return false
            }
            claims[identity] = (path, owner)
            return true
        }
    }

    /// Releases a claim, but only its own: a stale one may since have passed to a new file
    /// that got the same inode.
    private static func release(_ identity: String, owner: UUID) {
        openFiles.withLock { claims in
            if claims[identity]?.owner == owner { claims.removeValue(forKey: identity) }
        }
    }

    /// `device:inode` of an existing file.
    private static func identity(of path: String) throws(LedgerError) -> String {
        do {
            // Follow symlinks, as SQLite does, so an alias of an open file is recognised.
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let attributes = try FileManager.default.attributesOfItem(atPath: resolved)
            guard let device = attributes[.systemNumber] as? NSNumber, let inode = attributes[.systemFileNumber] as? NSNumber
            else { return URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path }
            return "\(device.uint64Value):\(inode.uint64Value)"
        } catch {
            throw LedgerError.ledgerMissing(location: path)
        }
    }

    private static func open(path: String, options: Options) throws(LedgerError) -> SQLiteConnection {
        let connection = try LedgerFileInspector.open(
            path, mode: .readWrite, vfsName: options.vfsName, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        // Found now rather than at the first grant: a ledger that cannot be written grants nothing.
        guard !connection.isReadOnly else {
            throw SQLiteError(extendedResultCode: SQLITE_READONLY, message: "\(path) is read-only; a ledger must be writable").ledgerError
        }
        // Inspect before any write: nothing below this line runs on a file we do not own.
        let header = try LedgerFileInspector.inspectHeader(connection, path: path)
        try LedgerFileInspector.check(connection, path: path, level: header.isEmpty ? .none : options.openCheck)
        try ensureWAL(connection, path: path)
        do throws(SQLiteError) {
            try connection.setSynchronous(options.synchronous.rawValue)
            try connection.execute("PRAGMA foreign_keys = ON")
            // Group commit opens a savepoint per request, and SQLite copies each page a
            // savepoint first changes into a statement journal. In memory, that copy is a
            // memcpy instead of a write to a temporary file (two thirds of all writes under load).
            try connection.execute("PRAGMA temp_store = MEMORY")
            try migrate(connection, from: header.userVersion)
        } catch {
            throw error.ledgerError
        }
        // Checked again after the first transactions: when the switch of a new file to WAL
        // fails on I/O, SQLite 3.40 still answers `wal` and falls back to a rollback journal
        // at the next transaction. Switching again fixes it.
        try ensureWAL(connection, path: path)
        return connection
    }

    /// Switches the file to WAL unless it is in WAL mode already, and refuses it when it stays out.
    private static func ensureWAL(_ connection: SQLiteConnection, path: String) throws(LedgerError) {
        let mode: String?
        do throws(SQLiteError) {
            guard try connection.text("PRAGMA journal_mode")?.lowercased() != "wal" else { return }
            // Its answer is read, not run to the end: a failed switch of a new file shows at the
            // next transaction, and the check after the migration switches again.
            _ = try connection.text("PRAGMA journal_mode = WAL")
            mode = try connection.text("PRAGMA journal_mode")
        } catch {
            throw error.ledgerError
        }
        guard mode?.lowercased() == "wal" else {
            throw LedgerError.configuration("\(path): journal_mode is \(mode ?? "unknown"), WAL is required")
        }
    }

    /// Brings the file to `LedgerSchema.versionSupported`: an empty file (version 0) is created
    /// from the schema's one description, an older one runs SQLite's history steps it lacks and
    /// then the shared migrations; each step in a transaction of its own.
    private static func migrate(_ connection: SQLiteConnection, from version: Int) throws(SQLiteError) {
        for step in LedgerSchema.steps(from: version) {
            try connection.immediateTransaction { () throws(SQLiteError) in
                try connection.execute(step.sql)
                try connection.execute("PRAGMA user_version = \(step.version)")
            }
        }
    }
}
