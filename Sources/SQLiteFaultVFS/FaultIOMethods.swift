import CSQLite

/// The `sqlite3_io_methods` table every file opened through a fault VFS uses.
///
/// Each entry is a non-capturing closure (a C function pointer) that finds its
/// `FaultFileHandle` in the file's allocation. The read, write, truncate, sync and size
/// entries go through the VFS's schedule and overlay; the rest pass straight through to
/// the wrapped file.
enum FaultIOMethods {
    /// A C pointer SQLite reads from any thread; immutable after creation.
    struct Table: @unchecked Sendable {
        let pointer: UnsafePointer<sqlite3_io_methods>
    }

    /// Version 2: shared memory for WAL, but no `xFetch`. Memory-mapped reads would bypass
    /// `xRead`, and with it both fault injection and the unsynced overlay.
    static let version: Int32 = 2

    /// `SQLITE_IOERR_SHMMAP`, should a wrapped file lack shared-memory support.
    static let shmMapErrorCode = SQLITE_IOERR | (21 << 8)

    /// Allocated once for the process; SQLite keeps pointers to it in every open file.
    static let table = Table(pointer: UnsafePointer(makeTable()))

    private static func makeTable() -> UnsafeMutablePointer<sqlite3_io_methods> {
        var methods = sqlite3_io_methods()
        methods.iVersion = version
        methods.xClose = { file in
            guard let file, let handle = FaultFileHandle.of(file) else { return SQLITE_OK }
            let code = handle.realMethods.xClose(handle.real)
            handle.vfs.noteClosed(handle)
            FaultFileHandle.detach(from: file)
            return code
        }
        methods.xRead = { file, buffer, count, offset in
            guard let handle = FaultFileHandle.of(file), let buffer else { return SQLITE_MISUSE }
            return handle.vfs.read(handle, into: buffer, count: count, offset: offset)
        }
        methods.xWrite = { file, buffer, count, offset in
            guard let handle = FaultFileHandle.of(file), let buffer else { return SQLITE_MISUSE }
            return handle.vfs.write(handle, from: buffer, count: count, offset: offset)
        }
        methods.xTruncate = { file, size in
            guard let handle = FaultFileHandle.of(file) else { return SQLITE_MISUSE }
            return handle.vfs.truncate(handle, to: size)
        }
        methods.xSync = { file, flags in
            guard let handle = FaultFileHandle.of(file) else { return SQLITE_MISUSE }
            return handle.vfs.sync(handle, flags: flags)
        }
        methods.xFileSize = { file, size in
            guard let handle = FaultFileHandle.of(file), let size else { return SQLITE_MISUSE }
            return handle.vfs.fileSize(handle, into: size)
        }
        methods.xLock = { file, level in
            guard let handle = FaultFileHandle.of(file) else { return SQLITE_MISUSE }
            // A dead file's connection must not win the exclusive lock it takes on close to
            // checkpoint and delete the WAL: the machine it ran on has "lost power".
            if handle.vfs.isDead(handle) { return SQLiteFaultVFS.lockErrorCode }
            return handle.realMethods.xLock(handle.real, level)
        }
        methods.xUnlock = { file, level in
            guard let handle = FaultFileHandle.of(file) else { return SQLITE_MISUSE }
            return handle.realMethods.xUnlock(handle.real, level)
        }
        methods.xCheckReservedLock = { file, result in
            guard let handle = FaultFileHandle.of(file) else { return SQLITE_MISUSE }
            return handle.realMethods.xCheckReservedLock(handle.real, result)
        }
        methods.xFileControl = { file, operation, argument in
            guard let handle = FaultFileHandle.of(file) else { return SQLITE_MISUSE }
            // A size hint would grow the real file behind the overlay's back; it is only a
            // hint, so skipping it is always allowed.
            if operation == SQLITE_FCNTL_SIZE_HINT, !handle.vfs.allowsSizeHint(handle) { return SQLITE_OK }
            return handle.realMethods.xFileControl(handle.real, operation, argument)
        }
        methods.xSectorSize = { file in
            guard let handle = FaultFileHandle.of(file) else { return 4096 }
            return handle.realMethods.xSectorSize(handle.real)
        }
        methods.xDeviceCharacteristics = { file in
            guard let handle = FaultFileHandle.of(file) else { return 0 }
            return handle.realMethods.xDeviceCharacteristics(handle.real)
        }
        methods.xShmMap = { file, region, size, extend, pointer in
            guard let handle = FaultFileHandle.of(file), handle.realMethods.iVersion >= 2,
                let map = handle.realMethods.xShmMap
            else { return FaultIOMethods.shmMapErrorCode }
            return map(handle.real, region, size, extend, pointer)
        }
        methods.xShmLock = { file, offset, count, flags in
            guard let handle = FaultFileHandle.of(file), handle.realMethods.iVersion >= 2,
                let lock = handle.realMethods.xShmLock
            else { return SQLITE_IOERR }
            return lock(handle.real, offset, count, flags)
        }
        methods.xShmBarrier = { file in
            guard let handle = FaultFileHandle.of(file), handle.realMethods.iVersion >= 2,
                let barrier = handle.realMethods.xShmBarrier
            else { return }
            barrier(handle.real)
        }
        methods.xShmUnmap = { file, deleteFlag in
            guard let handle = FaultFileHandle.of(file), handle.realMethods.iVersion >= 2,
                let unmap = handle.realMethods.xShmUnmap
            else { return SQLITE_OK }
            return unmap(handle.real, deleteFlag)
        }
        let pointer = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        pointer.initialize(to: methods)
        return pointer
    }
}
