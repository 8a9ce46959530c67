import FulfillmentLedger
import Testing

@testable import PostgresLedgerStore

extension PostgresServerTests {
    /// Statements, values, the statement cache and errors on a real server.
    @Suite struct ConnectionTests {
        @Test func valuesRoundTripIncludingNullBigIntegersAndNonASCIIText() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let text = "Grüße, 世界 🎮 ‘quoted’"
                let read = try await pool.withConnection { (connection) throws(PostgresError) in
                    _ = try connection.execute("CREATE TABLE sample (id bigint PRIMARY KEY, label text, flag boolean)")
                    let inserted = try connection.query(
                        "INSERT INTO sample (id, label, flag) VALUES ($1, $2, $3), ($4, $5, $6)",
                        [.integer(.max), .text(text), .bool(true), .integer(.min), .null, .bool(false)])
                    let rows = try connection.query("SELECT id, label, flag FROM sample ORDER BY id").rows
                    return (
                        inserted.affectedRowCount,
                        try rows.map { row throws(PostgresError) in
                            (try row.int64(0), try row.optionalText(1), try row.bool(2))
                        })
                }
                #expect(read.0 == 2)
                #expect(read.1.count == 2)
                #expect(read.1[0] == (Int64.min, nil, false))
                #expect(read.1[1] == (Int64.max, text, true))
                await pool.close()
            }
        }

        @Test func simpleQueriesReadTypedColumns() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let result = try await pool.withConnection { (connection) throws(PostgresError) in
                    try connection.execute("SELECT NULL::bigint AS missing, (-9223372036854775808)::bigint AS low, 'é'::text AS accent")
                }
                #expect(result.columnNames == ["missing", "low", "accent"])
                #expect(result.commandTag == "SELECT 1")
                let row = try #require(result.rows.first)
                #expect(try row.optionalInt64(0) == nil)
                #expect(try row.int64(1) == .min)
                #expect(try row.text(2) == "é")
                #expect(throws: PostgresError.self) { try row.int64(0) }
                #expect(throws: PostgresError.self) { try row.int64(2) }
                #expect(throws: PostgresError.self) { try row.text(3) }
                await pool.close()
            }
        }

        @Test func preparedStatementsArePreparedOncePerConnectionPerSQL() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let counts = try await pool.withConnection { (connection) throws(PostgresError) in
                    let before = connection.statementPrepareCount
                    var sums: [Int64] = []
                    for number in Int64(1)...5 {
                        sums.append(try connection.queryOne("SELECT $1::bigint + 1", [.integer(number)])?.int64(0) ?? 0)
                    }
                    let afterOne = connection.statementPrepareCount
                    _ = try connection.query("SELECT $1::text || '!'", [.text("hi")])
                    return (sums, afterOne - before, connection.statementPrepareCount - before)
                }
                #expect(counts.0 == [2, 3, 4, 5, 6])
                #expect(counts.1 == 1)
                #expect(counts.2 == 2)
                // The same connection comes back: the statements stay prepared.
                let again = try await pool.withConnection { (connection) throws(PostgresError) in
                    let before = connection.statementPrepareCount
                    _ = try connection.query("SELECT $1::bigint + 1", [.integer(9)])
                    return connection.statementPrepareCount - before
                }
                #expect(again == 0)
                // Another connection prepares its own.
                let side = try await pool.withConnection { (_) throws(PostgresError) in
                    let side = try schema.openSideConnection()
                    defer { side.close() }
                    _ = try side.query("SELECT $1::bigint + 1", [.integer(9)])
                    _ = try side.query("SELECT $1::bigint + 1", [.integer(10)])
                    return side.statementPrepareCount
                }
                #expect(side == 1)
                await pool.close()
            }
        }

        @Test func statementCacheStaysWithinItsLimit() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let outcome = try await pool.withConnection { (_) throws(PostgresError) in
                    let connection = try PostgresConnection(connectionString: schema.connectionString, statementCacheCountMax: 3)
                    defer { connection.close() }
                    var values: [Int64] = []
                    for offset in Int64(0)..<4 {
                        values.append(try connection.queryOne("SELECT \(offset)::bigint + $1", [.integer(10)])?.int64(0) ?? -1)
                    }
                    let cached = connection.cachedStatementCount
                    // The first statement was evicted, so it is prepared again.
                    values.append(try connection.queryOne("SELECT 0::bigint + $1", [.integer(10)])?.int64(0) ?? -1)
                    return (values, cached, connection.statementPrepareCount)
                }
                #expect(outcome.0 == [10, 11, 12, 13, 10])
                #expect(outcome.1 <= 3)
                #expect(outcome.2 == 5)
                await pool.close()
            }
        }

        @Test func uniqueViolationIsTypedAndLeavesTheConnectionUsable() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                try await schema.execute("CREATE TABLE grants (id text PRIMARY KEY); INSERT INTO grants VALUES ('t-1')", on: pool)
                let failure = await pool.outcome { (connection) throws(PostgresError) in
                    _ = try connection.query("INSERT INTO grants (id) VALUES ($1)", [.text("t-1")])
                }
                guard let error = expectFailure(failure, "the duplicate row was inserted") else { return }
                #expect(error.isUniqueViolation)
                #expect(error.sqlState == "23505")
                #expect(error.kind == .server)
                #expect(!error.isRetryable)
                #expect(!error.isConnectionFailure)
                #expect(error.sql == "INSERT INTO grants (id) VALUES ($1)")
                #expect(error.ledgerError.description.contains("SQLSTATE 23505"))
                let count = try await schema.rowCount("grants", on: pool)
                #expect(count == 1)
                #expect(pool.statistics.connectionDiscardCount == 0)
                await pool.close()
            }
        }

        @Test func rowCountLimitRefusesLargerResults() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let (refused, fitting) = try await pool.withConnection { (connection) throws(PostgresError) in
                    let sql = "SELECT generate_series(1, $1::int)"
                    let refused = Result { () throws(PostgresError) in try connection.query(sql, [.integer(5)], rowCountMax: 4) }
                    return (refused, try connection.query(sql, [.integer(5)], rowCountMax: 5).rows.count)
                }
                guard let error = expectFailure(refused, "5 rows were returned under a limit of 4") else { return }
                #expect(error.kind == .rowCountExceeded)
                #expect(fitting == 5)
                await pool.close()
            }
        }

        @Test func nulInTextIsRefusedBeforeSending() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let refused = await pool.outcome { (connection) throws(PostgresError) in
                    _ = try connection.query("SELECT $1::text", [.text("a\u{0}b")])
                }
                guard let error = expectFailure(refused, "a NUL byte was sent") else { return }
                #expect(error.kind == .invalidParameter)
                #expect(!error.statementSent)
                #expect(error.ledgerError.code == LedgerError.invalidArgument("").code)
                await pool.close()
            }
        }

        @Test func serverSettingsForTheDoctor() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let settings = try await pool.serverSettings()
                let (versionNumber, shown) = try await pool.withConnection { (connection) throws(PostgresError) in
                    (connection.serverVersionNumber, try connection.queryOne("SHOW fsync")?.text(0))
                }
                // PQserverVersion 150018 is 15.18: the text setting must name the same major version.
                #expect(settings.serverVersion.hasPrefix("\(versionNumber / 10_000)."))
                #expect(settings.fsync == shown)
                #expect(["on", "off", "local", "remote_write", "remote_apply"].contains(settings.synchronousCommit))
                #expect(["read committed", "repeatable read", "serializable", "read uncommitted"].contains(settings.transactionIsolation))
                await pool.close()
            }
        }

        @Test func passwordNeverAppearsInErrorMessages() async throws {
            let base = try PostgresTestServer.baseURL()
            let password = try #require(PostgresConnectionString(base).secrets.first, "the test server's URL has no password")
            let wrongPassword = "wrong-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let wrong = base.replacing(":\(password)@", with: ":\(wrongPassword)@")
            let missingDatabase = PostgresTestSchema.url(base, searchPath: "public")
                .replacing("/ledger_test?", with: "/no_such_database_\(UInt32.random(in: 0...UInt32.max))?")
            for (url, expected) in [(wrong, "password authentication failed"), (missingDatabase, "does not exist")] {
                #expect(url != base)
                let pool = try PostgresConnectionPool(
                    configuration: PostgresPoolConfiguration(connectionString: PostgresConnectionString(url)))
                let outcome = await pool.outcome { (connection) throws(PostgresError) in connection.backendProcessID }
                guard let error = expectFailure(outcome, "connected with \(PostgresConnectionString(url))") else { continue }
                #expect(error.kind == .connectRejected, "a wrong password or a missing database is refused, not retried")
                #expect(error.message.contains(expected), "\(error)")
                for text in [error.description, error.message, error.ledgerError.description, "\(PostgresConnectionString(url))"] {
                    #expect(!text.contains(password))
                    #expect(!text.contains(wrongPassword))
                }
                await pool.close()
            }
        }
    }
}
