import Dispatch
import Foundation
import FulfillmentLedgerTesting

/// Runs a page's console samples against the built `ledger`, the way a reader would: in one
/// fresh directory holding a copy of ProductCatalog.json, block after block, each command through
/// `/bin/sh` with `ledger` first on PATH and none of the caller's environment.
struct ShellSampleRunner {
    /// A command whose output is not what the page shows, or a setup command that failed.
    struct Mismatch: CustomStringConvertible {
        var page: String
        var line: Int
        var command: String
        var expected: [String]
        var actual: [String]

        var description: String {
            """
            \(page):\(line): `\(command)` printed
            \(actual.map { "  | " + $0 }.joined(separator: "\n"))
            but the page shows
            \(expected.map { "  | " + $0 }.joined(separator: "\n"))
            """
        }
    }

    /// Longest one command may run before it is killed and reported.
    static let commandTimeoutSeconds = 60
    /// Most bytes of output read from one command.
    static let outputByteCountMax = 1 << 20

    /// The `ledger` executable built next to the test bundle, if it was built.
    static var executable: URL? { BuiltExecutable.find("ledger") }

    let executable: URL

    /// Runs `samples`, all of one page, in order; returns what did not match and how many
    /// commands ran. Call it from a thread of its own: it waits for child processes.
    func run(_ samples: [ShellSample]) throws -> (mismatches: [Mismatch], commandCount: Int) {
        let scratch = try ScratchDirectory()
        let directory = scratch.path("sample")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: DocumentedBlocks.packageRoot.appendingPathComponent("ProductCatalog.json").path,
            toPath: directory + "/ProductCatalog.json")
        var mismatches: [Mismatch] = []
        var commandCount = 0
        for sample in samples where sample.notRunReason == nil {
            for command in sample.setup {
                let result = try shell(command, in: directory, scratch: scratch)
                if result.status != 0 {
                    mismatches.append(Mismatch(
                        page: sample.page, line: sample.line, command: "sample-setup: " + command,
                        expected: ["(exit status 0)"], actual: result.lines + ["(exit status \(result.status))"]))
                }
            }
            for step in sample.steps {
                commandCount += 1
                let result = try shell(step.command, in: directory, scratch: scratch)
                if !SampleOutputMatcher.matches(expected: step.expected, actual: result.lines) {
                    mismatches.append(Mismatch(
                        page: sample.page, line: sample.line, command: step.command, expected: step.expected,
                        actual: result.lines))
                }
            }
        }
        return (mismatches, commandCount)
    }

    /// Runs one command line through `/bin/sh -c` and returns its exit status and its output
    /// lines, standard output first.
    private func shell(_ command: String, in directory: String, scratch: ScratchDirectory) throws
        -> (status: Int32, lines: [String])
    {
        ProcessLaunchGuard.waitForFewDescriptors()
        let outputPath = scratch.path("stdout")
        let errorPath = scratch.path("stderr")
        for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = [
            "PATH": executable.deletingLastPathComponent().path + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": directory, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC",
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        // On its own thread (the runner is called through onOwnThread), so it may wait here.
        ProcessLaunchGuard.waitForFewDescriptors()
        try process.run()
        try output.close()
        try error.close()
        if ended.wait(timeout: .now() + .seconds(Self.commandTimeoutSeconds)) == .timedOut {
            process.terminate()
            ended.wait()
        }
        let text = [outputPath, errorPath].map { path in
            let data = FileManager.default.contents(atPath: path) ?? Data()
            return String(decoding: data.prefix(Self.outputByteCountMax), as: UTF8.self)
        }.joined()
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return (process.terminationStatus, lines)
    }
}
