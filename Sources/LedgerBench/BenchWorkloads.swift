import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import SQLiteFaultVFS
import SQLiteLedgerStore

/// The timed workloads of `ledger-bench`. Each returns operations per second; setup
/// (opening files, signing JWS) is outside the timed part.
enum BenchWorkloads {
    /// A workload ran but did not behave (a grant that did not grant, a JWS that did not verify).
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Bytes appended before each fdatasync in R0.
    static let fsyncBlockByteCount = 1024
    /// Concurrent callers in R4.
    static let concurrentCallerCount = 64
    /// Distinct players the bench's purchases are spread over.
    static let playerCountMax = 50
    /// Distinct signed JWS the R5 verifications cycle through.
    static let signedTransactionCountMax = 32
    /// The App Store bundle ID of the simulated app in R5.
    static let bundleID = "com.kibblestreet.td.bench"

    /// The catalog's one product (`catalogJSON` must agree with these three).
    static let productID = "gems_small"
    /// What one purchase of it grants.
    static let grants = [GrantLine(kind: .currency, id: "gems", quantity: 100)]
    /// Its test-store product ID.
    static let storeProductID = "test.gems_small"

    /// A one-product catalog, so the bench does not depend on the working directory.
    static let catalogJSON = """
        {
          "schemaVersion": 1,
          "currencies": [{ "id": "gems", "name": "Gems", "description": "Premium currency." }],
          "items": [],
          "entitlements": [],
          "products": [
            {
              "id": "gems_small", "name": "Pouch of Gems", "kind": "consumable",
              "storeProductIDs": { "appStore": "com.kibblestreet.td.bench.gems.small", "test": "test.gems_small" },
              "rewards": { "currencies": [{ "id": "gems", "amount": 100 }] }
            }
          ]
        }
        """

    /// R0: append 1 KiB and fdatasync, `count` times, on a new file at `path`; syncs per second.
    static func fsyncCeiling(path: String, count: Int) throws -> Double {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): errno \(errno)") }
        defer {
            close(descriptor)
            unlink(path)
        }
        let block = [UInt8](repeating: 0x5A, count: fsyncBlockByteCount)
        let start = ContinuousClock.now
        for _ in 0..<count {
            let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == block.count else { throw Failure(description: "write to \(path) failed: errno \(errno)") }
            guard dataSync(descriptor) == 0 else { throw Failure(description: "fdatasync \(path) failed: errno \(errno)") }
        }
        return Double(count) / seconds(ContinuousClock.now - start)
    }

    private static func dataSync(_ descriptor: Int32) -> Int32 {
        #if os(Linux)
            fdatasync(descriptor)
        #else
            fsync(descriptor)
        #endif
    }

    /// A ledger on the SQLite file at `path` (created if missing) with no-op verifier and
    /// finisher. R6 skips the open check: a quick check of a multi-gigabyte file the bench
    /// has just written would take minutes and prove nothing. `finishMarkWaitMicrosecondsMax`
    /// replaces the store's default (0: every finish mark commits alone).
    static func ledger(
        path: String, synchronous: SQLiteLedgerStore.Synchronous, openCheck: SQLiteLedgerStore.OpenCheck = .quick,
        vfsName: String? = nil, finishMarkWaitMicrosecondsMax: Int? = nil
    ) throws -> Ledger {
        var options = SQLiteLedgerStore.Options()
        options.synchronous = synchronous
        options.openCheck = openCheck
        options.vfsName = vfsName
        if let finishMarkWaitMicrosecondsMax { options.groupCommit.finishMarkWaitMicrosecondsMax = finishMarkWaitMicrosecondsMax }
        let store = try SQLiteLedgerStore(path: path, options: options)
        return try Ledger(
            catalog: try catalog(), store: store, verifier: BenchVerifier(), finisher: BenchFinisher(),
            configuration: .sandbox)
    }

    /// The bench's catalog, parsed.
    static func catalog() throws -> ProductCatalog { try CatalogLoader.parse(Array(catalogJSON.utf8)) }

    /// `count` new test-store submissions whose IDs start with `prefix`.
    static func submissions(prefix: String, count: Int) -> [TransactionSubmission] {
        (0..<count).map { index in submission(transactionID: "\(prefix)-\(index)", index: index) }
    }

    /// `count` new submissions whose IDs come in key order, as App Store transaction IDs (one
    /// width of digits, rising) mostly do, or at random, as Google Play purchase tokens do.
    /// Indexes start at `first`, so a later batch's keys keep rising after an earlier one's.
    static func submissions(prefix: String, first: Int, count: Int, order: BenchKeyOrder) -> [TransactionSubmission] {
        (first..<(first + count)).map { index in
            switch order {
            case .rising:
                let digits = String(index)
                return submission(transactionID: prefix + String(repeating: "0", count: max(0, 12 - digits.count)) + digits, index: index)
            case .random:
                return submission(transactionID: prefix + BenchKeyOrder.randomHex(index), index: index)
            }
        }
    }

    private static func submission(transactionID: String, index: Int) -> TransactionSubmission {
        TransactionSubmission(
            store: .test, transactionID: transactionID, storeProductID: storeProductID,
            playerID: "player-\(index % playerCountMax)", payload: "{}")
    }

    /// R2 then R3 on one ledger: fulfils `submissions` one after another (all must be
    /// granted), then delivers each again (all must be already fulfilled).
    static func sequential(ledger: Ledger, submissions: [TransactionSubmission]) async throws -> (
        fresh: Double, duplicate: Double
    ) {
        let fresh = try await fulfillments(ledger: ledger, submissions: submissions, expecting: "granted")
        let duplicate = try await fulfillments(ledger: ledger, submissions: submissions, expecting: "alreadyFulfilled")
        return (fresh, duplicate)
    }

    /// Fulfils `submissions` one after another; every outcome must be `status`. Fulfillments per second.
    static func fulfillments(ledger: Ledger, submissions: [TransactionSubmission], expecting status: String) async throws
        -> Double
    {
        try await timed(submissions.count) {
            for submission in submissions { try expect(await ledger.fulfill(submission), status, submission) }
        }
    }

    /// The submission of purchase `index` of the R6 pre-fill's sequence (`LedgerPrefill`'s
    /// hashed transaction ID and player). An index past the pre-fill's count is a new purchase.
    static func prefillSubmission(index: Int, playerCount: Int) -> TransactionSubmission {
        let player = LedgerPrefill.playerNumber(transactionIndex: index, playerCount: playerCount)
        return TransactionSubmission(
            store: .test, transactionID: LedgerPrefill.transactionID(index: index), storeProductID: storeProductID,
            playerID: LedgerPrefill.playerID(number: player), payload: "{}")
    }

    /// The fault VFS the slow-disk runs open their ledgers through, registered once per
    /// process (SQLite keeps a VFS for the life of the process).
    static let slowDisk: Result<SQLiteFaultVFS, SQLiteError> = Result {
        () throws(SQLiteError) -> SQLiteFaultVFS in try SQLiteFaultVFS.register(name: "ledger-bench-slow-disk")
    }

    /// Requests per shared transaction of the ledger's store so far (group commit); 0 if
    /// the store is not SQLite's.
    static func requestsPerTransaction(_ ledger: Ledger) -> Double {
        (ledger.store as? SQLiteLedgerStore)?.groupCommitStatistics.requestsPerTransaction ?? 0
    }

    /// R4: `callerCount` tasks (by default `concurrentCallerCount`) fulfil `submissions`
    /// between them; total fulfillments per second, each outcome `expected` (`granted`, or
    /// `alreadyFulfilled` when the submissions are sent again).
    static func concurrent(
        ledger: Ledger, submissions: [TransactionSubmission], callerCount: Int = concurrentCallerCount,
        expected: String = "granted"
    ) async throws -> Double {
        try await timed(submissions.count) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for caller in 0..<callerCount {
                    group.addTask {
                        for index in stride(from: caller, to: submissions.count, by: callerCount) {
                            try expect(await ledger.fulfill(submissions[index]), expected, submissions[index])
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// Signed App Store transactions and the configuration that trusts their signer, for R5.
    static func signedTransactions(count: Int) throws -> (jws: [String], configuration: AppStoreVerifierConfiguration) {
        let simulator = try AppStoreSimulator(bundleID: bundleID, environment: .sandbox)
        let jws = try (0..<min(count, signedTransactionCountMax)).map { _ in
            try simulator.purchase(productID: "com.kibblestreet.td.bench.gems.small").jws
        }
        let configuration = AppStoreVerifierConfiguration(
            rootCertificates: [simulator.rootCertificateDER], bundleID: bundleID, environment: .sandbox)
        return (jws, configuration)
    }

    /// R5: JWS verifications per second; `cold` builds a new verifier (empty chain cache)
    /// for every verification, warm reuses one whose cache already holds the chain.
    static func verifications(
        jws: [String], configuration: AppStoreVerifierConfiguration, count: Int, cold: Bool
    ) throws -> Double {
        let warm = try SignedDataVerifier(configuration)
        try check(warm.verifyTransaction(jws[0]))
        let start = ContinuousClock.now
        for index in 0..<count {
            let verifier = cold ? try SignedDataVerifier(configuration) : warm
            try check(verifier.verifyTransaction(jws[index % jws.count]))
        }
        return Double(count) / seconds(ContinuousClock.now - start)
    }

    private static func check(_ result: Result<JWSTransactionDecodedPayload, AppStoreVerificationError>) throws {
        if case .failure(let error) = result { throw Failure(description: "R5: a signed transaction failed: \(error)") }
    }

    /// A duration in seconds, never zero.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return max(Double(parts.seconds) + Double(parts.attoseconds) / 1e18, 1e-9)
    }

    private static func timed(_ count: Int, _ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        return Double(count) / seconds(ContinuousClock.now - start)
    }

    /// Throws unless `outcome` is `status`.
    static func expect(_ outcome: FulfillmentOutcome, _ status: String, _ submission: TransactionSubmission) throws {
        guard outcome.name == status else {
            let reason = outcome.rejection.map { ": \($0)" } ?? ""
            throw Failure(description: "\(submission.transactionID): expected \(status), got \(outcome.name)\(reason)")
        }
    }
}
