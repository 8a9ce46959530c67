import Dispatch
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Synchronization
import PostgresLedgerStoreTesting
import Testing

@testable import PostgresLedgerStore

extension PostgresServerTests {
    /// Cancelling a task stops its PostgreSQL work: a running statement through a cancel request
    /// (`PQcancel`), a later statement before it is sent; the connection that got the request is
    /// replaced, and nothing of a cancelled write is kept.
    @Suite(.timeLimit(.minutes(1))) struct CancellationTests {
        /// A statement that runs far longer than the test unless cancelled.
        static let longSleep = "SELECT pg_sleep(300)"

        /// Runs `body` with a scratch schema, dropped afterwards.
        static func withScratch(_ body: (PostgresScratchSchema) async throws -> Void) async throws {
            let schema = try PostgresScratchSchema.create(prefix: "ledger_cancel")
            defer { try? schema.drop() }
            try await body(schema)
        }

        /// A one-connection pool on `schema`, to watch the server from beside the store.
        static func observer(_ schema: PostgresScratchSchema) throws -> PostgresConnectionPool {
            try PostgresConnectionPool(
                configuration: PostgresPoolConfiguration(
                    connectionString: PostgresConnectionString(schema.connectionString), connectionCountMax: 1))
        }

        /// Waits until the server runs `sql` on some connection.
        static func waitUntilRunning(_ sql: String, on pool: PostgresConnectionPool) async throws {
            for _ in 0..<1_000 {
                let running = try await pool.withConnection { (connection) throws(PostgresError) in
                    try connection.queryOne("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query = $1", [.text(sql)])?.int64(0) ?? 0
                }
                if running > 0 { return }
                try await Task.sleep(for: .milliseconds(10))
            }
            Issue.record("\(sql) never started")
        }

        @Test("a running statement is cancelled on the server; the connection is replaced and the next use runs")
        func runningStatementIsCancelled() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let observer = try schema.makePool(connectionCountMax: 1)
                let firstPID = try await pool.withConnection { (connection) throws(PostgresError) in connection.backendProcessID }
                let sleeping = Task {
                    try await pool.withConnection { (connection) throws(PostgresError) in try connection.execute(Self.longSleep) }
                }
                try await Self.waitUntilRunning(Self.longSleep, on: observer)
                sleeping.cancel()
                guard let error = expectFailure(await sleeping.result, "a cancelled sleep finished") as? PostgresError else {
                    return
                }
                #expect(error.kind == .cancelled, "\(error)")
                #expect(error.statementSent)
                #expect(!error.allowsTransactionRetry)
                #expect(pool.statistics.cancelRequestCount == 1)
                #expect(pool.statistics.connectionDiscardCount == 1)
                let secondPID = try await pool.withConnection { (connection) throws(PostgresError) in connection.backendProcessID }
                #expect(secondPID != firstPID)
                await pool.close()
                await observer.close()
            }
        }

        @Test("a cancellation between two statements refuses the next one before it is sent")
        func cancellationBetweenStatements() async throws {
            try await PostgresTestSchema.with { schema in
                let pool = try schema.makePool(connectionCountMax: 1)
                let started = DispatchSemaphore(value: 0)
                let proceed = DispatchSemaphore(value: 0)
                let sent = Mutex(0)
                let using = Task {
                    try await pool.withConnection { (connection) throws(PostgresError) in
                        _ = try connection.execute("SELECT 1")
                        sent.withLock { $0 += 1 }
                        started.signal()
                        proceed.wait()
                        _ = try connection.execute("SELECT 2")
                        sent.withLock { $0 += 1 }
                    }
                }
                try await onOwnThread { started.wait() }
                using.cancel()
                proceed.signal()
                guard let error = expectFailure(await using.result, "a cancelled use ran on") as? PostgresError else {
                    return
                }
                #expect(error.kind == .cancelled, "\(error)")
                #expect(!error.statementSent)
                #expect(sent.withLock { $0 } == 1)
                #expect(try await pool.withConnection { (connection) throws(PostgresError) in try connection.queryOne("SELECT 3")?.int64(0) } == 3)
                await pool.close()
            }
        }

        @Test("a cancelled write through the store fails as cancelled, is not retried, and keeps nothing")
        func cancelledWriteKeepsNothing() async throws {
            try await Self.withScratch { schema in
                let store = try await schema.openStore()
                let observer = try Self.observer(schema)
                let attempts = Mutex(0)
                let writing = Task {
                    try await store.write(.durable) { writer throws(LedgerError) in
                        attempts.withLock { $0 += 1 }
                        _ = try writer.addToBalance(playerID: "p", currencyID: "gold", delta: 5)
                        _ = try writer.engine.query(Self.longSleep, [], rowCountMax: 1)
                    }
                }
                try await Self.waitUntilRunning(Self.longSleep, on: observer)
                writing.cancel()
                let outcome = await writing.result
                guard case .failure(let error) = outcome, case .storage(let failure) = error as? LedgerError else {
                    Issue.record("a cancelled write answered \(outcome)")
                    return
                }
                #expect(failure.code == "cancelled", "\(failure)")
                #expect(!failure.isRetryable)
                #expect(attempts.withLock { $0 } == 1)
                #expect(try await store.read { reader throws(LedgerError) in try reader.balances(playerID: "p") } == [:])
                await store.close()
                await observer.close()
            }
        }

        @Test("a read whose task is cancelled before it starts never runs")
        func cancelledBeforeItStarts() async throws {
            try await Self.withScratch { schema in
                let store = try await schema.openStore()
                let runs = Mutex(0)
                let early = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await store.read { _ throws(LedgerError) in runs.withLock { $0 += 1 } }
                }
                let outcome = await early.result
                guard case .failure(let error) = outcome, case .storage(let failure) = error as? LedgerError else {
                    Issue.record("a cancelled read answered \(outcome)")
                    return
                }
                #expect(failure.code == "cancelled", "\(failure)")
                #expect(runs.withLock { $0 } == 0)
                await store.close()
            }
        }
    }
}
