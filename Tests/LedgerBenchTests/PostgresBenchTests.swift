import Foundation
import FulfillmentLedger
import PostgresLedgerStore
import PostgresLedgerStoreTesting
import Testing

@testable import LedgerBench

/// The PostgreSQL part of `ledger-bench`: the recorded baseline replays exactly what the ledger
/// does, and every figure is reported.
struct PostgresBenchTests {
    @Test("a recorded parameter is cut at the pilot's IDs, and joined back with new ones")
    func templates() throws {
        let pieces = RawPostgresLedgerWork.pieces(
            "a pilot-tx b pilot-player pilot-tx", [("pilot-tx", .transactionID), ("pilot-player", .playerID)])
        let rendered = pieces.map { piece -> String in
            switch piece {
            case .literal(let text): text
            case .transactionID: "<T>"
            case .playerID: "<P>"
            }
        }
        #expect(rendered == ["a ", "<T>", " b ", "<P>", " ", "<T>"])
        let work = RawPostgresLedgerWork(
            statements: [
                PostgresStatementTap.Statement(
                    isPrepared: true, sql: "SELECT $1, $2, $3",
                    parameters: [.text(RawPostgresLedgerWork.pilotTransactionID), .text("kept"), .integer(7)]),
                PostgresStatementTap.Statement(isPrepared: false, sql: "COMMIT", parameters: []),
            ], pilotPlayerID: "player-0")
        let swapped = work.statements(transactionID: "new-1", playerID: "player-9")
        let expected: [PostgresValue] = [.text("new-1"), .text("kept"), .integer(7)]
        #expect(swapped[0].parameters == expected)
        #expect(swapped[1] == work.statements[1])
        #expect(RawPostgresLedgerWork.transactions(swapped).map(\.count) == [2])
    }

    @Test("--postgres-only needs --postgres; the child's options come together")
    func options() async {
        #expect(await bench(["--postgres-only"]).code == 64)
        #expect(await bench(["--postgres", "postgresql://x/y", "--postgres-child-schema", "s"]).code == 64)
        #expect(await bench(["--postgres-child-schema", "s", "--postgres-child-prefix", "p"]).code == 64)
    }
}

@Suite(.enabled(if: PostgresScratchSchema.shouldRun, "no PostgreSQL test server (set LEDGER_TEST_POSTGRES_URL)"))
struct PostgresBenchServerTests {
    @Test("the replay of one recorded fulfillment leaves exactly the rows the ledger leaves")
    func replayMatchesTheLedger() async throws {
        let count = 12
        let url = try #require(PostgresScratchSchema.serverURL)
        let (rawSchema, rawStore, rawLedger) = try await BenchPostgres.warmSchema(serverURL: url)
        defer { try? rawSchema.drop() }
        let work = try await RawPostgresLedgerWork.record(store: rawStore, ledger: rawLedger, pilotPlayerID: "player-0")
        await rawStore.close()
        // The read, the grant and the finish mark, each its own transaction.
        #expect(RawPostgresLedgerWork.transactions(work.statements).count == 3)
        let replayed = try await work.run(
            connectionString: rawSchema.connectionString, prefix: "seq", count: count, connectionCount: 3)
        #expect(replayed.rate > 0)

        let (ledgerSchema, ledgerStore, ledger) = try await BenchPostgres.warmSchema(serverURL: url)
        defer { try? ledgerSchema.drop() }
        _ = try await BenchWorkloads.fulfillments(
            ledger: ledger, submissions: [RawPostgresLedgerWork.pilotSubmission(playerID: "player-0")], expecting: "granted")
        _ = try await BenchWorkloads.fulfillments(
            ledger: ledger, submissions: BenchWorkloads.submissions(prefix: "seq", count: count), expecting: "granted")
        await ledgerStore.close()

        let transactionCount = BenchWorkloads.playerCountMax + 1 + count
        try RawPostgresLedgerWork.check(connectionString: rawSchema.connectionString, transactionCount: transactionCount)
        try RawPostgresLedgerWork.check(connectionString: ledgerSchema.connectionString, transactionCount: transactionCount)
        // Row by row, apart from the times: the same purchases, balances and events.
        let snapshot = { (schema: PostgresScratchSchema) throws -> [String] in
            let connection = try PostgresConnection(connectionString: PostgresConnectionString(schema.connectionString))
            defer { connection.close() }
            let queries = [
                "SELECT store || ' ' || transaction_id || ' ' || player_id || ' ' || quantity || ' ' || grants FROM ledger_transactions",
                "SELECT player_id || ' ' || currency_id || ' ' || amount FROM balances",
                "SELECT kind || ' ' || player_id || ' ' || transaction_id || ' ' || detail FROM events",
            ]
            return try queries.flatMap { sql in try connection.query(sql).rows.map { try $0.text(0) } }.sorted()
        }
        #expect(try snapshot(rawSchema) == snapshot(ledgerSchema))
    }

    @Test("--postgres-only reports every PostgreSQL rate and both targets")
    func reportsEveryFigure() async throws {
        let url = try #require(PostgresScratchSchema.serverURL)
        let run = await bench(["--postgres", url, "--postgres-only", "--count", "6", "--repeats", "1", "--json"])
        #expect(run.code == 0, "\(run.error)")
        let report = try run.json()
        let rates = try #require(report["rates"] as? [String: Double])
        for (key, _) in BenchPostgresFigures.rateLabels {
            #expect((rates[key] ?? 0) > 0, "\(key) missing")
        }
        let ratios = try #require(report["ratios"] as? [String: Any])
        #expect(Set(ratios.keys) == Set(BenchPostgresFigures.ratioTargets.map(\.key)))
        // The grant's and the finish mark's statements, the read of a withdrawal of consent included.
        #expect(report["statementsPerFulfillment"] as? Int == 18)
        if let password = URLComponents(string: url)?.password, !password.isEmpty {
            #expect(!run.output.contains(password) && !run.error.contains(password))
        }
    }
}
