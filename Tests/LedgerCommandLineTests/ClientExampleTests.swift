import Foundation
import FulfillmentLedgerTesting
import Testing

/// The client examples a game team copies (Examples/python, Examples/node) drive every
/// operation of a live `ledger serve` behind a bearer token: eligibility, a purchase and its
/// replay, a spend and its replay, a refund into debt, the player, entitlement, history and
/// subscription reads, a refused body read back as the one error body, and Reset Game.
@Suite(.serialized) struct ClientExampleTests {
    /// The package's root folder, found from this file's location.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `interpreter script BASE PLAYER` against a fresh served ledger; returns its output.
    static func walk(_ interpreter: String, _ script: String) async throws -> String {
        let scratch = try ScratchDirectory()
        let token = "client-example-\(UUID().uuidString)"
        let served = try ServeCommandTests.Served(
            db: scratch.path("ledger.sqlite"), environment: ["LEDGER_TOKEN": token],
            extra: ["--bearer-token-env", "LEDGER_TOKEN"])
        defer { _ = served.terminate() }
        let path = root.appendingPathComponent(script).path
        let base = "http://127.0.0.1:\(served.port)"
        return try await onOwnThread { () throws -> String in
            ProcessLaunchGuard.waitForFewDescriptors()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try ServeCommandTests.toolPath(interpreter))
            process.arguments = [path, base, "player-\(interpreter)"]
            process.environment = ["LEDGER_TOKEN": token, "PATH": "/usr/bin:/bin"]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(script): \(text)\(problems)")
            return text
        }
    }

    /// The steps each example must have taken.
    static let steps = [
        "eligibility", "purchase", "replay", "spend", "replayed spend", "refund", "player", "history", "subscriptions",
        "entitlements", "refused input", "restore", "reset",
    ]

    @Test func thePythonClientDrivesEveryOperation() async throws {
        let output = try await Self.walk("python3", "Examples/python/ledger_client.py")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(summary["ok"] as? Bool == true && summary["steps"] as? [String] == Self.steps)
    }

    @Test func theNodeClientDrivesEveryOperation() async throws {
        let output = try await Self.walk("node", "Examples/node/ledger_client.mjs")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(summary["ok"] as? Bool == true && summary["steps"] as? [String] == Self.steps)
    }
}
