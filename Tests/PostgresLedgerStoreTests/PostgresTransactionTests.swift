import Testing

@testable import PostgresLedgerStore

extension PostgresServerTests {
    /// The transaction helper: commit, rollback, retries, synchronous_commit, the advisory lock.
    @Suite struct TransactionTests {
        @Test func thrownErrorRollsBackAndCommitKeeps() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                try await schema.execute("CREATE TABLE balance (player text PRIMARY KEY, gems bigint NOT NULL)", on: pool)
                let insert = "INSERT INTO balance (player, gems) VALUES ($1, $2)"
                try await pool.transaction(isolation: .readCommitted) { (connection) throws(PostgresError) in
                    _ = try connection.query(insert, [.text("kept"), .integer(100)])
                }
                let rolledBack = await asyncResult { () async throws(BodyFailure) in
                    try await pool.transaction(isolation: .readCommitted) { (connection) throws(BodyFailure) in
                        do throws(PostgresError) { _ = try connection.query(insert, [.text("dropped"), .integer(5)]) } catch {
                            throw BodyFailure(postgresError: error)
                        }
                        throw BodyFailure.barrierTimedOut
                    }
                }
                #expect(throws: BodyFailure.self) { try rolledBack.get() }
                let players = try await pool.withConnection { (connection) throws(PostgresError) in
                    try connection.query("SELECT player FROM balance ORDER BY player").rows.map { row throws(PostgresError) in try row.text(0) }
                }
                #expect(players == ["kept"])
                await pool.close()
            }
        }

        @Test func caughtFailureInsideTheBodyCannotCommit() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                try await schema.execute("CREATE TABLE once (id bigint PRIMARY KEY); INSERT INTO once VALUES (1)", on: pool)
                let outcome = await pool.outcome { (_) throws(PostgresError) in () }
                #expect(throws: Never.self) { try outcome.get() }
                let aborted = await asyncResult { () async throws(PostgresError) in
                    try await pool.transaction(isolation: .readCommitted) { (connection) throws(PostgresError) in
                        _ = try connection.query("INSERT INTO once VALUES (2)")
                        // Swallowed: the server has aborted the transaction all the same.
                        _ = try? connection.query("INSERT INTO once VALUES (1)")
                    }
                }
                guard let error = expectFailure(aborted, "a failed transaction committed") else { return }
                #expect(error.kind == .transactionAborted)
                let count = try await schema.rowCount("once", on: pool)
                #expect(count == 1)
                await pool.close()
            }
        }

        /// Write skew: each transaction reads that two doctors are on call and takes itself off. Run
        /// serializably and made to overlap by a barrier, one of the two must fail with 40001.
        private func takeOffCall(
            _ doctor: String, pool: PostgresConnectionPool, barrier: TwoPartyBarrier, attempts: AttemptCounter,
            retryCountMax: Int
        ) async -> Result<Bool, BodyFailure> {
            await asyncResult { () async throws(BodyFailure) in
                try await pool.transaction(isolation: .serializable, retryCountMax: retryCountMax) {
                    (connection) throws(BodyFailure) -> Bool in
                    let attempt = attempts.next(doctor)
                    let onCall: Int64
                    do throws(PostgresError) {
                        onCall = try connection.queryOne("SELECT count(*) FROM duty WHERE on_call")?.int64(0) ?? 0
                    } catch {
                        throw BodyFailure(postgresError: error)
                    }
                    // Only first attempts meet: a retry must see the other's commit.
                    if attempt == 1, !barrier.arriveAndWait() { throw BodyFailure.barrierTimedOut }
                    guard onCall >= 2 else { return false }
                    do throws(PostgresError) {
                        _ = try connection.query("UPDATE duty SET on_call = false WHERE doctor = $1", [.text(doctor)])
                    } catch {
                        throw BodyFailure(postgresError: error)
                    }
                    return true
                }
            }
        }

        /// Runs the two overlapping write-skew transactions on a fresh duty table, each retried at
        /// most `retryCountMax` times, and returns their outcomes, the attempts made and how many
        /// doctors are still on call.
        private func runWriteSkew(
            _ schema: PostgresTestSchema, retryCountMax: Int
        ) async throws -> (outcomes: [Result<Bool, BodyFailure>], attemptCount: Int, retryCount: Int, onCall: Int64?) {
            let pool = try schema.makePool(connectionCountMax: 2)
            try await schema.execute(
                "CREATE TABLE duty (doctor text PRIMARY KEY, on_call boolean NOT NULL); INSERT INTO duty VALUES ('a', true), ('b', true)",
                on: pool)
            let barrier = TwoPartyBarrier()
            let attempts = AttemptCounter()
            async let first = takeOffCall("a", pool: pool, barrier: barrier, attempts: attempts, retryCountMax: retryCountMax)
            async let second = takeOffCall("b", pool: pool, barrier: barrier, attempts: attempts, retryCountMax: retryCountMax)
            let outcomes = await [first, second]
            let onCall = try await schema.rowCount("duty", where: "on_call", on: pool)
            let retryCount = pool.statistics.transactionRetryCount
            await pool.close()
            return (outcomes, attempts.total, retryCount, onCall)
        }

        @Test func conflictingSerializableTransactionsFailOneWith40001() async throws {
            try await PostgresTestSchema.with { schema in
                let run = try await runWriteSkew(schema, retryCountMax: 0)
                let failures = run.outcomes.compactMap { outcome -> PostgresError? in
                    if case .failure(let failure) = outcome { return failure.postgresError }
                    return nil
                }
                #expect(failures.count == 1, "\(run.outcomes)")
                #expect(failures.first?.sqlState == "40001")
                #expect(failures.first?.isRetryable == true)
                #expect(run.attemptCount == 2)
                #expect(run.retryCount == 0)
                #expect(run.onCall == 1)
            }
        }

        @Test func retryMakesBothConflictingTransactionsSucceed() async throws {
            try await PostgresTestSchema.with { schema in
                let run = try await runWriteSkew(schema, retryCountMax: 3)
                let outcomes = try run.outcomes.map { try $0.get() }
                // One went off call; the retried one saw that and stayed.
                #expect(outcomes.sorted { !$0 && $1 } == [false, true])
                #expect(run.attemptCount == 3)
                #expect(run.retryCount == 1)
                #expect(run.onCall == 1)
            }
        }

        @Test func synchronousCommitOffHoldsInsideTheTransactionOnly() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let show = { @Sendable (connection: PostgresConnection) throws(PostgresError) -> String in
                    try connection.queryOne("SHOW synchronous_commit")?.text(0) ?? ""
                }
                let before = try await pool.withConnection(show)
                #expect(before != "off")
                let inside = try await pool.transaction(isolation: .readCommitted, synchronousCommitOff: true, show)
                let insideDefault = try await pool.transaction(isolation: .readCommitted, synchronousCommitOff: false, show)
                let after = try await pool.withConnection(show)
                #expect(inside == "off")
                #expect(insideDefault == before)
                #expect(after == before)
                #expect(pool.statistics.connectionOpenCount == 1)
                await pool.close()
            }
        }

        @Test func isolationLevelIsTheOneAskedFor() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                for level in PostgresIsolationLevel.allCases {
                    let shown = try await pool.transaction(isolation: level) { (connection) throws(PostgresError) in
                        try connection.queryOne("SHOW transaction_isolation")?.text(0)
                    }
                    #expect(shown == level.rawValue.lowercased())
                }
                await pool.close()
            }
        }

        @Test func advisoryLockIsHeldUntilTheTransactionEnds() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let key = Int64.random(in: 1...Int64.max)
                let tryLock = "SELECT pg_try_advisory_xact_lock($1::bigint)"
                let (held, freeElsewhere) = try await pool.withAdvisoryLock(key: key) { (connection) throws(PostgresError) in
                    let held = try connection.queryOne(
                        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted")?.int64(0)
                    let side = try schema.openSideConnection()
                    defer { side.close() }
                    return (held, try side.queryOne(tryLock, [.integer(key)])?.bool(0))
                }
                #expect(held == 1)
                #expect(freeElsewhere == false)
                let freeAfter = try await pool.withConnection { (connection) throws(PostgresError) in
                    try connection.queryOne(tryLock, [.integer(key)])?.bool(0)
                }
                #expect(freeAfter == true)
                let outside = await pool.outcome { (connection) throws(PostgresError) in try connection.lockAdvisory(key: key) }
                guard let error = expectFailure(outside, "a transaction lock was taken outside a transaction") else { return }
                #expect(error.kind == .transactionState)
                await pool.close()
            }
        }
    }
}
