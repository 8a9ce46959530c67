import Foundation
import PostgresLedgerStoreTesting
import Testing

/// The operator commands on a PostgreSQL ledger: every `--db` takes a `postgresql://` URL, and
/// `LEDGER_DATABASE_URL` names it when `--db` is absent.
@Suite(.enabled(if: PostgresScratchSchema.shouldRun, "no PostgreSQL test server (set LEDGER_TEST_POSTGRES_URL)"))
struct PostgresCommandTests {
    /// Runs `body` with the URL of a fresh scratch schema, dropped afterwards.
    static func withDatabase(_ body: (String, PostgresScratchSchema) async throws -> Void) async throws {
        let schema = try PostgresScratchSchema.create(prefix: "ledger_cli")
        defer { try? schema.drop() }
        try await body(schema.connectionString, schema)
    }

    @Test("init, fulfill, doctor, recover, history, player, revoke, entitlements and reset run on a postgresql:// URL")
    func operatorCommands() async throws {
        try await Self.withDatabase { url, _ throws in
            let created = await ledger(["init", "--db", url])
            #expect(created.code == 0, "\(created.error)")
            #expect(try created.json()["created"] as? Bool == true)
            #expect(try await ledger(["init", "--db", url]).json()["created"] as? Bool == false)

            let purchase: [String: Any] = ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"]
            let bought = try await fulfill(purchase, db: url, extra: ["--fault", "insideFinish=error"])
            #expect(bought.code == 0, "\(bought.error)")
            #expect(try bought.json()["finished"] as? Bool == false)

            let doctor = await ledger(["doctor", "--db", url, "--json"])
            let report = try doctor.json()
            #expect(report["pendingFinishCount"] as? Int == 1)
            #expect(report["transactionCount"] as? Int == 1)
            #expect(report["schemaVersion"] as? Int == report["schemaVersionSupported"] as? Int)
            let server = try #require(report["server"] as? [String: Any])
            #expect(server["fsync"] is String && server["synchronousCommit"] is String)
            let problems = try #require(report["problems"] as? [String])
            #expect(doctor.code == (problems.isEmpty ? 0 : 1))
            #expect((report["location"] as? String)?.contains("dbname=") == true)
            if let password = URLComponents(string: url)?.password, !password.isEmpty {
                #expect(!doctor.output.contains(password) && !doctor.error.contains(password))
            }
            let text = await ledger(["doctor", "--db", url])
            #expect(text.outputLines.contains { $0.hasPrefix("fsync:") })
            #expect(text.outputLines.contains { $0.contains("test/t1 player p1") && $0.contains("1 failed attempt(s)") })

            let recovered = await ledger(["recover", "--db", url, "--catalog", repoCatalogPath])
            #expect(recovered.code == 0, "\(recovered.output) \(recovered.error)")
            #expect(try await ledger(["doctor", "--db", url, "--json"]).json()["pendingFinishCount"] as? Int == 0)

            let history = await ledger(["history", "--db", url, "--transaction", "test/t1", "--json"])
            #expect(history.code == 0)
            #expect((try history.json()["events"] as? [[String: Any]])?.isEmpty == false)
            let gems = try await balances("p1", db: url)["gems"]
            #expect(gems != nil && gems! > 0)

            let refund: [String: Any] = [
                "eventID": "n-1", "store": "test", "transactionID": "t1", "kind": "fullRefund",
                "eventDate": "2026-11-02T10:00:00Z",
            ]
            let refunded = try await RefundCommandTests.revoke(refund, db: url)
            #expect(refunded.code == 0, "\(refunded.error)")
            #expect(try refunded.json()["outcome"] as? String == "recorded")
            #expect(try await balances("p1", db: url)["gems"] == nil)
            _ = try await RefundCommandTests.entitlements("p1", db: url)
            #expect(await ledger(["reset", "p1", "--db", url]).code == 0)
        }
    }

    @Test("without --db, LEDGER_DATABASE_URL names the database; without either, a usage error")
    func environmentVariable() async throws {
        try await Self.withDatabase { url, _ throws in
            let environment = ["LEDGER_DATABASE_URL": url]
            let created = await ledger(["init"], environment: environment)
            #expect(created.code == 0, "\(created.error)")
            #expect(try created.json()["created"] as? Bool == true)
            let doctor = await ledger(["doctor", "--json"], environment: environment)
            #expect(try doctor.json()["transactionCount"] as? Int == 0)
            let missing = await ledger(["doctor"])
            #expect(missing.code == 64 && missing.error.contains("LEDGER_DATABASE_URL"))
        }
    }

    @Test("doctor, history and player on an empty database report it missing (66) and create nothing")
    func emptyDatabaseIsMissing() async throws {
        try await Self.withDatabase { url, schema throws in
            for arguments in [["doctor", "--db", url], ["history", "--db", url, "--player", "p1"], ["player", "p1", "--db", url]] {
                let run = await ledger(arguments)
                #expect(run.code == 66, "\(arguments[0]): \(run.output) \(run.error)")
                #expect(try run.json()["error"] as? [String: Any] != nil)
            }
            // The schema is still empty: creating a table named like the ledger's meta table works.
            try schema.execute("CREATE TABLE ledger_meta (name text)")
        }
    }

    @Test("an unreachable server is an infrastructure error (1) whose text never shows the password")
    func unreachableServerHidesPassword() async throws {
        let url = "postgresql://ledger:hunter2-secret@127.0.0.1:1/ledger?connect_timeout=2"
        for arguments in [["doctor", "--db", url], ["history", "--db", url, "--player", "p1"]] {
            let run = await ledger(arguments)
            #expect(run.code == 1, "\(run.output) \(run.error)")
            #expect(!run.output.contains("hunter2") && !run.error.contains("hunter2"))
        }
    }
}

extension PostgresCommandTests {
    @Test("simulate --db runs each seed on PostgreSQL with no violation and the same trace as on SQLite")
    func simulationMatchesSQLite() async throws {
        guard let server = PostgresScratchSchema.serverURL else {
            Issue.record("\(PostgresScratchSchema.requireVariable)=1 but \(PostgresScratchSchema.serverVariable) is unset")
            return
        }
        let arguments = ["simulate", "--seed", "11", "--runs", "3", "--steps", "60"]
        let onSQLite = await ledger(arguments)
        let onPostgres = await ledger(arguments + ["--db", server])
        #expect(onSQLite.code == 0 && onPostgres.code == 0, "\(onPostgres.output) \(onPostgres.error)")
        #expect(onPostgres.output.contains("violations 0"))
        let trace = { (run: LedgerRun) in run.outputLines.first { $0.hasPrefix("trace ") } }
        #expect(trace(onPostgres) != nil && trace(onPostgres) == trace(onSQLite))
        let wrong = await ledger(arguments + ["--db", "ledger.sqlite"])
        #expect(wrong.code == 64 && wrong.error.contains("--db takes a postgresql:// URL"))
    }
}
