import Foundation
import FulfillmentLedger
import LedgerHTTP
import LedgerHTTPServer
import Synchronization

/// The HTTP load run: purchases from `clientCount` blocking HTTP/1.1 clients, each on its own
/// thread, through `LedgerHTTPHandler` on `LedgerHTTPServer` at 127.0.0.1, on a fresh ledger at
/// FULL; then the ledger is read back to check that each purchase was granted exactly once.
/// Right before it, the same purchase count from as many in-process callers on another fresh
/// ledger gives the figure HTTP is compared with. Then every purchase is sent again, over HTTP
/// and in process (duplicates: each answered `alreadyFulfilled`), and, when nginx is installed,
/// the same clients send the same bodies to nginx's fixed answer: the loopback ceiling.
enum BenchHTTPLoad {
    /// Concurrent HTTP clients, and in-process callers of the comparison run.
    static let clientCount = 32
    /// Every purchase whose index ends this interval is sent a second time right after.
    static let duplicateInterval = 10
    /// Distinct players the purchases are spread over.
    static let playerCount = 1_000
    /// Products the exactly-once check reads sale counts for (the catalog has one).
    static let saleCountLimit = 16
    /// Connections the server serves at once: room for every client and a reconnect each.
    static let connectionCountMax = 2 * clientCount

    /// Runs the in-process comparison then the HTTP run, of `count` purchases each, on fresh
    /// ledgers in `directory`; the server closes a connection after `requestCountPerConnectionMax`
    /// requests (its default unless a test makes the clients reconnect). Throws if any answer is
    /// not the one expected or the ledger does not hold each purchase exactly once.
    /// `ceiling` runs the nginx comparison when nginx is installed.
    static func measure(
        count: Int, directory: URL,
        requestCountPerConnectionMax: Int = LedgerHTTPServerLimits().requestCountPerConnectionMax, ceiling: Bool = true
    ) async throws -> BenchHTTPLoadFigures {
        let inProcessLedger = try BenchWorkloads.ledger(
            path: directory.appendingPathComponent("http-in-process.sqlite").path, synchronous: .full)
        let inProcessSubmissions = submissions(prefix: "inproc", count: count)
        let inProcess = try await BenchWorkloads.concurrent(
            ledger: inProcessLedger, submissions: inProcessSubmissions, callerCount: clientCount)
        let inProcessDuplicates = try await BenchWorkloads.concurrent(
            ledger: inProcessLedger, submissions: inProcessSubmissions, callerCount: clientCount, expected: "alreadyFulfilled")
        await inProcessLedger.store.close()

        let ledger = try BenchWorkloads.ledger(path: directory.appendingPathComponent("http.sqlite").path, synchronous: .full)
        let handler = LedgerHTTPHandler(ledger: ledger)
        let limits = LedgerHTTPServerLimits(
            bodyByteCountMax: handler.bodyByteCountMax, connectionCountMax: connectionCountMax,
            requestCountPerConnectionMax: requestCountPerConnectionMax)
        let server = LedgerHTTPServer(configuration: LedgerHTTPServerConfiguration(limits: limits)) { request in
            await handler.handle(request)
        }
        let port = try server.start()
        let bodies = try submissions(prefix: "http", count: count).map(body)
        let run: (seconds: Double, connectionCount: Int)
        let duplicateRun: (seconds: Double, connectionCount: Int)
        do {
            run = try await onOwnThread { try BenchHTTPLoadClients(port: port, bodies: bodies).run() }
            duplicateRun = try await onOwnThread {
                try BenchHTTPLoadClients(port: port, bodies: bodies, expectation: .duplicates).run()
            }
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        let loopbackCeiling: BenchSection<Double> =
            ceiling ? try await BenchNginxCeiling.measure(bodies: bodies, directory: directory) : .absent("skipped")

        let (recordCount, gems) = try await exactlyOnceFigures(ledger, count: count)
        await ledger.store.close()
        let duplicates = duplicateCount(count)
        let httpRate = Double(count) / run.seconds
        let httpDuplicateRate = Double(count) / duplicateRun.seconds
        return BenchHTTPLoadFigures(
            purchaseCount: count, duplicateCount: duplicates, clientCount: clientCount, requestCount: count + duplicates,
            connectionCount: run.connectionCount, seconds: run.seconds, httpPurchasesPerSecond: httpRate,
            httpRequestsPerSecond: Double(count + duplicates) / run.seconds, inProcessPurchasesPerSecond: inProcess,
            httpOverInProcess: httpRate / max(inProcess, .leastNonzeroMagnitude),
            httpDuplicatesPerSecond: httpDuplicateRate, inProcessDuplicatesPerSecond: inProcessDuplicates,
            httpDuplicatesOverInProcess: httpDuplicateRate / max(inProcessDuplicates, .leastNonzeroMagnitude),
            loopbackCeilingRequestsPerSecond: loopbackCeiling,
            httpOverLoopbackCeiling: loopbackCeiling.figures.map { httpRate / max($0, .leastNonzeroMagnitude) },
            recordCount: recordCount, gemsGranted: gems, exactlyOnce: true)
    }

    /// Whether purchase `index` is sent a second time.
    static func isDuplicated(_ index: Int) -> Bool { index % duplicateInterval == duplicateInterval - 1 }

    /// How many of `count` purchases are sent twice.
    static func duplicateCount(_ count: Int) -> Int { count / duplicateInterval }

    /// `count` test-store purchases with distinct transaction IDs, spread over `playerCount` players.
    static func submissions(prefix: String, count: Int) -> [TransactionSubmission] {
        (0..<count).map { index in
            TransactionSubmission(
                store: .test, transactionID: "\(prefix)-\(index)", storeProductID: BenchWorkloads.storeProductID,
                playerID: playerID(index % playerCount), payload: "{}")
        }
    }

    /// The ID of player `number`.
    static func playerID(_ number: Int) -> String { "http-player-\(number)" }

    /// The `POST /purchases` body of a test-store purchase.
    static func body(_ submission: TransactionSubmission) throws -> [UInt8] {
        let object = [
            "store": "test", "transactionID": submission.transactionID, "productID": submission.storeProductID,
            "playerID": submission.playerID,
        ]
        return Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// The ledger's records and the players' gems; throws unless there is one record per
    /// purchase and the gems of exactly one grant each.
    static func exactlyOnceFigures(_ ledger: Ledger, count: Int) async throws -> (recordCount: Int, gems: Int64) {
        let players = (0..<min(count, playerCount)).map(playerID)
        let (sales, gems) = try await ledger.store.read { reader throws(LedgerError) in
            let sales = try reader.saleCountsByProduct(limit: saleCountLimit)
            var gems: Int64 = 0
            for player in players { gems += try reader.balances(playerID: player)["gems"] ?? 0 }
            return (sales, gems)
        }
        let records = sales.values.reduce(0, +)
        let gemsPerPurchase = BenchWorkloads.grants.filter { $0.kind == .currency && $0.id == "gems" }.map(\.quantity)
            .reduce(0, +)
        guard records == count, sales[BenchWorkloads.productID] == count else {
            throw BenchWorkloads.Failure(description: "HTTP load: \(count) purchases left records \(sales)")
        }
        guard gems == Int64(count) * gemsPerPurchase else {
            throw BenchWorkloads.Failure(
                description: "HTTP load: \(count) purchases granted \(gems) gems, not \(Int64(count) * gemsPerPurchase)")
        }
        return (records, gems)
    }

    /// Runs `body`, which blocks, on a thread of its own, so no thread of Swift's concurrency
    /// pool waits on a socket or a semaphore.
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
