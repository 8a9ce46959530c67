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
    /// Longest wait, after which the launch goes ahead anyway. Call it only from a thread of
    /// its own, never from the concurrency pool, which a wait would starve.
    public static let waitMillisecondsMax = 20_000
    /// Descriptors above which a launch keeps waiting past `waitMillisecondsMax`: close to the
    /// count that fills the buffer, where a launch could crash the whole test process (a
    /// fresh-clone run on a slow two-core machine crashed in `Process.run()` after the wait).
    /// Not lower: on that machine the suites held over 1,000 descriptors for minutes, and a
    /// hard limit of 1,000 held launches so long that a signed webhook expired before it was sent.
    public static let descriptorCountHardMax = 1_200
    /// Longest wait while the count stays above `descriptorCountHardMax`: well under the
    /// five-minute tolerance of the signed requests the tests send after a launch.
    public static let hardWaitMillisecondsMax = 60_000
    /// Pause between counts.
    static let pollMilliseconds: UInt32 = 50

    /// Whether a launch should wait another poll, `waitedMilliseconds` into its wait.
    static func shouldWait(waitedMilliseconds: Int) -> Bool {
        guard let count = openDescriptorCount(), count > descriptorCountMax else { return false }
        if waitedMilliseconds < waitMillisecondsMax { return true }
        return count > descriptorCountHardMax && waitedMilliseconds < hardWaitMillisecondsMax
    }

    /// Returns once this process holds at most `descriptorCountMax` descriptors, or after
    /// `waitMillisecondsMax` if it then holds at most `descriptorCountHardMax`, or after
    /// `hardWaitMillisecondsMax`. A no-op where `/proc/self/fd` cannot be read.
    public static func waitForFewDescriptors() {
        var waitedMilliseconds = 0
        while shouldWait(waitedMilliseconds: waitedMilliseconds) {
            usleep(pollMilliseconds * 1_000)
            waitedMilliseconds += Int(pollMilliseconds)
        }
    }

    /// The same wait for a test on the concurrency pool: it sleeps between counts instead of
    /// blocking its thread.
    ///
    /// Foundation's URLSession on Linux watches its sockets with `select`, whose descriptor sets
    /// end at 1,024: a socket opened while the process holds more descriptors gets a number past
    /// that end, the socket manager then writes past its sets, and URLSession requests in the
    /// whole process stall (seen as loopback servers that never got a request). Tests that talk
    /// HTTP through URLSession wait here before their first request.
    public static func fewDescriptors() async {
        var waitedMilliseconds = 0
        while shouldWait(waitedMilliseconds: waitedMilliseconds) {
            try? await Task.sleep(for: .milliseconds(Int(pollMilliseconds)))
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

    /// Runs `path` with `arguments` to its end with `posix_spawn`, its standard output captured
    /// and its standard error dropped; nil when it cannot start. No descriptor scan, so it is
    /// safe however many descriptors this process holds, and it needs no wait.
    public static func spawn(_ path: String, _ arguments: [String]) -> (status: Int32, output: Data)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let started = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(ends[1])
        defer { close(ends[0]) }
        guard started == 0 else { return nil }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WEXITSTATUS when the child exited normally; -1 when a signal ended it.
        return (status & 0x7f == 0 ? (status >> 8) & 0xff : -1, output)
    }
}
