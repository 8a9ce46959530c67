import FulfillmentLedger
import Foundation
import PostgresLedgerStore

/// A schema of its own on a test server, for one test or one simulation run, so that tests run
/// in parallel on one database and leave nothing behind: its connection string sets
/// `search_path` to the schema, and `drop()` removes it with everything in it.
///
/// The server comes from `LEDGER_TEST_POSTGRES_URL`. Without it, suites that need PostgreSQL
/// skip, unless `LEDGER_REQUIRE_POSTGRES=1` says a run must not pass by skipping them.
public struct PostgresScratchSchema: Sendable {
    /// The environment variable naming the test server (a `postgresql://` URI).
    public static let serverVariable = "LEDGER_TEST_POSTGRES_URL"
    /// The environment variable that makes a missing server a failure instead of a skip.
    public static let requireVariable = "LEDGER_REQUIRE_POSTGRES"
    /// Characters of the random part of a schema's name.
    static let randomHexDigitCount = 16

    /// The test server's connection string, if one is configured.
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment[serverVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether PostgreSQL suites must run (and fail without a server) rather than skip.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment[requireVariable] == "1" }

    /// Whether PostgreSQL suites should run: a server is configured, or one is required.
    public static var shouldRun: Bool { serverURL != nil || isRequired }

    /// The schema's name.
    public let name: String
    /// The server's connection string with `search_path` set to the schema.
    public let connectionString: String
    private let serverURL: String

    /// Creates a new, empty schema on the server at `serverURL` (by default the test server),
    /// named `prefix` and a random suffix.
    public static func create(
        prefix: String = "ledger_scratch", serverURL: String? = PostgresScratchSchema.serverURL
    ) throws(LedgerError) -> PostgresScratchSchema {
        guard let serverURL else {
            throw LedgerError.configuration(
                "\(requireVariable)=1 but \(serverVariable) is unset: no PostgreSQL server to test against")
        }
        guard prefix.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }), !prefix.isEmpty else {
            throw LedgerError.invalidArgument("a scratch schema prefix takes lowercase letters, digits and _")
        }
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let name = prefix + "_" + String(repeating: "0", count: randomHexDigitCount - random.count) + random
        try execute("CREATE SCHEMA \(name)", on: serverURL)
        return PostgresScratchSchema(
            name: name, connectionString: Self.connectionString(serverURL, searchPath: name), serverURL: serverURL)
    }

    private init(name: String, connectionString: String, serverURL: String) {
        self.name = name
        self.connectionString = connectionString
        self.serverURL = serverURL
    }

    /// The scratch schema `name` made earlier on the server at `serverURL` (by `create`, maybe in
    /// another process), to open or drop. Throws for a name `create` would not have made.
    public init(existing name: String, serverURL: String) throws(LedgerError) {
        guard !name.isEmpty, name.utf8.count <= 63, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { throw LedgerError.invalidArgument("\(name) is not a scratch schema's name") }
        self.init(name: name, connectionString: Self.connectionString(serverURL, searchPath: name), serverURL: serverURL)
    }

    /// Drops the schema and everything in it. Connections still open on it keep nothing alive.
    public func drop() throws(LedgerError) {
        try Self.execute("DROP SCHEMA IF EXISTS \(name) CASCADE", on: serverURL)
    }

    /// Runs `sql` (one or more statements) in the schema, on a connection of its own, blocking
    /// the calling thread: for tests that set up or damage a ledger behind the store's back.
    public func execute(_ sql: String) throws(LedgerError) {
        try Self.execute(sql, on: connectionString)
    }

    /// Opens a ledger store in the schema (creating its tables on first open).
    public func openStore(
        _ configure: (inout PostgresLedgerStore.Options) -> Void = { _ in }
    ) async throws(LedgerError) -> PostgresLedgerStore {
        var options = PostgresLedgerStore.Options(connectionString: connectionString)
        configure(&options)
        return try await PostgresLedgerStore.open(options)
    }

    /// `base` with `options=-c search_path=...` added, as a URI query or a `key=value` pair.
    static func connectionString(_ base: String, searchPath: String) -> String {
        if base.hasPrefix("postgresql://") || base.hasPrefix("postgres://") {
            return base + (base.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(searchPath)"
        }
        return base + " options='-c search_path=\(searchPath)'"
    }

    /// Runs one statement on a connection of its own, blocking the calling thread.
    static func execute(_ sql: String, on serverURL: String) throws(LedgerError) {
        do throws(PostgresError) {
            let connection = try PostgresConnection(connectionString: PostgresConnectionString(serverURL))
            defer { connection.close() }
            _ = try connection.execute(sql)
        } catch {
            throw error.ledgerError
        }
    }
}
