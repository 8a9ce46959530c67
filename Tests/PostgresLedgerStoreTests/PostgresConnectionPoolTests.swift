import Testing

@testable import PostgresLedgerStore

extension PostgresServerTests {
    /// The pool's limits, and connections lost under it.
    @Suite struct PoolTests {
        @Test func terminatedBackendIsAConnectionFailureAndIsReplaced() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let firstPID = try await pool.withConnection { (connection) throws(PostgresError) in connection.backendProcessID }
                let outcome = await pool.outcome { (connection) throws(PostgresError) -> Bool in
                    let terminated = try schema.terminateBackend(connection.backendProcessID)
                    _ = try connection.query("SELECT 1")
                    return terminated
                }
                guard let error = expectFailure(outcome, "a query ran on a terminated backend") else { return }
                #expect(error.isConnectionFailure, "\(error)")
                #expect(error.connectionBroken)
                #expect(error.allowsTransactionRetry)
                #expect(!error.outcomeUnknown)
                #expect(error.sqlState == "57P01" || error.kind == .connectionLost, "\(error)")
                #expect(pool.statistics.connectionDiscardCount == 1)
                let (secondPID, one) = try await pool.withConnection { (connection) throws(PostgresError) in
                    (connection.backendProcessID, try connection.queryOne("SELECT 1")?.int64(0))
                }
                #expect(secondPID != firstPID)
                #expect(one == 1)
                #expect(pool.statistics.connectionOpenCount == 2)
                await pool.close()
            }
        }

        @Test func idleConnectionTerminatedIsReplacedBeforeUse() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let admin = try schema.makePool(connectionCountMax: 1)
                let firstPID = try await pool.withConnection { (connection) throws(PostgresError) in connection.backendProcessID }
                let terminated = try await admin.withConnection { (_) throws(PostgresError) in try schema.terminateBackend(firstPID) }
                #expect(terminated)
                // The probe at check-out finds the closed session, so no statement fails.
                let secondPID = try await pool.withConnection { (connection) throws(PostgresError) in
                    _ = try connection.query("SELECT 1")
                    return connection.backendProcessID
                }
                #expect(secondPID != firstPID)
                #expect(pool.statistics.connectionDiscardCount == 1)
                #expect(pool.statistics.connectionOpenCount == 2)
                await pool.close()
                await admin.close()
            }
        }

        @Test func transactionRunsAgainOnAFreshConnectionAfterTheOldOneWasLost() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                try await schema.execute("CREATE TABLE grants (id text PRIMARY KEY)", on: pool)
                let attempts = AttemptCounter()
                try await pool.transaction(isolation: .serializable) { (connection) throws(PostgresError) in
                    if attempts.next("grant") == 1 { _ = try schema.terminateBackend(connection.backendProcessID) }
                    _ = try connection.query("INSERT INTO grants VALUES ($1)", [.text("t-1")])
                }
                #expect(attempts.total == 2)
                #expect(pool.statistics.transactionRetryCount == 1)
                let count = try await schema.rowCount("grants", on: pool)
                #expect(count == 1)
                await pool.close()
            }
        }

        @Test func commitLostWithTheConnectionIsOutcomeUnknownAndNotRetried() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let attempts = AttemptCounter()
                let outcome = await asyncResult { () async throws(PostgresError) in
                    try await pool.transaction(isolation: .readCommitted, retryCountMax: 5) { (connection) throws(PostgresError) in
                        _ = attempts.next("commit")
                        _ = try connection.query("SELECT 1")
                        // The body ends well; its COMMIT meets a connection the server has ended.
                        _ = try schema.terminateBackend(connection.backendProcessID)
                    }
                }
                guard let error = expectFailure(outcome, "COMMIT succeeded on a terminated backend") else { return }
                #expect(error.outcomeUnknown, "\(error)")
                #expect(error.kind == .commitOutcomeUnknown)
                #expect(error.sql == "COMMIT")
                #expect(!error.isRetryable)
                #expect(attempts.total == 1)
                #expect(pool.statistics.transactionRetryCount == 0)
                await pool.close()
            }
        }

        /// A pool's only connection, held by a task until `letGo()`.
        private struct HeldConnection {
            let release = OffPoolSignal()
            let task: Task<Bool, any Error>

            /// Checks the connection out and returns once it is held.
            init(_ pool: PostgresConnectionPool) async throws {
                let (held, release) = (OffPoolSignal(), self.release)
                task = Task {
                    try await pool.withConnection { (_) throws(PostgresError) in
                        held.signal()
                        return release.waitBlocking()
                    }
                }
                try await held.wait("the holder")
            }

            /// Returns the connection; true when the holder was released rather than timed out.
            func letGo() async throws -> Bool {
                release.signal()
                return try await task.value
            }
        }

        /// A caller that waits in `pool`'s queue, returned once it is queued.
        private func queuedWaiter(_ pool: PostgresConnectionPool) async throws -> Task<Result<Int32, PostgresError>, Never> {
            let waitersBefore = pool.statistics.waiterCount
            let waiter = Task { await pool.outcome { (connection) throws(PostgresError) in connection.backendProcessID } }
            try await eventually("the waiter to queue") { pool.statistics.waiterCount == waitersBefore + 1 }
            return waiter
        }

        @Test func acquireTimeoutFiresWhenEveryConnectionIsHeld() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1, acquireTimeoutMilliseconds: 50)
                let holder = try await HeldConnection(pool)
                let outcome = await pool.outcome { (connection) throws(PostgresError) in connection.backendProcessID }
                #expect(try await holder.letGo())
                guard let error = expectFailure(outcome, "a second connection was handed out by a pool of one") else { return }
                #expect(error.kind == .acquireTimeout)
                #expect(!error.isRetryable)
                #expect(pool.statistics.acquireTimeoutCount == 1)
                #expect(pool.statistics.waiterCount == 0)
                await pool.close()
            }
        }

        @Test func waiterLimitRefusesAtOnce() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1, acquireTimeoutMilliseconds: 60_000, waiterCountMax: 1)
                let holder = try await HeldConnection(pool)
                let waiter = try await queuedWaiter(pool)
                let refused = await pool.outcome { (connection) throws(PostgresError) in connection.backendProcessID }
                guard let error = expectFailure(refused, "a caller past waiterCountMax got a connection") else { return }
                #expect(error.kind == .poolBusy)
                #expect(pool.statistics.busyRefusalCount == 1)
                #expect(try await holder.letGo())
                let waiterPID = try await waiter.value.get()
                #expect(waiterPID > 0)
                #expect(pool.statistics.connectionSlotsCreated == 1)
                await pool.close()
            }
        }

        @Test func cancelledWaiterLeavesTheQueue() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1, acquireTimeoutMilliseconds: 60_000, waiterCountMax: 4)
                let holder = try await HeldConnection(pool)
                let waiter = try await queuedWaiter(pool)
                waiter.cancel()
                let outcome = await waiter.value
                #expect(pool.statistics.waiterCount == 0)
                #expect(try await holder.letGo())
                guard let error = expectFailure(outcome, "a cancelled waiter got a connection") else { return }
                #expect(error.kind == .cancelled)
                await pool.close()
            }
        }

        @Test func closedPoolRefusesCallers() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                _ = try await pool.withConnection { (connection) throws(PostgresError) in connection.backendProcessID }
                await pool.close()
                let outcome = await pool.outcome { (connection) throws(PostgresError) in connection.backendProcessID }
                guard let error = expectFailure(outcome, "a closed pool handed out a connection") else { return }
                #expect(error.kind == .poolClosed)
                #expect(pool.statistics.connectionSlotCount == 0)
            }
        }
    }
}
