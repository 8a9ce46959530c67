import Dispatch
import Foundation
import FulfillmentLedgerTesting
import PostgresLedgerStore
import Synchronization
import Testing

/// The PostgreSQL server the tests run against, named by `LEDGER_TEST_POSTGRES_URL`.
///
/// Without it every suite under `PostgresServerTests` is skipped with `skipMessage`, unless
/// `LEDGER_REQUIRE_POSTGRES=1` is set: then they run and fail, saying the server is missing, so a
/// CI run cannot pass by skipping them.
enum PostgresTestServer {
    static let urlVariable = "LEDGER_TEST_POSTGRES_URL"
    static let requireVariable = "LEDGER_REQUIRE_POSTGRES"

    /// The server's connection string, if one is configured.
    static let url: String? = ProcessInfo.processInfo.environment[urlVariable].flatMap { $0.isEmpty ? nil : $0 }
    /// Whether a missing server is a failure rather than a reason to skip.
    static let isRequired = ProcessInfo.processInfo.environment[requireVariable] == "1"
    /// The one condition of every PostgreSQL suite.
    static let shouldRun = url != nil || isRequired
    /// The one message every skipped PostgreSQL suite shows.
    static let skipMessage: Comment = """
        PostgreSQL suites skipped: LEDGER_TEST_POSTGRES_URL is unset; start a server with \
        eval "$(Scripts/postgres-test-server start)"
        """

    /// The configured server, or a failure that says it is missing.
    static func baseURL() throws -> String {
        guard let url else { throw HarnessFailure.serverMissing }
        return url
    }

    /// Why the harness could not run a test.
    enum HarnessFailure: Error, CustomStringConvertible {
        case serverMissing
        case timedOut(String)

        var description: String {
            switch self {
            case .serverMissing:
                "LEDGER_REQUIRE_POSTGRES=1 but LEDGER_TEST_POSTGRES_URL is unset: no PostgreSQL server to test against"
            case .timedOut(let what): "timed out waiting for \(what)"
            }
        }
    }
}

/// Every suite that needs a server, nested here so that one condition and one message cover them.
@Suite(.enabled(if: PostgresTestServer.shouldRun, PostgresTestServer.skipMessage))
struct PostgresServerTests {}

/// A schema of its own for one test, so that tests run in parallel; dropped afterwards.
struct PostgresTestSchema: Sendable {
    /// The schema's name, unique per test.
    let name: String
    /// The server's URL with `search_path` set to the schema for every connection.
    let url: String

    /// The connection string of `url`.
    var connectionString: PostgresConnectionString { PostgresConnectionString(url) }

    /// Creates a schema, runs `body` with it and drops it, also when `body` throws.
    static func with<T: Sendable>(_ body: (PostgresTestSchema) async throws -> T) async throws -> T {
        let base = try PostgresTestServer.baseURL()
        let name = "ledger_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let admin = try PostgresConnectionPool(
            configuration: PostgresPoolConfiguration(connectionString: PostgresConnectionString(base), connectionCountMax: 1))
        try await admin.withConnection { (connection) throws(PostgresError) in _ = try connection.execute("CREATE SCHEMA \(name)") }
        let schema = PostgresTestSchema(name: name, url: Self.url(base, searchPath: name))
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body(schema)) } catch { outcome = .failure(error) }
        try await admin.withConnection { (connection) throws(PostgresError) in
            _ = try connection.execute("DROP SCHEMA \(name) CASCADE")
        }
        await admin.close()
        return try outcome.get()
    }

    /// `base` with `options=-c search_path=...` added, as a URI query or a `key=value` pair.
    static func url(_ base: String, searchPath: String) -> String {
        if base.hasPrefix("postgresql://") || base.hasPrefix("postgres://") {
            return base + (base.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(searchPath)"
        }
        return base + " options='-c search_path=\(searchPath)'"
    }

    /// A pool on this schema.
    func makePool(
        connectionCountMax: Int = 2, acquireTimeoutMilliseconds: Int = 30_000, waiterCountMax: Int = 16
    ) throws -> PostgresConnectionPool {
        try PostgresConnectionPool(
            configuration: PostgresPoolConfiguration(
                connectionString: connectionString, connectionCountMax: connectionCountMax,
                acquireTimeoutMilliseconds: acquireTimeoutMilliseconds, waiterCountMax: waiterCountMax))
    }

    /// Runs `sql` on a connection of `pool`.
    func execute(_ sql: String, on pool: PostgresConnectionPool) async throws {
        try await pool.withConnection { (connection) throws(PostgresError) in _ = try connection.execute(sql) }
    }

    /// Opens a connection of its own (for calls made on a pool's queue, next to the pooled one).
    func openSideConnection() throws(PostgresError) -> PostgresConnection {
        try PostgresConnection(connectionString: connectionString)
    }

    /// Ends the server process `pid` from a side connection and waits until it is gone.
    func terminateBackend(_ pid: Int32) throws(PostgresError) -> Bool {
        let side = try openSideConnection()
        defer { side.close() }
        return try side.queryOne("SELECT pg_terminate_backend($1::int, 30000)", [.integer(Int64(pid))])?.bool(0) ?? false
    }
}

/// A semaphore to wait on from async code without blocking the cooperative pool.
struct OffPoolSignal: Sendable {
    /// Longest wait before a test gives up (a hung test is worse than a failed one).
    static let waitSecondsMax = 60
    let semaphore = DispatchSemaphore(value: 0)

    /// Signals once.
    func signal() { semaphore.signal() }

    /// Waits on a thread of its own, for at most `waitSecondsMax`.
    func wait(_ what: String) async throws {
        let semaphore = semaphore
        let arrived = try await onOwnThread { semaphore.wait(timeout: .now() + .seconds(Self.waitSecondsMax)) == .success }
        guard arrived else { throw PostgresTestServer.HarnessFailure.timedOut(what) }
    }

    /// Waits on the calling thread (a pool's queue), for at most `waitSecondsMax`.
    func waitBlocking() -> Bool { semaphore.wait(timeout: .now() + .seconds(Self.waitSecondsMax)) == .success }
}

/// A rendezvous of two bodies running on two pool queues: each waits until both arrived.
final class TwoPartyBarrier: Sendable {
    private let arrivals = Mutex(0)
    private let bothArrived = OffPoolSignal()

    /// Blocks until the other party arrives too; false if it never did.
    func arriveAndWait() -> Bool {
        let count = arrivals.withLock { count in
            count += 1
            return count
        }
        guard count == 2 else { return bothArrived.waitBlocking() }
        bothArrived.signal()
        return true
    }
}

/// A body's own error type, showing that bodies may throw more than `PostgresError`.
enum BodyFailure: PostgresErrorConvertible, CustomStringConvertible {
    case postgres(PostgresError)
    case barrierTimedOut

    init(postgresError: PostgresError) { self = .postgres(postgresError) }

    var postgresError: PostgresError? {
        if case .postgres(let error) = self { return error }
        return nil
    }

    var description: String {
        switch self {
        case .postgres(let error): error.description
        case .barrierTimedOut: "the other transaction never reached the barrier"
        }
    }
}

/// Polls `condition` until it holds, a bounded number of times.
func eventually(_ what: String, _ condition: () -> Bool) async throws {
    let pollCountMax = 10_000
    for _ in 0..<pollCountMax {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(1))
    }
    throw PostgresTestServer.HarnessFailure.timedOut(what)
}

extension PostgresConnectionPool {
    /// `withConnection` with its failure as a value, for tests that expect one.
    func outcome<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> T
    ) async -> Result<T, PostgresError> {
        do throws(PostgresError) { return .success(try await withConnection(body)) } catch { return .failure(error) }
    }
}

/// The outcome of an async call that throws `E`, as a value.
func asyncResult<T, E: Error>(_ body: () async throws(E) -> T) async -> Result<T, E> {
    do throws(E) { return .success(try await body()) } catch { return .failure(error) }
}

/// Attempts counted per name, shared by bodies running on different pool queues.
final class AttemptCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts one more attempt of `name` and returns its number (1 for the first).
    func next(_ name: String) -> Int {
        counts.withLock { counts in
            counts[name, default: 0] += 1
            return counts[name, default: 0]
        }
    }

    /// All attempts counted.
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}

/// The error of a call expected to fail, or nil (with an issue recorded) when it succeeded.
func expectFailure<T, E: Error>(
    _ outcome: Result<T, E>, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
) -> E? {
    guard case .failure(let error) = outcome else {
        Issue.record(comment, sourceLocation: sourceLocation)
        return nil
    }
    return error
}

extension PostgresTestSchema {
    /// The rows of `table` (a name in this schema), counted on a connection of `pool`.
    func rowCount(_ table: String, where condition: String = "true", on pool: PostgresConnectionPool) async throws -> Int64? {
        try await pool.withConnection { (connection) throws(PostgresError) in
            try connection.queryOne("SELECT count(*) FROM \(table) WHERE \(condition)")?.int64(0)
        }
    }
}
