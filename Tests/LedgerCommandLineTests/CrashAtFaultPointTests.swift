import Foundation
import FulfillmentLedgerTesting
import FulfillmentLedger
import Testing

/// The real `ledger` process killed with SIGKILL at every fault point, then run again:
/// exactly one grant, nothing partial, and a healthy file.
@Suite struct CrashAtFaultPointTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalogPath = packageRoot.appendingPathComponent("ProductCatalog.json").path

    /// The `ledger` executable built next to the test bundle, if it was built.
    static var executable: URL? { BuiltExecutable.find("ledger") }

    struct Run {
        var status: Int32
        var signaled: Bool
        var output: String
    }

    static func ledger(_ arguments: [String], input: String = "") async throws -> Run {
        let executable = try #require(executable, "build the ledger executable first (swift build)")
        return try await onOwnThread { try Self.run(executable, arguments, input: input) }
    }

    /// Runs the child to its end on the calling thread, which must be one of its own.
    private static func run(_ executable: URL, _ arguments: [String], input: String) throws -> Run {
        ProcessLaunchGuard.waitForFewDescriptors()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            output: String(decoding: data, as: UTF8.self))
    }

    static func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }

    @Test(arguments: FaultPoint.allCases)
    func crashThenRerunGrantsExactlyOnce(point: FaultPoint) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fl-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("ledger.sqlite").path
        let transaction = #"{"transactionID":"crash-1","productID":"test.starter_bundle","playerID":"p1"}"#
        let base = ["--db", database, "--catalog", Self.catalogPath]

        let crashed = try await Self.ledger(["fulfill"] + base + ["--fault", "\(point.rawValue)=crash"], input: transaction)
        #expect(crashed.signaled && crashed.status == SIGKILL, "the process must die at \(point.rawValue)")
        #expect(crashed.output.isEmpty, "nothing may be reported before the crash")

        // The platform redelivers the unfinished transaction.
        let rerun = try await Self.ledger(["fulfill"] + base, input: transaction)
        #expect(rerun.status == 0)
        let outcome = try Self.json(rerun.output)["outcome"] as? String
        let committed = !point.isInsideGrantTransaction && point != .afterVerify
        #expect(outcome == (committed ? "alreadyFulfilled" : "granted"))

        let player = try Self.json(try await Self.ledger(["player", "p1", "--db", database, "--json"]).output)
        #expect(player["balances"] as? [String: Int] == ["gems": 500, "coins": 10_000])
        #expect(player["inventory"] as? [String: Int] == ["frost_tower": 1, "revive_token": 3])
        #expect((player["history"] as? [Any])?.count == 1)

        #expect(try await Self.ledger(["recover"] + base).status == 0)
        let doctor = try Self.json(try await Self.ledger(["doctor", "--db", database, "--json"]).output)
        #expect(doctor["healthy"] as? Bool == true)
        #expect((doctor["pendingFinishes"] as? [Any])?.isEmpty == true)
    }
}
