import Dispatch
import Foundation

/// One child `ledger-bench` of the PostgreSQL process run, spoken to by lines: it prints `ready`
/// once connected, waits for `go` on its standard input, then prints one result line. Every read
/// waits at most until a deadline, so a stuck child fails the run instead of hanging it.
final class BenchChildProcess {
    /// Most bytes read from a child's standard output: its lines are short.
    static let outputByteCountMax = 64 * 1024
    /// Most bytes of a child's standard error kept for a failure message.
    static let errorByteCountMax = 4 * 1024

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errorPath: String
    private let exited = DispatchSemaphore(value: 0)
    private var buffer: [UInt8] = []

    /// Starts `executable` with `arguments`; its standard error goes to `errorPath`.
    init(executable: URL, arguments: [String], errorPath: String) throws {
        self.errorPath = errorPath
        guard FileManager.default.createFile(atPath: errorPath, contents: nil),
            let error = FileHandle(forWritingAtPath: errorPath)
        else { throw BenchWorkloads.Failure(description: "cannot create \(errorPath)") }
        defer { try? error.close() }
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        // waitUntilExit can spin off the main thread on Linux; the handler and a semaphore do not.
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
    }

    /// Sends `line` and a newline to the child's standard input.
    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// The child's next line of output, waiting until `deadline` at most.
    func readLine(deadline: ContinuousClock.Instant) throws -> String {
        let descriptor = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard buffer.count < Self.outputByteCountMax else { throw failure("printed a line longer than it may") }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw failure("did not answer in time") }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(remaining.components.seconds * 1000 + 1, Int64(Int32.max)))
            guard poll(&poller, 1, milliseconds) >= 0 || errno == EINTR else { throw failure("poll failed: errno \(errno)") }
            guard poller.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw failure("ended its output early") }
            buffer += chunk[..<count]
        }
    }

    /// Waits for the child to exit, until `deadline` at most (then kills it), and throws unless it
    /// exited with status 0.
    func waitForExit(deadline: ContinuousClock.Instant) throws {
        try? input.fileHandleForWriting.close()
        let remaining = deadline - ContinuousClock.now
        let nanoseconds = max(0, remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000)
        guard exited.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else {
            kill()
            throw failure("did not exit in time")
        }
        guard process.terminationStatus == 0 else { throw failure("exited with status \(process.terminationStatus)") }
    }

    /// Kills the child if it still runs, and waits for it.
    func kill() {
        guard process.isRunning else { return }
        process.terminate()
        _ = exited.wait(timeout: .now() + .seconds(5))
    }

    /// A failure naming what the child did, with the start of its standard error.
    private func failure(_ what: String) -> BenchWorkloads.Failure {
        let error = FileManager.default.contents(atPath: errorPath).map {
            String(decoding: $0.prefix(Self.errorByteCountMax), as: UTF8.self)
        }
        let detail = error.map { $0.isEmpty ? "" : ": \($0.trimmingCharacters(in: .whitespacesAndNewlines))" } ?? ""
        return BenchWorkloads.Failure(description: "P5: a child process \(what)\(detail)")
    }
}
