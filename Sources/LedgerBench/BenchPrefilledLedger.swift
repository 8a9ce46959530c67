import Foundation
import FulfillmentLedger
import LedgerCommandLine
import SQLiteLedgerStore

/// R6: a ledger pre-filled once per run by `LedgerPrefill`. Every repeat opens it, fulfils
/// `count` new purchases on top (R2 on a large ledger) and redelivers `count` pre-filled
/// purchases picked at random (R3 on a large ledger, lookups all over the primary key).
struct BenchPrefilledLedger {
    /// Most players the purchases are spread over.
    static let playerCountMax = 1_000_000
    /// Purchases per player on average, until `playerCountMax` players are reached.
    static let purchasesPerPlayer = 10
    /// Margin on the size estimates in the free-space check; it also covers the WAL of one
    /// pre-fill batch and the files of R0 to R4.
    static let spaceMarginFactor = 1.5
    /// Free space the check leaves for everything else on the disk.
    static let spaceReserveBytes: Int64 = 256 << 20

    /// The pre-filled database.
    let path: String
    /// What the pre-fill wrote and how long it took.
    let summary: LedgerPrefill.Summary
    /// Players the purchases are spread over.
    let playerCount: Int
    /// Purchases per write transaction of the pre-fill.
    let batchRowCount: Int
    /// The sequence index of the next new purchase; starts past the pre-fill's last one.
    private var nextIndex: Int

    /// Bytes a run with these counts needs free in its folder: the pre-filled file and the
    /// memory run's ledger, with the margin and the reserve.
    static func bytesNeeded(prefillCount: Int, memoryCount: Int) -> Int64 {
        let estimate = Double(prefillCount + memoryCount) * Double(LedgerPrefill.fileBytesPerTransactionEstimate)
        return Int64(estimate * spaceMarginFactor) + spaceReserveBytes
    }

    /// Bytes an unprivileged process may still write on the file system holding `url`.
    static func availableBytes(at url: URL) -> Int64? {
        var stats = statvfs()
        guard statvfs(url.path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    /// Creates the ledger at `directory/r6-prefilled.sqlite` through `SQLiteLedgerStore`
    /// (the library's schema and migrations), closes it, and pre-fills `prefillCount`
    /// purchases. Shows progress on `io`'s stderr when `interactive`.
    static func make(directory: URL, prefillCount: Int, io: CommandIO, interactive: Bool) async throws -> BenchPrefilledLedger {
        let path = directory.appendingPathComponent("r6-prefilled.sqlite").path
        // Opened and closed at once: the pre-fill then writes the file with a connection of its own.
        await (try await SQLiteLedgerStore.open(path: path)).close()
        let playerCount = min(playerCountMax, max(1, prefillCount / purchasesPerPlayer))
        let catalog = try BenchWorkloads.catalog()
        var plan = LedgerPrefill.Plan(
            transactionCount: prefillCount, playerCount: playerCount, store: .test, productID: BenchWorkloads.productID,
            storeProductID: BenchWorkloads.storeProductID, environment: .sandbox,
            catalogVersion: catalog.versionHash, grants: BenchWorkloads.grants)
        plan.limit = catalog.product(id: BenchWorkloads.productID)?.limit
        plan.batchRowCount = LedgerPrefill.batchRowCountDefault
        let summary = try LedgerPrefill.run(path: path, plan: plan) { written in
            if interactive { io.writeError("\rbench: R6 pre-fill \(written)/\(prefillCount) purchases") }
        }
        if interactive { io.writeError("\n") }
        return BenchPrefilledLedger(
            path: path, summary: summary, playerCount: playerCount, batchRowCount: plan.batchRowCount,
            nextIndex: prefillCount)
    }

    /// One repeat at `synchronous`: R2 (`count` new purchases) then R3 (`count` random
    /// pre-filled purchases delivered again), each in fulfillments per second.
    mutating func measure(synchronous: SQLiteLedgerStore.Synchronous, count: Int) async throws -> (
        fresh: Double, duplicate: Double
    ) {
        let ledger = try BenchWorkloads.ledger(path: path, synchronous: synchronous, openCheck: .none)
        let fresh = (nextIndex..<nextIndex + count).map { index in
            BenchWorkloads.prefillSubmission(index: index, playerCount: playerCount)
        }
        nextIndex += count
        let old = (0..<count).map { _ in
            BenchWorkloads.prefillSubmission(index: Int.random(in: 0..<summary.transactionCount), playerCount: playerCount)
        }
        let freshRate = try await BenchWorkloads.fulfillments(ledger: ledger, submissions: fresh, expecting: "granted")
        let duplicateRate = try await BenchWorkloads.fulfillments(
            ledger: ledger, submissions: old, expecting: "alreadyFulfilled")
        await ledger.store.close()
        return (freshRate, duplicateRate)
    }
}
