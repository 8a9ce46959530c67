import Dispatch
import FulfillmentLedger
import Foundation
import PostgresLedgerStore
import Synchronization

/// The PostgreSQL benchmark's baseline: every statement one fulfillment sends, recorded from the
/// store itself and replayed on bare libpq connections, with nothing of the ledger around them.
///
/// A pilot fulfillment runs through a `Ledger` on `PostgresLedgerStore` with the store's statement
/// tap on; the tap records each statement as sent (`BEGIN ISOLATION LEVEL SERIALIZABLE`, `SET LOCAL
/// synchronous_commit = off` for the finish mark, the look-ups, the atomic credit, the ledger row,
/// the event, `COMMIT`), with its parameters. A replay sends the same statements, prepared once per
/// connection as the store's are, with the pilot's transaction and player IDs swapped for new ones.
/// So the baseline runs exactly the store's SQL with exactly its settings, and P1/P2 is what the
/// ledger, its pipeline and the pool cost on top of them. After a run the schema is checked to hold
/// exactly the rows the ledger would have left.
struct RawPostgresLedgerWork: Sendable {
    /// The pilot's transaction ID; no statement's SQL may contain it, only its parameters.
    static let pilotTransactionID = "pg-raw-pilot-transaction"
    /// Most statements one recorded fulfillment may send (the ledger sends about 15).
    static let statementCountMax = 64

    /// One part of a recorded text parameter: text kept as it was, or where the pilot's
    /// transaction or player ID stood.
    enum Piece: Sendable {
        case literal(String)
        case transactionID
        case playerID
    }

    /// The recorded statements of one fulfillment, in order.
    let statements: [PostgresStatementTap.Statement]
    /// For each statement, each parameter: nil where it is sent as recorded, else its pieces.
    /// Cut once when recording, so a replay only joins strings (searching and replacing in every
    /// parameter of every replayed statement would cost the baseline more than the ledger pays).
    let templates: [[[Piece]?]]

    init(statements: [PostgresStatementTap.Statement], pilotPlayerID: String) {
        self.statements = statements
        templates = statements.map { statement in
            statement.parameters.map { value in
                guard case .text(let text) = value else { return nil }
                let pieces = Self.pieces(text, [(Self.pilotTransactionID, .transactionID), (pilotPlayerID, .playerID)])
                if pieces.count == 1, case .literal = pieces[0] { return nil }
                return pieces
            }
        }
    }

    /// `text` cut at every occurrence of each marker, first markers first.
    static func pieces(_ text: String, _ markers: [(String, Piece)]) -> [Piece] {
        guard let (marker, piece) = markers.first else { return text.isEmpty ? [] : [.literal(text)] }
        var result: [Piece] = []
        var rest = Substring(text)
        while let range = rest.range(of: marker) {
            result += pieces(String(rest[..<range.lowerBound]), Array(markers.dropFirst()))
            result.append(piece)
            rest = rest[range.upperBound...]
        }
        return result + pieces(String(rest), Array(markers.dropFirst()))
    }

    /// Records the statements of one fulfillment of the bench's product by `pilotPlayerID` on
    /// `store` (a new ledger's, whose players the caller has already made).
    static func record(store: PostgresLedgerStore, ledger: Ledger, pilotPlayerID: String) async throws -> RawPostgresLedgerWork {
        let recorded = Mutex<[PostgresStatementTap.Statement]>([])
        store.statementTap.setHandler { statement in recorded.withLock { $0.append(statement) } }
        let submission = pilotSubmission(playerID: pilotPlayerID)
        let outcome: FulfillmentOutcome
        do {
            outcome = try await ledger.fulfill(submission)
            store.statementTap.setHandler(nil)
        } catch {
            store.statementTap.setHandler(nil)
            throw error
        }
        try BenchWorkloads.expect(outcome, "granted", submission)
        let statements = recorded.withLock { $0 }
        guard (1...statementCountMax).contains(statements.count) else {
            throw BenchWorkloads.Failure(description: "P1: the pilot fulfillment sent \(statements.count) statements")
        }
        for statement in statements
        where statement.sql.contains(pilotTransactionID) || statement.sql.contains(pilotPlayerID) {
            throw BenchWorkloads.Failure(description: "P1: a statement's SQL holds the pilot's IDs: \(statement.sql)")
        }
        let carriesIDs = statements.contains { $0.parameters.contains(.text(pilotTransactionID)) }
        guard carriesIDs else {
            throw BenchWorkloads.Failure(description: "P1: no statement of the pilot bound its transaction ID")
        }
        return RawPostgresLedgerWork(statements: statements, pilotPlayerID: pilotPlayerID)
    }

    /// The pilot fulfillment's submission.
    static func pilotSubmission(playerID: String) -> TransactionSubmission {
        TransactionSubmission(
            store: .test, transactionID: pilotTransactionID, storeProductID: BenchWorkloads.storeProductID,
            playerID: playerID, payload: "{}")
    }

    /// The statements of fulfillment `transactionID` by `playerID`: the pilot's, with its IDs swapped.
    func statements(transactionID: String, playerID: String) -> [PostgresStatementTap.Statement] {
        zip(statements, templates).map { statement, template in
            var swapped = statement
            for (offset, pieces) in template.enumerated() {
                guard let pieces else { continue }
                var text = ""
                for piece in pieces {
                    switch piece {
                    case .literal(let literal): text += literal
                    case .transactionID: text += transactionID
                    case .playerID: text += playerID
                    }
                }
                swapped.parameters[offset] = .text(text)
            }
            return swapped
        }
    }

    /// Replays the fulfillments `indexes` (transaction `prefix-i`, player `player-(i mod 50)`)
    /// one after another on a new connection to `connectionString`, blocking the calling thread.
    /// As the store does, a transaction the server failed as a conflict (40001, 40P01) runs again
    /// from BEGIN after the store's pause, as often as the store would; returns how many ran again.
    func replay(connectionString: String, prefix: String, indexes: StrideTo<Int>) throws -> Int {
        let connection = try PostgresConnection(connectionString: PostgresConnectionString(connectionString))
        defer { connection.close() }
        var retryCount = 0
        for index in indexes {
            let playerID = "player-\(index % BenchWorkloads.playerCountMax)"
            for transaction in Self.transactions(statements(transactionID: "\(prefix)-\(index)", playerID: playerID)) {
                retryCount += try Self.run(transaction, on: connection)
            }
        }
        return retryCount
    }

    /// The store's retries of a conflicting transaction: as many, after the same random pauses.
    static let retryPolicy = WriteRetryPolicy(
        retryCountMax: PostgresLedgerStore.Options(connectionString: "").transactionRetryCountMax,
        pauseMillisecondsBase: PostgresConnectionPool.retryBackoffMillisecondsBase,
        pauseMillisecondsMax: PostgresConnectionPool.retryBackoffMillisecondsMax, jitter: true)

    /// Runs one transaction's statements, again from the start after a conflict; the retries.
    private static func run(_ transaction: [PostgresStatementTap.Statement], on connection: PostgresConnection) throws -> Int {
        var attempt = 0
        while true {
            do throws(PostgresError) {
                for statement in transaction {
                    if statement.isPrepared {
                        try connection.query(statement.sql, statement.parameters)
                    } else {
                        try connection.execute(statement.sql)
                    }
                }
                return attempt
            } catch {
                connection.rollbackIfOpen()
                guard error.isRetryable, error.sqlState != nil, attempt < Self.retryPolicy.retryCountMax else { throw error }
                attempt += 1
                let pauseMilliseconds = Int.random(in: 0...Self.retryPolicy.pauseCeilingMilliseconds(retry: attempt))
                usleep(UInt32(pauseMilliseconds * 1000))
            }
        }
    }

    /// `statements` cut into transactions: each from its BEGIN to the statement after which no
    /// transaction is open (its COMMIT).
    static func transactions(_ statements: [PostgresStatementTap.Statement]) -> [[PostgresStatementTap.Statement]] {
        var transactions: [[PostgresStatementTap.Statement]] = [[]]
        for statement in statements {
            transactions[transactions.count - 1].append(statement)
            if !statement.isPrepared && (statement.sql == "COMMIT" || statement.sql == "ROLLBACK") { transactions.append([]) }
        }
        return transactions.filter { !$0.isEmpty }
    }

    /// Replays `count` fulfillments on `connectionCount` connections at once, each on its own
    /// thread, and returns fulfillments per second. One connection is the sequential baseline.
    func run(connectionString: String, prefix: String, count: Int, connectionCount: Int) async throws -> (
        rate: Double, retryCount: Int
    ) {
        precondition(count >= 1 && connectionCount >= 1, "a replay needs a fulfillment and a connection")
        let start = ContinuousClock.now
        let failures = Mutex<[String]>([])
        let retries = Atomic<Int>(0)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: connectionCount) { lane in
                    do {
                        let laneRetries = try replay(
                            connectionString: connectionString, prefix: prefix,
                            indexes: stride(from: lane, to: count, by: connectionCount))
                        retries.add(laneRetries, ordering: .relaxed)
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
                continuation.resume()
            }
        }
        let elapsed = ContinuousClock.now - start
        if let failure = failures.withLock({ $0.first }) {
            throw BenchWorkloads.Failure(description: "P1: a replayed statement failed: \(failure)")
        }
        return (Double(count) / BenchWorkloads.seconds(elapsed), retries.load(ordering: .relaxed))
    }

    /// Throws unless the ledger in the schema at `connectionString` holds `transactionCount`
    /// finished purchases, one event each, and the gems they grant: what `transactionCount`
    /// fulfillments through the ledger leave.
    static func check(connectionString: String, transactionCount: Int) throws {
        let connection = try PostgresConnection(connectionString: PostgresConnectionString(connectionString))
        defer { connection.close() }
        let sql = """
            SELECT (SELECT count(*) FROM ledger_transactions),
                   (SELECT count(*) FROM ledger_transactions WHERE finished_at_ms IS NULL),
                   (SELECT count(*) FROM events),
                   (SELECT coalesce(sum(amount), 0) FROM balances)
            """
        guard let row = try connection.queryOne(sql) else {
            throw BenchWorkloads.Failure(description: "P1: the check read no row")
        }
        let found = try (0..<4).map { (index) throws(PostgresError) in try row.int64(index) }
        let gemsEach = BenchWorkloads.grants.reduce(0) { $0 + $1.quantity }
        let expected = [Int64(transactionCount), 0, Int64(transactionCount), Int64(transactionCount) * gemsEach]
        guard found == expected else {
            throw BenchWorkloads.Failure(
                description: "P1: the replay left (purchases, pending, events, gems) \(found), the ledger leaves \(expected)")
        }
    }
}
