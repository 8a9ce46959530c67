import CSQLite

/// One file SQLite opened through a fault VFS.
///
/// SQLite allocates `szOsFile` bytes per open file and hands them to `xOpen`; this VFS lays
/// them out as
///
///     offset 0                   sqlite3_file  (pMethods: the fault VFS's method table)
///     offset handleOffset        a retained pointer to this handle
///     offset realFileOffset      the default VFS's own file object (its szOsFile bytes)
///
/// so each C callback finds its Swift state from the `sqlite3_file*` alone, without a
/// global table, and the wrapped file needs no allocation of its own.
final class FaultFileHandle {
    /// Where the handle pointer lives: right after the `sqlite3_file` header.
    static let handleOffset = MemoryLayout<sqlite3_file>.stride
    /// Where the wrapped file starts, 16-byte aligned like malloc's blocks, which is more
    /// than any field of the default VFS's file object needs.
    static let realFileOffset = (handleOffset + MemoryLayout<UnsafeMutableRawPointer?>.stride + 15) / 16 * 16

    /// The VFS that opened the file; kept alive by its registration anyway.
    let vfs: SQLiteFaultVFS
    /// The file's path; nil for an anonymous temporary file.
    let path: String?
    /// Whether writes are subject to power loss: the main database, its WAL and its rollback
    /// journal. Temporary files vanish on reboot anyway, so they pass straight through.
    let isDurable: Bool
    /// The power-loss generation the file was opened in; a file from an earlier generation
    /// belongs to the process that "lost power", and all its I/O fails.
    let generation: Int
    /// The wrapped file of the default VFS.
    let real: UnsafeMutablePointer<sqlite3_file>

    init(
        vfs: SQLiteFaultVFS, path: String?, isDurable: Bool, generation: Int, real: UnsafeMutablePointer<sqlite3_file>
    ) {
        self.vfs = vfs
        self.path = path
        self.isDurable = isDurable
        self.generation = generation
        self.real = real
    }

    /// The bytes to allocate per file when the default VFS needs `baseSize`.
    static func osFileSize(wrapping baseSize: Int32) -> Int32 {
        Int32(realFileOffset) + baseSize
    }

    /// The wrapped file inside `file`'s allocation.
    static func realFile(in file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + realFileOffset).assumingMemoryBound(to: sqlite3_file.self)
    }

    /// The slot holding the retained handle pointer.
    private static func slot(
        in file: UnsafeMutablePointer<sqlite3_file>
    ) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        (UnsafeMutableRawPointer(file) + handleOffset).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    /// Stores a retained reference in `file`; `detach(from:)` releases it in xClose.
    func attach(to file: UnsafeMutablePointer<sqlite3_file>) {
        Self.slot(in: file).pointee = Unmanaged.passRetained(self).toOpaque()
    }

    /// The handle stored in `file`, if one is attached.
    static func of(_ file: UnsafeMutablePointer<sqlite3_file>?) -> FaultFileHandle? {
        guard let file, let raw = slot(in: file).pointee else { return nil }
        return Unmanaged<FaultFileHandle>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Releases the reference stored by `attach(to:)` and clears the slot.
    static func detach(from file: UnsafeMutablePointer<sqlite3_file>) {
        let slot = slot(in: file)
        guard let raw = slot.pointee else { return }
        slot.pointee = nil
        Unmanaged<FaultFileHandle>.fromOpaque(raw).release()
    }

    /// The wrapped file's method table; set by a successful `xOpen` of the default VFS.
    var realMethods: sqlite3_io_methods { real.pointee.pMethods.pointee }

    // MARK: Pass-through calls to the wrapped file, named so the overlay code reads plainly.

    func realRead(_ buffer: UnsafeMutableRawPointer, count: Int32, offset: Int64) -> Int32 {
        realMethods.xRead(real, buffer, count, offset)
    }

    func realWrite(_ buffer: UnsafeRawPointer, count: Int32, offset: Int64) -> Int32 {
        realMethods.xWrite(real, buffer, count, offset)
    }

    func realTruncate(_ size: Int64) -> Int32 {
        realMethods.xTruncate(real, size)
    }

    func realSync(_ flags: Int32) -> Int32 {
        realMethods.xSync(real, flags)
    }

    func realFileSize() -> (code: Int32, size: Int64) {
        var size: Int64 = 0
        let code = realMethods.xFileSize(real, &size)
        return (code, size)
    }
}
