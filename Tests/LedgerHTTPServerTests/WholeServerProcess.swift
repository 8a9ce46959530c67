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

/// A loopback TCP port free a moment ago: bound with port 0, read back, released.
enum FreePort {
    static func find() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
