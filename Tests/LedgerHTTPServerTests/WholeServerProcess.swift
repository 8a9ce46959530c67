import Foundation
import FulfillmentLedgerTesting

/// The example server run as a child process in a folder of its own, its output in files there.
final class WholeServerProcess: @unchecked Sendable {
    /// What it left when it ended.
    struct Ended: Sendable {
        var status: Int32
        var output: String
        var errorOutput: String
    }

    /// Tenths of a second it has to exit after SIGTERM.
    static let stopWaitTenthsMax = 300

    private let process = Process()
    private let outputPath: String
    private let errorPath: String

    /// Starts `executable` in `folder` with `PORT` and `LEDGER_TOKEN` set.
    init(executable: URL, folder: String, port: Int, token: String) throws {
        outputPath = folder + "/stdout.txt"
        errorPath = folder + "/stderr.txt"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = executable
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["PORT"] = String(port)
        environment["LEDGER_TOKEN"] = token
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardInput = FileHandle.nullDevice
        ProcessLaunchGuard.waitForFewDescriptors()
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    func errorOutput() -> String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    func output() -> String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits for the exit.
    func terminate() async throws -> Ended {
        process.terminate()
        for _ in 0..<Self.stopWaitTenthsMax where process.isRunning {
            try await Task.sleep(for: .milliseconds(100))
        }
        if process.isRunning { kill() }
        process.waitUntilExit()
        return Ended(
            status: process.terminationStatus, output: output(),
            errorOutput: errorOutput())
    }

    /// Kills it if it still runs.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}
