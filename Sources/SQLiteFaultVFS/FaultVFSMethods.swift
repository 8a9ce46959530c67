import CSQLite

/// Builds the `sqlite3_vfs` struct of a fault VFS: `xOpen` wraps each file, `xDelete`
/// also drops its unsynced overlay, and every other entry forwards to the default VFS
/// (with the default VFS's own struct, which its functions may read).
enum FaultVFSMethods {
    /// Version 2: everything up to `xCurrentTimeInt64`. The version-3 system-call hooks
    /// exist to test the unix VFS itself and are not offered.
    static let version: Int32 = 2

    /// The fault VFS registered at `vfs`, from its `pAppData`.
    static func owner(_ vfs: UnsafeMutablePointer<sqlite3_vfs>?) -> SQLiteFaultVFS? {
        guard let raw = vfs?.pointee.pAppData else { return nil }
        return Unmanaged<SQLiteFaultVFS>.fromOpaque(raw).takeUnretainedValue()
    }

    /// The wrapped default VFS of the fault VFS at `vfs`.
    static func wrapped(_ vfs: UnsafeMutablePointer<sqlite3_vfs>?) -> UnsafeMutablePointer<sqlite3_vfs>? {
        owner(vfs)?.basePointer
    }

    /// A VFS struct named `name` wrapping `base`; `pAppData` is set by the caller once the
    /// owning object exists.
    static func make(
        name: UnsafePointer<CChar>, base: UnsafeMutablePointer<sqlite3_vfs>
    ) -> UnsafeMutablePointer<sqlite3_vfs> {
        var vfs = sqlite3_vfs()
        vfs.iVersion = version
        vfs.szOsFile = FaultFileHandle.osFileSize(wrapping: base.pointee.szOsFile)
        vfs.mxPathname = base.pointee.mxPathname
        vfs.zName = name
        vfs.xOpen = { vfs, name, file, flags, outFlags in
            guard let owner = FaultVFSMethods.owner(vfs), let file else { return SQLITE_MISUSE }
            return owner.open(name: name, file: file, flags: flags, outFlags: outFlags)
        }
        vfs.xDelete = { vfs, name, syncDirectory in
            guard let owner = FaultVFSMethods.owner(vfs), let base = owner.basePointer.pointee.xDelete else {
                return SQLITE_MISUSE
            }
            let code = base(owner.basePointer, name, syncDirectory)
            if let name { owner.noteDeleted(path: String(cString: name)) }
            return code
        }
        vfs.xAccess = { vfs, name, flags, result in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return SQLITE_MISUSE }
            return base.pointee.xAccess(base, name, flags, result)
        }
        vfs.xFullPathname = { vfs, name, count, output in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return SQLITE_MISUSE }
            return base.pointee.xFullPathname(base, name, count, output)
        }
        vfs.xDlOpen = { vfs, name in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return nil }
            return base.pointee.xDlOpen?(base, name)
        }
        vfs.xDlError = { vfs, count, message in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return }
            base.pointee.xDlError?(base, count, message)
        }
        vfs.xDlSym = { vfs, library, symbol in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return nil }
            return base.pointee.xDlSym?(base, library, symbol)
        }
        vfs.xDlClose = { vfs, library in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return }
            base.pointee.xDlClose?(base, library)
        }
        vfs.xRandomness = { vfs, count, output in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return 0 }
            return base.pointee.xRandomness(base, count, output)
        }
        vfs.xSleep = { vfs, microseconds in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return 0 }
            return base.pointee.xSleep(base, microseconds)
        }
        vfs.xCurrentTime = { vfs, time in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return SQLITE_ERROR }
            return base.pointee.xCurrentTime(base, time)
        }
        vfs.xGetLastError = { vfs, count, message in
            guard let base = FaultVFSMethods.wrapped(vfs) else { return 0 }
            return base.pointee.xGetLastError?(base, count, message) ?? 0
        }
        vfs.xCurrentTimeInt64 = { vfs, time in
            guard let base = FaultVFSMethods.wrapped(vfs), base.pointee.iVersion >= 2,
                let current = base.pointee.xCurrentTimeInt64
            else {
                return SQLITE_ERROR
            }
            return current(base, time)
        }
        let pointer = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        pointer.initialize(to: vfs)
        return pointer
    }
}
