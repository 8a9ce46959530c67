import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTPServer
import PlayStoreSimulator
import Testing

/// The whole game server of Docs/Integration.md ("A whole game server") is the program
/// `whole-server-example` (Examples/swift/whole-server/main.swift), line for line; started as
/// written, it serves an App Store purchase signed by the simulator exactly once, pushes the
/// change, and stops on SIGTERM.
@Suite struct WholeServerExampleTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sourcePath = "Examples/swift/whole-server/main.swift"
    /// Tenths of a second the server has to answer /healthz after it starts.
    static let startWaitTenthsMax = 300

    @Test func theDocumentedServerIsTheCompiledOne() throws {
        let source = try String(contentsOf: Self.packageRoot.appendingPathComponent(Self.sourcePath), encoding: .utf8)
        let compiled = try #require(DocumentedExample.lines(of: source, from: "// BEGIN Docs/Integration.md whole-server", to: "// END Docs/Integration.md whole-server"))
        let docs = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("Docs/Integration.md"), encoding: .utf8)
        let documented = try #require(DocumentedExample.lines(of: docs, from: "<!-- whole-server -->", to: "```", skipping: 2))
        #expect(documented == compiled)
        #expect(compiled.count > 20 && compiled.count <= 35)
    }

    /// The example's executable, built next to the test bundle.
    static var executable: URL? { BuiltExecutable.find("whole-server-example") }

    @Test func theDocumentedServerStartsServesAPurchaseOnceAndStops() async throws {
        let executable = try #require(Self.executable, "build the whole-server-example executable first (swift build)")
        let curl = try #require(ProcessRunner.find("curl"), "curl is needed")
        let scratch = try ScratchDirectory()
        // What the program reads from its folder: the catalog, a Play service-account key and
        // the App Store root (the simulator's, standing in for Apple's).
        let store = try AppStoreSimulator(bundleID: "com.example.game", environment: .production, appAppleID: 1_234_567_890)
        try Data(store.rootCertificateDER).write(to: URL(fileURLWithPath: scratch.path("AppleRootCA-G3.cer")))
        try FileManager.default.copyItem(
            atPath: Self.packageRoot.appendingPathComponent("ProductCatalog.json").path, toPath: scratch.path("ProductCatalog.json"))
        let key: [String: String] = [
            "type": "service_account", "project_id": "example-project", "private_key_id": "k1",
            "private_key": try RSATestKey().privateKeyPEM(), "client_email": "ledger@example-project.iam.gserviceaccount.com",
            "token_uri": "https://oauth2.googleapis.com/token",
        ]
        try JSONSerialization.data(withJSONObject: key).write(to: URL(fileURLWithPath: scratch.path("play-key.json")))

        let port = try ListeningSocket.freeLoopbackPort()
        let server = try WholeServerProcess(executable: executable, folder: scratch.path(""), port: port, token: "s3cret")
        defer { server.kill() }
        let base = "http://127.0.0.1:\(port)"
        var ready = false
        for _ in 0..<Self.startWaitTenthsMax where !ready {
            let health = try await ProcessRunner.run(curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/healthz"])
            ready = health.output == "200"
            if !ready {
                #expect(server.isRunning, "the example ended at start: \(server.errorOutput())")
                if !server.isRunning { return }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        try #require(ready, "the example never answered /healthz: \(server.errorOutput())")

        let bought = try store.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("player-1"))
        let body = String(
            decoding: try JSONSerialization.data(withJSONObject: [
                "store": "appStore", "playerID": "player-1", "signedTransaction": bought.jws,
            ]), as: UTF8.self)
        let post = ["-s", "-H", "Authorization: Bearer s3cret", "-H", "Content-Type: application/json", "--data-binary", body]
        let granted = try await ProcessRunner.run(curl, post + ["\(base)/purchases"])
        #expect(granted.output.contains(#""outcome":"granted""#), "\(granted.output)")
        let again = try await ProcessRunner.run(curl, post + ["\(base)/purchases"])
        #expect(again.output.contains(#""outcome":"alreadyFulfilled""#), "\(again.output)")
        let unauthorized = try await ProcessRunner.run(curl, ["-s", "\(base)/players/player-1"])
        #expect(unauthorized.output.contains(#""name":"http.unauthorized""#), "\(unauthorized.output)")
        let player = try await ProcessRunner.run(curl, ["-s", "-H", "Authorization: Bearer s3cret", "\(base)/players/player-1"])
        #expect(player.output.contains(#""balances":{"gems":100}"#), "\(player.output)")

        // The change feed polls every 500 ms once caught up: the grant is pushed within a few polls.
        // The cursor is saved just after the push; a stop in between would (rightly) push it again
        // on the next start, so the test waits for both before it stops the server.
        let cursorPath = scratch.path("feed-cursor")
        for _ in 0..<Self.startWaitTenthsMax
        where !server.output().contains("purchaseGranted player-1") || !FileManager.default.fileExists(atPath: cursorPath) {
            try await Task.sleep(for: .milliseconds(100))
        }
        let stopped = try await server.terminate()
        #expect(stopped.status == 0, "\(stopped.errorOutput)")
        // The change feed pushed the grant to the game's clients and kept its cursor.
        #expect(stopped.output.contains("purchaseGranted player-1"), "\(stopped.output)")
        let cursor = try String(contentsOfFile: cursorPath, encoding: .utf8)
        #expect((Int64(cursor) ?? 0) >= 1)
    }
}
