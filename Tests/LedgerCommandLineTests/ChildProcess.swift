import Dispatch
import Foundation
import FulfillmentLedgerTesting
import Synchronization
import Testing

/// A child process whose standard output goes to a file (so a full pipe never stalls it) and
/// whose end can be awaited without blocking a cooperative thread.
final class ChildProcess: @unchecked Sendable {
    /// How a child ended.
    struct Exit: Sendable {
        /// The exit status, or the signal's number when `killed`.
        var status: Int32
        /// Whether a signal ended it.
        var killed: Bool
        /// Standard output and standard error, as written.
        var output: String
        /// When the end was seen.
        var endedAt: Date

        /// Each complete line of standard output that is a JSON object (a line cut by a kill is not).
        var jsonLines: [[String: Any]] {
            output.split(separator: "\n").compactMap { line in
                try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            }
        }
    }

    // Safe to share: `process` is only read after `run()`, and `ended` is signalled once.
    private let process: Process
    private let outputURL: URL
    private let ended = DispatchSemaphore(value: 0)
    private let endTime = Mutex<Date?>(nil)

    /// Where kill timers run: a serial queue of the tests' own, which gets a thread even while
    /// the global queues' few workers are busy.
    static let timers = DispatchQueue(label: "ChildProcess.timers")

    private init(process: Process, outputURL: URL) {
        self.process = process
        self.outputURL = outputURL
    }

    /// Starts `executable` with `arguments`, and `input` on its standard input.
    static func launch(_ executable: URL, _ arguments: [String], input: String = "") async throws -> ChildProcess {
        // `Process.run()` must not scan a descriptor table as large as the suites' early peak.
        await ProcessLaunchGuard.fewDescriptors()
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-child-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let handle = try FileHandle(forWritingTo: outputURL)
        let inputURL = outputURL.appendingPathExtension("in")
        try Data(input.utf8).write(to: inputURL)
        defer { try? FileManager.default.removeItem(at: inputURL) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = handle
        process.standardError = handle
        let child = ChildProcess(process: process, outputURL: outputURL)
        process.terminationHandler = { _ in
            child.endTime.withLock { $0 = Date() }
            child.ended.signal()
        }
        try process.run()
        try handle.close()
        return child
    }

    /// Sends SIGKILL after `milliseconds`, unless the child has ended by then.
    func kill(afterMilliseconds milliseconds: Int) {
        let pid = process.processIdentifier
        Self.timers.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in
            // Never signal a process ID the system may hand to someone else once the child is gone.
            if process.isRunning { Foundation.kill(pid, SIGKILL) }
        }
    }

    /// Waits for the end, on a thread of its own, (killing the child after `timeoutSeconds`, which then fails the test
    /// through its status) and reads its output.
    func exit(timeoutSeconds: Double) async throws -> Exit {
        let inTime = (try? await onOwnThread { [self] () -> Bool in
            guard ended.wait(timeout: .now() + timeoutSeconds) == .success else {
                process.terminate()
                ended.wait()
                return false
            }
            return true
        }) ?? false
        let output = String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self)
        try? FileManager.default.removeItem(at: outputURL)
        let killed = process.terminationReason == .uncaughtSignal
        return Exit(
            status: process.terminationStatus, killed: killed, output: inTime ? output : "timed out: " + output,
            endedAt: endTime.withLock { $0 } ?? Date())
    }
}

/// A PostgreSQL server of the test's own, from `Scripts/postgres-test-server`, for a test that
/// restarts it.
struct TestServer: Sendable {
    /// The server's URL (the `ledger_test` database).
    let url: String
    /// Its directory, for `restart` and `stop`.
    let directory: String

    static var script: String { packageRoot.appendingPathComponent("Scripts/postgres-test-server").path }

    /// Starts a new server and waits until it serves.
    static func start() async throws -> TestServer {
        let exports = try await onOwnThread { try Self.runScript(["start"]) }
        func value(_ name: String) -> String? {
            exports.split(separator: "\n").first { $0.hasPrefix("export \(name)='") }
                .map { String($0.dropFirst("export \(name)='".count).dropLast()) }
        }
        let url = try #require(value("LEDGER_TEST_POSTGRES_URL"), "the script printed no URL: \(exports)")
        let directory = try #require(value("LEDGER_TEST_POSTGRES_DIR"), "the script printed no directory: \(exports)")
        return TestServer(url: url, directory: directory)
    }

    /// Restarts it: every connection is cut; it serves again when this returns.
    func restart() async throws {
        let directory = directory
        _ = try await onOwnThread { try Self.runScript(["restart", directory]) }
    }

    /// Stops it and removes its directory.
    func stop() { _ = try? Self.runScript(["stop", directory]) }

    /// Runs the script, returning its standard output; a failure throws with its output. Waits
    /// through `terminationHandler`: `waitUntilExit` off the main thread can spin on Linux.
    private static func runScript(_ arguments: [String]) throws -> String {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-script-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let handle = try FileHandle(forWritingTo: outputURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script] + arguments
        process.standardOutput = handle
        // The server the script starts keeps its standard error open: send it nowhere.
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        // `Process.run()` can crash while the suites in parallel hold many descriptors.
        ProcessLaunchGuard.waitForFewDescriptors()
        try process.run()
        try handle.close()
        guard ended.wait(timeout: .now() + scriptSecondsMax) == .success else {
            process.terminate()
            throw ScriptFailure(message: "\(arguments.joined(separator: " ")) did not end within \(scriptSecondsMax) s")
        }
        let printed = String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw ScriptFailure(message: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(printed)")
        }
        return printed
    }

    /// Longest the script may take (it waits for the server itself, up to its own limit).
    static let scriptSecondsMax = 120.0

    struct ScriptFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "postgres-test-server failed: \(message)" }
    }
}
