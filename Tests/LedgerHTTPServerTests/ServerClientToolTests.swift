import Foundation
import LedgerHTTPServer
import Testing

/// The server driven by real clients: curl and Python's `http.client`. Both must be installed:
/// a missing one fails the test with a message saying so.
@Suite("HTTP server with real clients", .onTestServerExecutor)
struct ServerClientToolTests {
    /// The path of `tool`, or nil after recording an issue that says to install it.
    static func require(_ tool: String) -> String? {
        guard let path = ProcessRunner.find(tool) else {
            Issue.record("\(tool) is not installed (not found on PATH); install it to run the HTTP server tests")
            return nil
        }
        return path
    }

    @Test func curlPostsJSONAndGetsItEchoed() async throws {
        guard let curl = Self.require("curl") else { return }
        try await TestServer.with { _, port in
            let outcome = try await ProcessRunner.run(
                curl,
                [
                    "--silent", "--show-error", "--max-time", "60", "--include", "--header", "Content-Type: application/json",
                    "--data-binary", #"{"sku":"gems_100","quantity":2}"#, "http://127.0.0.1:\(port)/echo",
                ])
            #expect(outcome.status == 0, "\(outcome.errorOutput)")
            #expect(outcome.output.hasPrefix("HTTP/1.1 200 OK"))
            #expect(outcome.output.lowercased().contains("content-type: application/json"))
            #expect(outcome.output.hasSuffix(#"{"sku":"gems_100","quantity":2}"#))
        }
    }

    @Test func curlIsRefusedA2MBBodyWith413() async throws {
        guard let curl = Self.require("curl") else { return }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-http-\(UUID().uuidString).bin")
        try Data(repeating: 0x61, count: 2 << 20).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestServer.with { server, port in
            let outcome = try await ProcessRunner.run(
                curl,
                [
                    "--silent", "--max-time", "60", "--output", "/dev/null", "--write-out", "%{http_code}", "--data-binary",
                    "@\(file.path)", "http://127.0.0.1:\(port)/echo",
                ])
            #expect(outcome.output == "413", "\(outcome.errorOutput)")
            #expect(server.statistics.requestsRejected == [413: 1])
            #expect(server.statistics.requestsHandled == 0)
        }
    }

    /// GET then POST on one kept-alive `http.client` connection, then a malformed request on a
    /// socket of its own.
    @Test func pythonHTTPClientKeepsAliveAndSeesA400() async throws {
        guard let python = Self.require("python3") else { return }
        let script = """
            import http.client, json, socket, sys
            port = int(sys.argv[1])
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            connection.request("GET", "/hello?x=1")
            first = connection.getresponse()
            first_body = first.read().decode()
            sock = connection.sock
            connection.request("POST", "/echo", body=b'{"a":1}', headers={"Content-Type": "application/json"})
            second = connection.getresponse()
            second_body = second.read().decode()
            same = connection.sock is sock
            raw = socket.create_connection(("127.0.0.1", port), timeout=60)
            raw.sendall(b"GET /\\x01 HTTP/1.1\\r\\n\\r\\n")
            answer = b""
            while True:
                data = raw.recv(65536)
                if not data:
                    break
                answer += data
            print(json.dumps({"first": [first.status, first_body], "second": [second.status, second_body],
                              "sameConnection": same, "malformed": answer.split(b"\\r\\n")[0].decode()}))
            """
        try await TestServer.with { server, port in
            let outcome = try await ProcessRunner.run(python, ["-c", script, "\(port)"])
            #expect(outcome.status == 0, "\(outcome.errorOutput)")
            let result = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
            #expect(result?["first"] as? [AnyHashable] == [200, "GET /hello?x=1"])
            #expect(result?["second"] as? [AnyHashable] == [200, #"{"a":1}"#])
            #expect(result?["sameConnection"] as? Bool == true)
            #expect(result?["malformed"] as? String == "HTTP/1.1 400 Bad Request")
            #expect(server.statistics.connectionsAccepted == 2)
        }
    }
}
