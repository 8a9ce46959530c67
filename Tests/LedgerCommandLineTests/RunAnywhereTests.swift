import Foundation
import FulfillmentLedgerTesting
import Testing

/// The built `ledger` executable run from an empty folder outside the package: every command
/// whose catalog has a default finds one (the sample catalog built into the tool).
@Suite struct RunAnywhereTests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs the built executable with `directory` as its current folder.
    static func ledger(_ arguments: [String], in directory: URL) async throws -> Run {
        let executable = try #require(CrashAtFaultPointTests.executable, "build the ledger executable first (swift build)")
        return try await onOwnThread { try Self.run(executable, arguments, in: directory) }
    }

    /// Runs the child to its end on the calling thread, which must be one of its own.
    private static func run(_ executable: URL, _ arguments: [String], in directory: URL) throws -> Run {
        ProcessLaunchGuard.waitForFewDescriptors()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        // stderr goes to a file, so neither stream can fill a pipe while the other is read.
        let logs = try ScratchDirectory()
        let errorPath = logs.path("stderr")
        try #require(FileManager.default.createFile(atPath: errorPath, contents: nil))
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            error: String(decoding: try contents(errorPath), as: UTF8.self))
    }

    @Test("ledger demo exits 0 from an empty folder outside the package, and leaves the folder empty")
    func demoFromAnEmptyFolder() async throws {
        let empty = try ScratchDirectory()
        let run = try await Self.ledger(["demo"], in: empty.url)
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("ledger demo: catalog the built-in sample ProductCatalog.json, ledger "))
        #expect(run.output.contains("demo finished: every step behaved as promised"))
        #expect(try empty.fileNames().isEmpty)
    }

    @Test("catalog explain, entitlements and simulate fall back to the built-in sample from an empty folder")
    func otherDefaultsFromAnEmptyFolder() async throws {
        let empty = try ScratchDirectory()
        let explain = try await Self.ledger(["catalog", "explain", "weekly_offer"], in: empty.url)
        #expect(explain.status == 0, "\(explain.error)")
        #expect(explain.output.contains("limit: 1 per week"))
        #expect(explain.error.contains("using the built-in sample catalog"))

        let ledgers = try ScratchDirectory()
        let db = ledgers.path("ledger.sqlite")
        let bought = try await fulfill(["transactionID": "a1", "productID": "test.remove_ads", "playerID": "p1"], db: db)
        try #require(bought.code == 0, "\(bought.error)")
        let entitlements = try await Self.ledger(["entitlements", "--db", db, "--player", "p1", "--json"], in: empty.url)
        #expect(entitlements.status == 0, "\(entitlements.error)")
        #expect(entitlements.output.contains(#""remove_ads":"owned""#))

        let simulate = try await Self.ledger(["simulate", "--seed", "7", "--runs", "1", "--steps", "20"], in: empty.url)
        #expect(simulate.status == 0, "\(simulate.output)\(simulate.error)")
        #expect(simulate.output.contains("violations 0"))
        #expect(try empty.fileNames().isEmpty)
    }

    @Test("a catalog file in the current folder still wins over the built-in sample")
    func fileInTheFolderWins() async throws {
        let folder = try ScratchDirectory()
        let text = try String(contentsOfFile: repoCatalogPath, encoding: .utf8)
            .replacingOccurrences(of: #""amount": 300"#, with: #""amount": 350"#)
        _ = try folder.write(text, to: "ProductCatalog.json")
        let run = try await Self.ledger(["catalog", "explain", "weekly_offer"], in: folder.url)
        #expect(run.status == 0)
        #expect(run.output.contains("350 gems"))
        #expect(run.error.isEmpty)
    }
}
