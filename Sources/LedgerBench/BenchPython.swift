import Foundation

/// R5 against Python: when `python3` can import Apple's App Store Server Library, runs
/// `Scripts/appstore_verify_bench.py` on the JWS the Swift R5 verified and the simulator's
/// root certificate. Never fails the bench: anything missing or wrong becomes the reason
/// the report gives instead of figures.
enum BenchPython {
    /// The script, relative to the package's root.
    static let scriptRelativePath = "Scripts/appstore_verify_bench.py"
    /// The Python module the comparison needs (PyPI: app-store-server-library).
    static let moduleName = "appstoreserverlibrary"
    /// Longest wait for one Python process before it is stopped.
    static let waitSecondsMax = 1_800
    /// How often a running process is checked.
    static let pollMilliseconds = 50
    /// Most `PATH` entries searched for `python3`.
    static let pathEntryCountMax = 64
    /// Most bytes read back from the script's stdout or stderr.
    static let outputByteCountMax = 1 << 20
    /// The reason the report gives when the module is missing.
    static let notInstalled = "not installed"

    /// The Python figures, or why there are none.
    static func measure(
        jws: [String], rootCertificateDER: [UInt8], bundleID: String, count: Int, repeats: Int, directory: URL
    ) async -> BenchSection<BenchPythonFigures> {
        guard let python = interpreter() else { return .absent(notInstalled + " (no python3 on PATH)") }
        let probe = await run(python, ["-c", "import \(moduleName)"], directory: directory, name: "python-probe")
        guard probe.status == 0 else { return .absent(notInstalled) }
        guard let script = scriptURL() else {
            return .absent("skipped: \(scriptRelativePath) not found in the current folder or the package")
        }
        let jwsPath = directory.appendingPathComponent("r5-jws.txt")
        let rootPath = directory.appendingPathComponent("r5-root.der")
        do {
            try Data(jws.joined(separator: "\n").utf8).write(to: jwsPath)
            try Data(rootCertificateDER).write(to: rootPath)
        } catch {
            return .absent("failed: cannot write the inputs: \(error.localizedDescription)")
        }
        let result = await run(
            python,
            [
                script.path, "--jws-file", jwsPath.path, "--root-certificate", rootPath.path, "--bundle-id", bundleID,
                "--environment", "Sandbox", "--count", String(count), "--repeats", String(repeats),
            ], directory: directory, name: "python-r5")
        guard result.status == 0 else {
            let detail = (result.output + " " + result.error).trimmingCharacters(in: .whitespacesAndNewlines)
            let what = result.status == 3 ? "the library rejected the simulator's transactions" : "exit \(result.status)"
            return .absent("failed: \(what): \(detail.suffix(2_000))")
        }
        do {
            return .measured(try JSONDecoder().decode(BenchPythonFigures.self, from: Data(result.output.utf8)))
        } catch {
            return .absent("failed: unreadable output: \(result.output.prefix(500))")
        }
    }

    /// The first executable `python3` on `PATH`.
    static func interpreter() -> URL? { executable(named: "python3") }

    /// The first executable called `name` on `PATH`.
    static func executable(named name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":").prefix(pathEntryCountMax) {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// The script in the current folder (a package checkout), or else next to the sources
    /// this binary was built from.
    static func scriptURL() -> URL? {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(scriptRelativePath),
            packageRoot.appendingPathComponent(scriptRelativePath),
        ]
        return candidates.first { FileManager.default.isReadableFile(atPath: $0.path) }
    }

    /// Runs `executable` with `arguments`, its stdout and stderr going to files in `directory`;
    /// stops it after `waitSecondsMax`. Status -1 means it could not start or was stopped.
    static func run(
        _ executable: URL, _ arguments: [String], directory: URL, name: String
    ) async -> (status: Int32, output: String, error: String) {
        let outputPath = directory.appendingPathComponent("\(name).stdout").path
        let errorPath = directory.appendingPathComponent("\(name).stderr").path
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
            FileManager.default.createFile(atPath: errorPath, contents: nil),
            let output = FileHandle(forWritingAtPath: outputPath), let error = FileHandle(forWritingAtPath: errorPath)
        else { return (-1, "", "cannot create \(name) output files") }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (-1, "", "cannot start \(executable.lastPathComponent): \(error.localizedDescription)")
        }
        let deadline = ContinuousClock.now + .seconds(waitSecondsMax)
        var stopped = false
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                stopped = true
                break
            }
            try? await Task.sleep(for: .milliseconds(pollMilliseconds))
        }
        process.waitUntilExit()
        try? output.close()
        try? error.close()
        let read = { (path: String) in
            String(decoding: (FileManager.default.contents(atPath: path) ?? Data()).prefix(outputByteCountMax), as: UTF8.self)
        }
        let status = stopped ? -1 : process.terminationStatus
        return (status, read(outputPath), stopped ? "stopped after \(waitSecondsMax) s" : read(errorPath))
    }
}
