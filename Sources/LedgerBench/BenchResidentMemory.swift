import Foundation

/// The process's resident memory (RSS), for the memory-flatness run.
enum BenchResidentMemory {
    /// Bytes of `/proc/self/statm` read at most; the file is one short line.
    static let statmByteCountMax = 256

    /// Resident bytes now, or nil where the platform has no cheap way to tell (only Linux
    /// is read: `/proc/self/statm`, resident pages times the page size).
    static func currentBytes() -> Int64? {
        #if os(Linux)
            guard let text = readProcFile("/proc/self/statm", byteCountMax: statmByteCountMax) else { return nil }
            // Fields: size resident shared text lib data dt, in pages.
            let fields = text.split(separator: " ")
            guard fields.count >= 2, let residentPages = Int64(fields[1]) else { return nil }
            return residentPages * Int64(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return nil
        #endif
    }
}

/// The start of a `/proc` file, at most `byteCountMax` bytes, with one read (the kernel makes
/// such a file in one go); nil if it cannot be read or is empty.
func readProcFile(_ path: String, byteCountMax: Int) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: byteCountMax)
    let length = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard length > 0 else { return nil }
    return String(decoding: buffer[0..<length], as: UTF8.self)
}
