import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Holds a `Process.run()` back while this process has many descriptors open.
///
/// On Linux, Foundation's `Process.run()` scans `/proc/self/fd` and copies each entry's whole
/// 256-byte name field; when the listing fills glibc's directory buffer (about 1,300 entries)
/// the copy can read past the buffer's end and crash the process. Test suites running in
/// parallel hold that many (SQLite ledgers, sockets) for their first seconds, so the tests
/// and the benchmark that start tools wait here until the count is back under
/// `descriptorCountMax`, at most `waitMillisecondsMax`.
public enum ProcessLaunchGuard {
    /// Descriptors above which a launch waits; well under the count that fills the buffer.
    public static let descriptorCountMax = 900
    /// Longest wait, after which the launch goes ahead anyway.
    public static let waitMillisecondsMax = 120_000
    /// Pause between counts.
    static let pollMilliseconds: UInt32 = 50

    /// Returns once this process holds at most `descriptorCountMax` descriptors, or after
    /// `waitMillisecondsMax`. A no-op where `/proc/self/fd` cannot be read.
    public static func waitForFewDescriptors() {
        var waitedMilliseconds = 0
        while let count = openDescriptorCount(), count > descriptorCountMax, waitedMilliseconds < waitMillisecondsMax {
            usleep(pollMilliseconds * 1_000)
            waitedMilliseconds += Int(pollMilliseconds)
        }
    }

    /// The entries of `/proc/self/fd`, counted without reading them (reading an entry's name
    /// field from Swift copies it whole, the very over-read this guards against).
    static func openDescriptorCount() -> Int? {
        #if os(Linux)
            guard let directory = opendir("/proc/self/fd") else { return nil }
            defer { closedir(directory) }
            var count = 0
            while readdir(directory) != nil { count += 1 }
            return count
        #else
            return nil
        #endif
    }
}
