import Foundation
import FulfillmentLedgerTesting
import Synchronization

/// Runs the command-line clients the tests drive the server with.
enum ProcessRunner {
    /// What a finished process left.
    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// The path of `name` on `PATH`, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments` to its end on a thread of its own.
    static func run(_ executable: String, _ arguments: [String]) async throws -> Outcome {
        try await onOwnThread {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let output = Pipe()
            let errorOutput = Pipe()
            process.standardOutput = output
            process.standardError = errorOutput
            process.standardInput = FileHandle.nullDevice
            ProcessLaunchGuard.waitForFewDescriptors()
            try process.run()
            let errorData = Thread.detachedRead(errorOutput.fileHandleForReading)
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Outcome(
                status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                errorOutput: String(decoding: errorData(), as: UTF8.self))
        }
    }
}

extension Thread {
    /// Starts reading `handle` to its end on a new thread; the returned call waits for the bytes.
    fileprivate static func detachedRead(_ handle: FileHandle) -> @Sendable () -> Data {
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.set(handle.readDataToEndOfFile())
            done.signal()
        }.start()
        return {
            done.wait()
            return result.get()
        }
    }
}

/// A value handed from one thread to another.
private final class ResultBox: Sendable {
    private let data = Mutex(Data())
    func set(_ value: Data) { data.withLock { $0 = value } }
    func get() -> Data { data.withLock { $0 } }
}
