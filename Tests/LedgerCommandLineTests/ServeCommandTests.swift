import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedgerTesting
import FulfillmentLedger
import PostgresLedgerStoreTesting
import Testing

/// `ledger serve` as a real process, driven by `curl` and Python's `http.client`: purchases,
/// a duplicate, an oversized body, the bearer token, metrics, and a clean stop on SIGTERM.
@Suite(.serialized) struct ServeCommandTests {
    /// A running `ledger serve` and the port it bound.
    final class Served: Sendable {
        let process = Process()
        let port: Int
        private let output = Pipe()
        private let errors = Pipe()

        init(
            db: String, environment: [String: String] = [:], extra: [String] = [],
            catalog: String = CrashAtFaultPointTests.catalogPath
        ) throws {
            let executable = try #require(CrashAtFaultPointTests.executable, "build the ledger executable first (swift build)")
            process.executableURL = executable
            process.arguments = ["serve", "--db", db, "--catalog", catalog, "--port", "0", "--create"] + extra
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            process.standardOutput = output
            process.standardError = errors
            ProcessLaunchGuard.waitForFewDescriptors()
            try process.run()
            // The first line is {"listening": "HOST:PORT"}.
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                try #require(
                    !chunk.isEmpty,
                    "ledger serve exited before listening: \(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))"
                )
                line.append(chunk)
            }
            let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
            port = try #require((object["listening"] as? String)?.split(separator: ":").last.flatMap { Int($0) })
        }

        /// Sends SIGTERM and waits for the exit; returns the status and standard error.
        func terminate() -> (status: Int32, error: String) {
            process.terminate()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }

    /// Where a tool is installed; a missing tool fails the test.
    static func toolPath(_ name: String) throws -> String {
        try #require(
            ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
                ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map { "\($0)/\(name)" }
                .first { FileManager.default.isExecutableFile(atPath: $0) },
            "\(name) is required for this test: install it")
    }

    /// Runs a tool and returns its standard output; a missing tool fails the test.
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let path = try toolPath(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        ProcessLaunchGuard.waitForFewDescriptors()
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    static let purchase = #"{"store":"test","transactionID":"t1","productID":"test.gems_small","playerID":"p1"}"#

    @Test func curlPurchasesOnceAndTheServerStopsCleanlyOnSIGTERM() async throws {
        try await onOwnThread { try Self.curlPurchases() }
    }

    static func curlPurchases() throws {
        let scratch = try ScratchDirectory()
        let served = try Served(db: scratch.path("ledger.sqlite"))
        let base = "http://127.0.0.1:\(served.port)"
        let curl = ["-s", "-o", "/dev/null", "-w", "%{http_code}"]
        let post = curl + ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", Self.purchase]
        #expect(try Self.tool("curl", post + ["\(base)/purchases"]) == "200")
        let again = try Self.tool("curl", ["-s", "-X", "POST", "--data-binary", Self.purchase, "\(base)/purchases"])
        #expect(again.contains(#""outcome":"alreadyFulfilled""#), "\(again)")
        let player = try Self.tool("curl", ["-s", "\(base)/players/p1"])
        #expect(player.contains(#""balances":{"gems":100}"#), "\(player)")
        let largeBody = scratch.path("large.json")
        try Data(count: 2_000_000).write(to: URL(fileURLWithPath: largeBody))
        let large = try Self.tool("curl", curl + ["-X", "POST", "--data-binary", "@\(largeBody)", "\(base)/purchases"])
        #expect(large == "413")
        // Over the handler's 256 KiB but under the server's default 1 MiB: the server refuses it
        // itself, before reading the body, because serve gives it the handler's limit.
        try Data(count: 300_000).write(to: URL(fileURLWithPath: largeBody))
        let refused = try Self.tool("curl", ["-s", "-X", "POST", "--data-binary", "@\(largeBody)", "\(base)/purchases"])
        #expect(refused.contains(#""name":"http.bodyTooLarge""#) && refused.contains("262144"), "\(refused)")
        let metrics = try Self.tool("curl", ["-s", "\(base)/metrics"])
        #expect(metrics.contains(#"ledger_observations_total{code="fulfillment.granted"} 1"#), "\(metrics)")
        // The server's own counters follow the ledger's: the two 413s it answered itself, and
        // the connection this request came on, open while it is answered.
        #expect(metrics.contains(#"ledger_http_requests_rejected_total{status="413"} 2"#), "\(metrics)")
        #expect(metrics.contains("ledger_http_connections_open 1\n"), "\(metrics)")
        #expect(metrics.contains("ledger_http_connections_refused_total 0\n"), "\(metrics)")
        let stopped = served.terminate()
        #expect(stopped.status == 0 && stopped.error.contains("ledger serve: stopped"), "\(stopped)")
    }

    @Test func pythonClientsNeedTheBearerTokenOnGameRoutesOnly() async throws {
        try await onOwnThread { try Self.pythonClients() }
    }

    static func pythonClients() throws {
        let scratch = try ScratchDirectory()
        let served = try Served(
            db: scratch.path("ledger.sqlite"), environment: ["SERVE_TOKEN": "s3cret"],
            extra: ["--bearer-token-env", "SERVE_TOKEN"])
        let script = """
            import http.client, json, sys
            c = http.client.HTTPConnection("127.0.0.1", \(served.port), timeout=60)
            body = sys.argv[1]
            c.request("POST", "/purchases", body=body); r = c.getresponse(); r.read(); print(r.status)
            c.request("POST", "/purchases", body=body, headers={"Authorization": "Bearer s3cret"})
            r = c.getresponse(); print(r.status, json.loads(r.read())["outcome"])
            c.request("GET", "/healthz"); r = c.getresponse(); r.read(); print(r.status)
            """
        let output = try Self.tool("python3", ["-c", script, Self.purchase])
        #expect(output.split(separator: "\n") == ["401", "200 granted", "200"], "\(output)")
        #expect(served.terminate().status == 0)
    }

    /// With `--root`, serve verifies App Store purchases and notifications with that root: a
    /// signed purchase is granted once, and a refund notification applies once.
    @Test func appStorePurchasesAndNotificationsUseTheGivenRoot() async throws {
        try await onOwnThread { try Self.appStoreThroughServe() }
    }

    static func appStoreThroughServe() throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
        let purchase = try simulator.purchase(
            productID: "com.kibblestreet.td.remove_ads", appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .nonConsumable)
        let served = try Served(
            db: scratch.path("ledger.sqlite"),
            extra: [
                "--root", root, "--bundle-id", AppStoreCommandTests.bundleID, "--app-store-environment", "Sandbox",
                "--store-account-binding", "appStore=app-account-token",
            ])
        let base = "http://127.0.0.1:\(served.port)"
        let body = try JSONSerialization.data(withJSONObject: [
            "store": "appStore", "playerID": "p1", "signedTransaction": purchase.jws,
        ])
        let bodyFile = try scratch.write(String(decoding: body, as: UTF8.self), to: "purchase.json")
        let post = ["-s", "-X", "POST", "--data-binary", "@\(bodyFile)", "\(base)/purchases"]
        let granted = try Self.tool("curl", post)
        #expect(granted.contains(#""outcome":"granted""#), "\(granted)")
        #expect(try Self.tool("curl", post).contains(#""outcome":"alreadyFulfilled""#))
        _ = try simulator.revoke(transactionID: purchase.transactionID)
        let signed = try simulator.notification(type: .refund, transactionID: purchase.transactionID)
        let notification = try scratch.write(#"{"signedPayload":"\#(signed)"}"#, to: "refund.json")
        let refund = ["-s", "-X", "POST", "--data-binary", "@\(notification)", "\(base)/appstore/notifications"]
        #expect(try Self.tool("curl", refund).contains(#""outcome":"revocation""#))
        #expect(try Self.tool("curl", refund).contains(#""outcome":"alreadyProcessed""#))
        #expect(served.terminate().status == 0)
    }

    /// Without --create, a ledger that is not there is refused at start and nothing is created:
    /// an empty ledger would grant every old purchase again.
    @Test func aMissingLedgerIsRefusedAndNothingIsCreated() async throws {
        let scratch = try ScratchDirectory()
        let typo = scratch.path("typo.sqlite")
        let missing = await ledger(["serve", "--db", typo, "--catalog", CrashAtFaultPointTests.catalogPath, "--port", "0"])
        #expect(missing.code == 66, "\(missing.error)")
        #expect(missing.error.contains("ledger init") || missing.error.contains("--create"), "\(missing.error)")
        #expect(!FileManager.default.fileExists(atPath: typo), "serve created the mistyped ledger")
        // Another application's SQLite file is not a ledger either.
        let foreign = scratch.path("other.sqlite")
        #expect(try Self.tool("python3", ["-c", "import sqlite3; c = sqlite3.connect('\(foreign)'); c.execute('CREATE TABLE scores (id INTEGER)'); c.commit()"]).isEmpty)
        let other = await ledger(["serve", "--db", foreign, "--catalog", CrashAtFaultPointTests.catalogPath, "--port", "0"])
        #expect(other.code == 65 || other.code == 66, "\(other.code) \(other.error)")
    }

    /// The same on PostgreSQL: an empty database, and one that holds another application's table.
    @Test(.enabled(if: PostgresScratchSchema.shouldRun, "no PostgreSQL test server"))
    func anEmptyOrForeignPostgresDatabaseIsRefusedAndNothingIsCreated() async throws {
        for foreignTable in [nil, "scores"] {
            let schema = try PostgresScratchSchema.create(prefix: "serve_refused")
            defer { try? schema.drop() }
            if let foreignTable { try schema.execute("CREATE TABLE \(foreignTable) (id integer)") }
            let run = await ledger(
                ["serve", "--db", schema.connectionString, "--catalog", CrashAtFaultPointTests.catalogPath, "--port", "0"])
            #expect(run.code == 66 || run.code == 65, "\(run.code) \(run.error)")
            let kept = foreignTable.map { "'\($0)'" } ?? "''"
            // Raises if any table but the foreign one exists in the schema.
            try schema.execute(
                """
                DO $$ BEGIN IF EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = '\(schema.name)'
                AND table_name NOT IN (\(kept))) THEN RAISE EXCEPTION 'serve created tables'; END IF; END $$
                """)
        }
    }

    @Test func usageMistakesExit64() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let common = ["serve", "--db", db, "--catalog", CrashAtFaultPointTests.catalogPath]
        #expect(await ledger(common + ["--port", "70000"]).code == 64)
        #expect(await ledger(common + ["--recover-interval-seconds", "-1"]).code == 64)
        #expect(await ledger(common + ["--connection-count-max", "0"]).code == 64)
        #expect(await ledger(common + ["--connection-count-max", "5000"]).code == 64)
        #expect(await ledger(common + ["--bearer-token-env", "NO_SUCH_VARIABLE_SET"]).code == 64)
        #expect(await ledger(common + ["--account-binding", "guess"]).code == 64)
        for binding in ["appStore", "moon=identity", "appStore=guess"] {
            #expect(await ledger(common + ["--store-account-binding", binding]).code == 64, "\(binding)")
        }
        let twice = ["--store-account-binding", "playStore=identity", "--store-account-binding", "playStore=identity"]
        #expect(await ledger(common + twice).code == 64)
        let push = common + ["--audience", "https://example.com/push", "--push-service-account", "push@example.com"]
        let noPlayAPI = await ledger(push)
        #expect(noPlayAPI.code == 64 && noPlayAPI.error.contains("--audience needs the Play API options"), "\(noPlayAPI)")
        // Off loopback, a bearer token is required.
        for host in ["0.0.0.0", "192.0.2.10", "::"] {
            let open = await ledger(common + ["--host", host, "--create"])
            #expect(open.code == 64 && open.error.contains("--bearer-token-env"), "\(host): \(open)")
        }
        #expect(!FileManager.default.fileExists(atPath: db), "a usage mistake created nothing")
    }

    @Test func theConsoleNeedsAnOperatorTokenOfItsOwn() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let common = ["serve", "--db", db, "--catalog", CrashAtFaultPointTests.catalogPath]
        let tokens = ["OPERATOR": "operator-token-0123456789", "SHORT": "short", "GAME": "operator-token-0123456789"]
        let mistakes: [([String], String)] = [
            (["--console"], "--console needs --console-token-env"),
            (["--console", "--console-token-env", "UNSET_VARIABLE"], "unset or shorter than 16 bytes"),
            (["--console", "--console-token-env", "SHORT"], "unset or shorter than 16 bytes"),
            (["--console-token-env", "OPERATOR"], "--console-token-env needs --console"),
            (["--console", "--console-token-env", "OPERATOR", "--bearer-token-env", "GAME"], "must differ from the game's bearer token"),
            (["--no-recover", "--recover-interval-seconds", "5"], "contradict"),
        ]
        for (extra, message) in mistakes {
            let run = await ledger(common + extra, environment: tokens)
            #expect(run.code == 64 && run.error.contains(message), "\(extra): \(run)")
        }
        #expect(!FileManager.default.fileExists(atPath: db), "a usage mistake created nothing")
    }

    @Test func theConsoleIsServedBesideTheGameRoutes() async throws {
        try await onOwnThread { try Self.consoleBesideGameRoutes() }
    }

    static func consoleBesideGameRoutes() throws {
        let scratch = try ScratchDirectory()
        let served = try Served(
            db: scratch.path("ledger.sqlite"), environment: ["OPERATOR": "operator-token-0123456789", "GAME": "game-token"],
            extra: ["--console", "--console-token-env", "OPERATOR", "--bearer-token-env", "GAME", "--no-recover"])
        let base = "http://127.0.0.1:\(served.port)"
        let status = ["-s", "-o", "/dev/null", "-w", "%{http_code}"]
        #expect(try Self.tool("curl", status + ["\(base)/console"]) == "303")
        #expect(try Self.tool("curl", status + ["\(base)/console/console.css"]) == "200")
        // The game's token opens no console session, and the operator's opens no game route.
        let form = ["-X", "POST", "-H", "Content-Type: application/x-www-form-urlencoded"]
        #expect(try Self.tool("curl", status + form + ["--data", "token=game-token", "\(base)/console/login"]) == "401")
        #expect(try Self.tool("curl", status + form + ["--data", "token=operator-token-0123456789", "\(base)/console/login"]) == "303")
        let bearer = ["-H", "Authorization: Bearer operator-token-0123456789"]
        #expect(try Self.tool("curl", status + bearer + ["\(base)/players/p1"]) == "401")
        #expect(try Self.tool("curl", status + ["\(base)/healthz"]) == "200")
        let stopped = served.terminate()
        #expect(stopped.status == 0, "\(stopped)")
        #expect(!stopped.error.contains("recovery"), "--no-recover runs no recovery: \(stopped.error)")
    }
}
