import Foundation
import CSQLite

/// The decisions behind each `sqlite3_io_methods` callback: count, maybe fail, then either
/// pass through to the wrapped file or work on the in-memory unsynced overlay.
///
/// Every function runs under the VFS's mutex, including the wrapped file's I/O, so a sync
/// applying buffered data can never interleave with a write adding to it. The wrapped
/// default VFS never calls back into this one, so the lock cannot be re-entered.
extension SQLiteFaultVFS {
    /// `SQLITE_IOERR_SHORT_READ`: fewer bytes existed than were asked for; the rest is zeros.
    static let shortReadCode = SQLITE_IOERR | (2 << 8)
    /// `SQLITE_IOERR_FSTAT`, for a file-size query on a dead file.
    static let fileStatErrorCode = SQLITE_IOERR | (7 << 8)
    /// `SQLITE_IOERR_LOCK`, for a lock request on a dead file.
    static let lockErrorCode = SQLITE_IOERR | (15 << 8)

    /// `xRead`: the real bytes below the lowest unsynced truncate, with unsynced writes on top.
    func read(_ file: FaultFileHandle, into buffer: UnsafeMutableRawPointer, count: Int32, offset: Int64) -> Int32 {
        state.withLock { state -> Int32 in
            guard file.generation == state.generation else { return Operation.read.ioErrorCode }
            state.noteQueueRole()
            if let code = state.schedule.recordCall(.read) { return code }
            guard file.isDurable, let path = file.path, let unsynced = state.unsynced[path] else {
                return file.realRead(buffer, count: count, offset: offset)
            }
            let bytes = UnsafeMutableRawBufferPointer(start: buffer, count: Int(count))
            // Holes and bytes past the end read as zeros; SQLite relies on that for short reads.
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            if let range = unsynced.realRange(offset: offset, count: Int(count)) {
                let code = file.realRead(buffer, count: Int32(range.count), offset: offset)
                // A short real read already zero-filled its tail, which is what the overlay wants.
                guard code == SQLITE_OK || code == Self.shortReadCode else { return code }
            }
            unsynced.overlay(into: bytes, offset: offset)
            return offset + Int64(count) > unsynced.logicalSize ? Self.shortReadCode : SQLITE_OK
        }
    }

    /// `xWrite`: into the overlay while buffering, else straight to the real file.
    func write(_ file: FaultFileHandle, from buffer: UnsafeRawPointer, count: Int32, offset: Int64) -> Int32 {
        state.withLock { state -> Int32 in
            guard file.generation == state.generation else { return Operation.write.ioErrorCode }
            state.noteQueueRole()
            if let code = state.schedule.recordCall(.write) { return code }
            guard let path = Self.bufferedPath(of: file, in: state) else {
                return file.realWrite(buffer, count: count, offset: offset)
            }
            // Checked before the overlay absorbs an overwrite, so the limit is conservative.
            guard state.bufferedByteCount + Int(count) <= bufferedByteCountMax else { return SQLITE_FULL }
            if let code = Self.startOverlay(for: file, path: path, in: &state) { return code }
            let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: Int(count)))
            state.bufferedByteCount += state.unsynced[path, default: UnsyncedFile(realSize: 0)].write(bytes, at: offset)
            return SQLITE_OK
        }
    }

    /// `xTruncate`: recorded in the overlay while buffering, else applied to the real file.
    func truncate(_ file: FaultFileHandle, to size: Int64) -> Int32 {
        state.withLock { state -> Int32 in
            guard file.generation == state.generation else { return Operation.truncate.ioErrorCode }
            state.noteQueueRole()
            if let code = state.schedule.recordCall(.truncate) { return code }
            guard let path = Self.bufferedPath(of: file, in: state) else { return file.realTruncate(size) }
            if let code = Self.startOverlay(for: file, path: path, in: &state) { return code }
            state.bufferedByteCount += state.unsynced[path, default: UnsyncedFile(realSize: 0)].truncate(to: size)
            return SQLITE_OK
        }
    }

    /// `xSync`: applies the file's overlay to the real file, syncs the real file, then waits
    /// `syncLatencyMicroseconds` (outside the lock, as a slow disk would) when set.
    func sync(_ file: FaultFileHandle, flags: Int32) -> Int32 {
        let (code, latencyMicroseconds) = state.withLock { state in
            (syncLocked(file, flags: flags, state: &state), state.syncLatencyMicroseconds)
        }
        if code == SQLITE_OK, latencyMicroseconds > 0 { usleep(UInt32(latencyMicroseconds)) }
        return code
    }

    private func syncLocked(_ file: FaultFileHandle, flags: Int32, state: inout FaultVFSState) -> Int32 {
        guard file.generation == state.generation else { return Operation.sync.ioErrorCode }
        state.noteQueueRole()
            if let code = state.schedule.recordCall(.sync) { return code }
        if file.isDurable, let path = file.path, let unsynced = state.unsynced[path] {
            // On failure the overlay stays: replaying it is idempotent, and until a sync
            // succeeds the data is as unsafe as a failed fsync leaves it.
            let code = Self.apply(unsynced, to: file)
            guard code == SQLITE_OK else { return code }
            state.unsynced[path] = nil
            state.bufferedByteCount -= unsynced.byteCount
        }
        return file.realSync(flags)
    }

    /// `xFileSize`: the overlay's logical size while one exists. Not counted or failed: the
    /// schedule covers the four operations that move data.
    func fileSize(_ file: FaultFileHandle, into size: UnsafeMutablePointer<Int64>) -> Int32 {
        state.withLock { state -> Int32 in
            guard file.generation == state.generation else { return Self.fileStatErrorCode }
            if file.isDurable, let path = file.path, let unsynced = state.unsynced[path] {
                size.pointee = unsynced.logicalSize
                return SQLITE_OK
            }
            let real = file.realFileSize()
            size.pointee = real.size
            return real.code
        }
    }

    /// Whether a dead file (from before a simulated power loss) is asking; its locks fail
    /// so its connection cannot checkpoint or delete the WAL on its way out.
    func isDead(_ file: FaultFileHandle) -> Bool {
        state.withLock { $0.generation != file.generation }
    }

    /// Whether a size hint may reach the real file: not while its size lives in the overlay.
    func allowsSizeHint(_ file: FaultFileHandle) -> Bool {
        state.withLock { Self.bufferedPath(of: file, in: $0) == nil && file.generation == $0.generation }
    }

    /// Counts an open file and remembers main database paths.
    func noteOpened(path: String?, isMainDatabase: Bool) -> Int {
        state.withLock { state in
            state.openFileCount += 1
            if isMainDatabase, let path { state.mainDatabasePaths.insert(path) }
            return state.generation
        }
    }

    /// Uncounts a closed file of the current generation.
    func noteClosed(_ file: FaultFileHandle) {
        state.withLock { state in
            if file.generation == state.generation { state.openFileCount -= 1 }
        }
    }

    /// Drops the overlay of a deleted file: deletes are applied at once (directory changes
    /// are treated as durable), and a new file of that name starts empty.
    func noteDeleted(path: String) {
        state.withLock { state in
            if let dropped = state.unsynced.removeValue(forKey: path) { state.bufferedByteCount -= dropped.byteCount }
        }
    }

    /// The path whose overlay a write or truncate goes to, or nil to pass through. Once a
    /// file has unsynced data, later writes join it even with power-loss mode off, so the
    /// real file never receives them out of order.
    private static func bufferedPath(of file: FaultFileHandle, in state: FaultVFSState) -> String? {
        guard file.isDurable, let path = file.path else { return nil }
        return state.powerLossMode || state.unsynced[path] != nil ? path : nil
    }

    /// Creates the overlay for `path` over the real file's current size, if it has none.
    private static func startOverlay(for file: FaultFileHandle, path: String, in state: inout FaultVFSState) -> Int32? {
        guard state.unsynced[path] == nil else { return nil }
        let real = file.realFileSize()
        guard real.code == SQLITE_OK else { return real.code }
        state.unsynced[path] = UnsyncedFile(realSize: real.size)
        return nil
    }

    /// Writes an overlay into the real file: the lowest truncate first, then the extents,
    /// then the final size (a truncate may have grown the file past the last extent).
    private static func apply(_ unsynced: UnsyncedFile, to file: FaultFileHandle) -> Int32 {
        if let size = unsynced.truncatedTo {
            let code = file.realTruncate(size)
            guard code == SQLITE_OK else { return code }
        }
        for extent in unsynced.extents {
            let code = extent.bytes.withUnsafeBytes { bytes in
                file.realWrite(bytes.baseAddress!, count: Int32(bytes.count), offset: extent.offset)
            }
            guard code == SQLITE_OK else { return code }
        }
        let real = file.realFileSize()
        guard real.code == SQLITE_OK else { return real.code }
        return real.size == unsynced.logicalSize ? SQLITE_OK : file.realTruncate(unsynced.logicalSize)
    }
}
