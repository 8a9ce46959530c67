import CLibPQ
import FulfillmentLedger

/// One libpq connection. Not Sendable: it is owned by a single serial owner (a pool slot's serial
/// queue), which is what makes the statement cache and transactions safe. Every call blocks its
/// thread until the server answers, so from async code use it only through `PostgresConnectionPool`.
package final class PostgresConnection {
    /// Default for a query's `rowCountMax`; queries that read more must say so (and page).
    package static let rowCountMaxDefault = 10_000
    /// Most parameters one statement takes: the protocol counts them in 16 bits.
    static let parameterCountMax = 65_535
    /// Most results one call collects: one per statement of a simple query.
    static let resultCountMax = 1_024
    /// Reads tried when probing an idle connection: one may return the server's last message, the
    /// next sees the end of the stream.
    static let probeReadCountMax = 3
    /// The application name the server shows when the connection string names none.
    static let fallbackApplicationName = "FulfillmentLedger"
    /// SQLSTATEs after which a cached statement is dropped: invalid_sql_statement_name (someone ran
    /// DEALLOCATE) and feature_not_supported (its result type changed under it).
    static let statementInvalidatingStates: Set<String> = ["26000", "0A000"]

    /// The libpq connection.
    let handle: OpaquePointer
    /// The connection string, kept to scrub its password from messages.
    let connectionString: PostgresConnectionString
    /// Most prepared statements kept; past it the cache is emptied.
    let statementCacheCountMax: Int
    /// Statement names by SQL text.
    private var statements: [String: String] = [:]
    /// Statements in PostgreSQL's form by the data layer's text, bounded like `statements`.
    private var renderedStatements: [String: String] = [:]
    /// The number of the next statement name.
    private var nextStatementNumber = 1
    /// Set when the connection is left in a state no call can recover (an unsupported COPY).
    private var isPoisoned = false
    private var isClosed = false

    /// How many statements this connection has prepared (`PQprepare`), to check the cache.
    package private(set) var statementPrepareCount = 0
    /// Sees every statement this connection sends, when set (the benchmark's recording).
    var tap: PostgresStatementTap?
    /// Whether each statement first checks the calling task for cancellation: set by the pool
    /// while a caller's body runs, which is in the caller's task. A cancel request sent between
    /// two statements reaches no statement, so the next one is refused here instead.
    var checksCancellation = false

    /// Connects, blocking for at most `connectTimeoutSeconds` per host. The connection string reaches
    /// libpq untouched; only the connect timeout and the client encoding (UTF-8, which the result
    /// decoding relies on) are set over it.
    package init(
        connectionString: PostgresConnectionString,
        connectTimeoutSeconds: Int = PostgresPoolConfiguration.connectTimeoutSecondsDefault,
        statementCacheCountMax: Int = PostgresPoolConfiguration.statementCacheCountMaxDefault
    ) throws(PostgresError) {
        // The pool checks its configuration with typed errors; these are programmer errors here.
        precondition(connectTimeoutSeconds >= 1 && statementCacheCountMax >= 1, "connection limits must be at least 1")
        try Self.validate(connectionString)
        // Entries after dbname override the expanded string; the fallback name yields to it.
        let parameters = [
            ("fallback_application_name", Self.fallbackApplicationName), ("dbname", connectionString.rawValue),
            ("connect_timeout", String(connectTimeoutSeconds)), ("client_encoding", "UTF8"),
        ]
        // libpq reads both arrays up to a NULL keyword.
        let connection = CStringArray(parameters.map(\.0) + [nil]).withPointers { keywords in
            CStringArray(parameters.map(\.1) + [nil]).withPointers { values in
                PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let connection else {
            throw PostgresError(kind: .connectFailed, message: "libpq could not allocate a connection", statementSent: false)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = connectionString.scrubbed(Self.errorMessage(of: connection))
            PQfinish(connection)
            let kind: PostgresError.Kind = Self.isRejection(message) ? .connectRejected : .connectFailed
            throw PostgresError(kind: kind, message: message, statementSent: false, connectionBroken: true)
        }
        // libpq prints notices (such as a cascading DROP's) to stderr unless told otherwise.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        self.handle = connection
        self.connectionString = connectionString
        self.statementCacheCountMax = statementCacheCountMax
    }

    deinit { close() }

    /// Refuses a connection string libpq would refuse, with a message that never shows a password.
    static func validate(_ connectionString: PostgresConnectionString) throws(PostgresError) {
        guard connectionString.rawValue.utf8.count <= PostgresConnectionString.byteCountMax else {
            throw PostgresError(
                kind: .invalidConnectionString,
                message: "the connection string is longer than \(PostgresConnectionString.byteCountMax) bytes",
                statementSent: false)
        }
        if case .failure(let failure) = connectionString.parameters() {
            throw PostgresError(
                kind: .invalidConnectionString, message: connectionString.parseFailureReason(failure), statementSent: false)
        }
    }

    /// Ends the session (libpq sends Terminate); later use is a programmer error.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        PQfinish(handle)
    }

    /// Whether the connection can no longer be used: libpq reports it bad, or a call left it in a
    /// state it cannot leave.
    package var isBroken: Bool { isClosed || isPoisoned || PQstatus(handle) != CONNECTION_OK }

    /// The server process serving this connection (for `pg_terminate_backend` and logs).
    package var backendProcessID: Int32 { PQbackendPID(handle) }

    /// The server's version as libpq reports it, such as 150018 for 15.18.
    package var serverVersionNumber: Int { Int(PQserverVersion(handle)) }

    /// Prepared statements cached now.
    package var cachedStatementCount: Int { statements.count }

    /// Where the connection stands with respect to transactions: `PQTRANS_IDLE` outside one,
    /// `PQTRANS_INTRANS` in a usable one, `PQTRANS_INERROR` in a failed one (only ROLLBACK is
    /// accepted), `PQTRANS_ACTIVE` while a statement runs, `PQTRANS_UNKNOWN` on a bad connection.
    var transactionState: PGTransactionStatusType { PQtransactionStatus(handle) }

    /// Reads, without blocking, whatever the server sent while the connection sat idle, and says
    /// whether it is still usable: a server that ended the session (`pg_terminate_backend`, a
    /// shutdown) has sent its last message and closed, which this finds before any statement is sent.
    package func probeIsUsable() -> Bool {
        guard !isBroken, transactionState == PQTRANS_IDLE else { return false }
        for _ in 0..<Self.probeReadCountMax where PQconsumeInput(handle) == 0 { return false }
        // Parsing hands any unsolicited message (a notice, the server's last FATAL) to the notice
        // processor and drops pending notifications, so nothing piles up.
        _ = PQisBusy(handle)
        while let notification = PQnotifies(handle) { PQfreemem(notification) }
        return !isBroken
    }

    /// Runs `sql` with the simple protocol: no parameters, several statements allowed, the last
    /// statement's result returned.
    @discardableResult
    package func execute(_ sql: String, rowCountMax: Int = PostgresConnection.rowCountMaxDefault) throws(PostgresError)
        -> PostgresResult
    {
        try Self.refuseNUL(in: sql)
        tap?.record(PostgresStatementTap.Statement(isPrepared: false, sql: sql, parameters: []))
        return try run(sql: sql, rowCountMax: rowCountMax) { handle in PQsendQuery(handle, sql) }
    }

    /// Runs `sql` as a prepared statement (prepared once per connection, cached by its text) with
    /// text-format `parameters` bound to `$1`...`$n`.
    @discardableResult
    package func query(
        _ sql: String, _ parameters: [PostgresValue] = [], rowCountMax: Int = PostgresConnection.rowCountMaxDefault
    ) throws(PostgresError) -> PostgresResult {
        try Self.refuseNUL(in: sql)
        guard parameters.count <= Self.parameterCountMax else {
            throw PostgresError(
                kind: .invalidParameter, message: "\(parameters.count) parameters, more than \(Self.parameterCountMax)",
                sql: sql, statementSent: false)
        }
        let values = parameters.map(\.textFormat)
        for (offset, value) in values.enumerated() where value?.utf8.contains(0) == true {
            throw PostgresError(
                kind: .invalidParameter, message: "parameter $\(offset + 1) holds a NUL byte, which PostgreSQL text cannot store",
                sql: sql, statementSent: false)
        }
        let name = try preparedStatementName(for: sql)
        tap?.record(PostgresStatementTap.Statement(isPrepared: true, sql: sql, parameters: parameters))
        do {
            return try CStringArray(values).withPointers { (pointers) throws(PostgresError) in
                try run(sql: sql, rowCountMax: rowCountMax) { handle in
                    PQsendQueryPrepared(handle, name, Int32(values.count), pointers, nil, nil, 0)
                }
            }
        } catch {
            if let state = error.sqlState, Self.statementInvalidatingStates.contains(state) { statements[sql] = nil }
            throw error
        }
    }

    /// `sql` as `dialect` renders it, rendered once per connection and cached by its text.
    package func rendered(_ sql: String, dialect: SQLDialect) -> String {
        if let rendered = renderedStatements[sql] { return rendered }
        if renderedStatements.count >= statementCacheCountMax { renderedStatements.removeAll() }
        let rendered = dialect.render(sql)
        renderedStatements[sql] = rendered
        return rendered
    }

    /// The first row of `query(sql, parameters)`, if any.
    package func queryOne(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRow? {
        try query(sql, parameters).rows.first
    }

    /// The name of the prepared statement for `sql`, preparing it when it is not cached.
    private func preparedStatementName(for sql: String) throws(PostgresError) -> String {
        if let name = statements[sql] { return name }
        if statements.count >= statementCacheCountMax {
            // Protocol-level statements outlive transactions, so this also works inside one.
            try execute("DEALLOCATE ALL")
            statements.removeAll()
        }
        let name = "fulfillment_ledger_\(nextStatementNumber)"
        nextStatementNumber += 1
        _ = try run(sql: sql, rowCountMax: 0) { handle in PQsendPrepare(handle, name, sql, 0, nil) }
        statementPrepareCount += 1
        statements[sql] = name
        return name
    }

    /// Sends one request with `send` and collects its results, keeping the last successful one and
    /// the first error.
    private func run(
        sql: String, rowCountMax: Int, send: (OpaquePointer) -> Int32
    ) throws(PostgresError) -> PostgresResult {
        guard !isBroken else {
            throw PostgresError(
                kind: .connectionLost, message: "the connection is closed or broken", sql: sql, statementSent: false,
                connectionBroken: true)
        }
        if checksCancellation, Task.isCancelled { throw PostgresError.cancelled(statementSent: false, sql: sql) }
        guard send(handle) == 1 else {
            // libpq refused to dispatch the request, so the server never received it.
            throw PostgresError(
                kind: isBroken ? .connectionLost : .server, message: Self.errorMessage(of: handle), sql: sql,
                statementSent: false, connectionBroken: isBroken)
        }
        var last: PostgresResult?
        var failure: PostgresError?
        var resultCount = 0
        while let result = PQgetResult(handle) {
            defer { PQclear(result) }
            resultCount += 1
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
                guard failure == nil else { continue }
                do { last = try PostgresResult(copying: result, sql: sql, rowCountMax: rowCountMax) } catch { failure = error }
            case PGRES_COPY_IN:
                PQputCopyEnd(handle, "COPY is not supported by this connection")
            case PGRES_FATAL_ERROR, PGRES_BAD_RESPONSE, PGRES_NONFATAL_ERROR:
                if failure == nil { failure = serverError(result, sql: sql) }
            default:
                // COPY OUT and streaming replication never end on their own; the session is given up.
                isPoisoned = true
                failure = failure ?? PostgresError(kind: .server, message: "COPY and replication are not supported", sql: sql)
            }
            if isPoisoned || resultCount >= Self.resultCountMax {
                isPoisoned = true
                break
            }
        }
        if var failure {
            failure.connectionBroken = isBroken
            throw failure
        }
        guard let last, !isBroken else {
            throw PostgresError(
                kind: .connectionLost, message: Self.errorMessage(of: handle), sql: sql, connectionBroken: true)
        }
        return last
    }

    /// The error a failed result carries, its SQLSTATE and its primary message (with the detail).
    private func serverError(_ result: OpaquePointer, sql: String) -> PostgresError {
        let field = { (code: Int32) in PQresultErrorField(result, code).map { String(cString: $0) } }
        let sqlState = field(Int32(CLibPQDiagnosticSQLState))
        var message =
            field(Int32(CLibPQDiagnosticMessagePrimary))
            ?? PQresultErrorMessage(result).map { Self.oneLine(String(cString: $0)) } ?? ""
        if message.isEmpty { message = Self.errorMessage(of: handle) }
        if let detail = field(Int32(CLibPQDiagnosticMessageDetail)) { message += " (\(detail))" }
        // Without a SQLSTATE the error is libpq's own: the connection failed under the statement.
        let kind: PostgresError.Kind = sqlState == nil && isBroken ? .connectionLost : .server
        return PostgresError(
            kind: kind, sqlState: sqlState, message: connectionString.scrubbed(message), sql: sql, connectionBroken: isBroken)
    }

    /// libpq's current message for `connection`, on one line.
    static func errorMessage(of connection: OpaquePointer) -> String {
        let text = PQerrorMessage(connection).map { String(cString: $0) } ?? ""
        let line = oneLine(text)
        return line.isEmpty ? "libpq reported no reason" : line
    }

    /// Whether a failed connect's message names a cause another attempt does not change. libpq
    /// reports no SQLSTATE for a failed connect, so this reads the message: the server's own
    /// (28P01 invalid_password, 28000 invalid_authorization_specification, 3D000 a missing
    /// database) in English, its default, and libpq's about an option it cannot read. A server
    /// whose `lc_messages` is another language makes these `connectFailed`, retried until the
    /// connect timeout as before.
    static func isRejection(_ message: String) -> Bool {
        rejectionPhrases.contains { message.contains($0) }
    }

    /// Phrases of the messages `isRejection` recognises.
    static let rejectionPhrases = [
        "password authentication failed", "authentication failed for user", "no pg_hba.conf entry",
        "does not exist", "invalid integer value", "invalid port number", "invalid sslmode value",
        "invalid connection option", "password is required", "no password supplied",
    ]

    /// libpq's multi-line messages joined with `; `.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// Refuses SQL holding a NUL byte, which libpq would cut the statement at.
    private static func refuseNUL(in sql: String) throws(PostgresError) {
        guard sql.utf8.contains(0) else { return }
        throw PostgresError(kind: .invalidParameter, message: "the SQL holds a NUL byte", sql: sql, statementSent: false)
    }
}
