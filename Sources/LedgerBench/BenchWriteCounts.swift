import Foundation
import FulfillmentLedger
import SQLiteFaultVFS
import SQLiteLedgerStore

/// What one sequential fulfillment costs on a fresh ledger at FULL, counted rather than timed,
/// so the figures do not move with machine noise: WAL frames written, pages read and sync
/// calls, for keys in order and at random, and, under callgrind where valgrind is installed,
/// instructions (`BenchInstructions`).
struct BenchWriteCounts: Encodable {
    /// The counts of one run of sequential fulfillments.
    struct Figures: Encodable {
        /// How the run's keys arrived.
        var keyOrder: BenchKeyOrder
        /// Whether finish marks were carried into the next transaction (the default) or each
        /// committed alone (`finishMarkWaitMicrosecondsMax` 0).
        var carriesFinishMarks: Bool
        /// Pages the writing connection wrote (`SQLITE_DBSTATUS_CACHE_WRITE`): WAL frames.
        var framesPerFulfillment: Double
        /// Pages it read from disk (`SQLITE_DBSTATUS_CACHE_MISS`).
        var pagesReadPerFulfillment: Double
        /// `xSync` calls, counted by a pass-through fault VFS.
        var syncsPerFulfillment: Double
        /// Finish marks that rode in the next grant's transaction, per fulfillment (1 when every
        /// mark shared one; the rest waited out `finishMarkWaitMicrosecondsMax` and committed alone).
        var sharedFinishMarksPerFulfillment: Double
    }

    /// The lean write path's target for frames per fulfillment.
    static let framesPerFulfillmentTarget = 8.0
    /// Fulfillments counted in each run, after a warm-up that gives every player its rows.
    var fulfillmentCount: Int
    /// Keys in order (App Store transaction IDs): WAL frames per fulfillment.
    var framesPerFulfillment: Double
    /// Keys in order: pages read from disk per fulfillment.
    var pagesReadPerFulfillment: Double
    /// Keys in order: sync calls per fulfillment.
    var syncsPerFulfillment: Double
    /// Keys in order: finish marks that rode in the next grant's transaction, per fulfillment.
    var sharedFinishMarksPerFulfillment: Double
    /// The same counts with keys at random (Google Play purchase tokens).
    var randomKeys: Figures
    /// Keys in order with every finish mark committed alone, as before marks were carried.
    var marksAlone: Figures
    /// Instructions per fulfillment under callgrind, through the ledger and bare, or why there
    /// are none (no valgrind, or a run in-process).
    var instructions: BenchSection<BenchInstructions>

    /// The pass-through VFS the counted ledger opens through, registered once per process.
    static let countingVFS: Result<SQLiteFaultVFS, SQLiteError> = Result {
        () throws(SQLiteError) -> SQLiteFaultVFS in try SQLiteFaultVFS.register(name: "ledger-bench-counting")
    }

    /// Counts `count` sequential fulfillments on a new ledger in `directory`, once with keys in
    /// order and once at random.
    static func measure(directory: URL, count: Int) async throws -> BenchWriteCounts {
        let rising = try await measure(directory: directory, count: count, order: .rising)
        let random = try await measure(directory: directory, count: count, order: .random)
        let alone = try await measure(directory: directory, count: count, order: .rising, carriesFinishMarks: false)
        return BenchWriteCounts(
            fulfillmentCount: count, framesPerFulfillment: rising.framesPerFulfillment,
            pagesReadPerFulfillment: rising.pagesReadPerFulfillment, syncsPerFulfillment: rising.syncsPerFulfillment,
            sharedFinishMarksPerFulfillment: rising.sharedFinishMarksPerFulfillment, randomKeys: random, marksAlone: alone,
            instructions: .absent("not measured"))
    }

    /// Counts `count` sequential fulfillments whose keys arrive in `order`, on a new ledger.
    private static func measure(
        directory: URL, count: Int, order: BenchKeyOrder, carriesFinishMarks: Bool = true
    ) async throws -> Figures {
        let vfs = try countingVFS.get()
        let path = directory.appendingPathComponent("counted-\(order.rawValue)-\(UUID().uuidString).sqlite").path
        let ledger = try BenchWorkloads.ledger(
            path: path, synchronous: .full, vfsName: vfs.name, finishMarkWaitMicrosecondsMax: carriesFinishMarks ? nil : 0)
        guard let store = ledger.store as? SQLiteLedgerStore else { throw BenchWorkloads.Failure(description: "not a SQLite ledger") }
        let warmUp = BenchWorkloads.submissions(
            prefix: "counted-", first: 0, count: BenchWorkloads.playerCountMax, order: order)
        _ = try await BenchWorkloads.fulfillments(ledger: ledger, submissions: warmUp, expecting: "granted")
        let pagesBefore = store.writerPageCounters()
        let syncsBefore = vfs.callCount(.sync)
        let sharedBefore = store.groupCommitStatistics.sharedFinishMarkCount
        let counted = BenchWorkloads.submissions(
            prefix: "counted-", first: BenchWorkloads.playerCountMax, count: count, order: order)
        _ = try await BenchWorkloads.fulfillments(ledger: ledger, submissions: counted, expecting: "granted")
        let pages = store.writerPageCounters().since(pagesBefore)
        let perFulfillment = { (total: Int) in Double(total) / Double(count) }
        let figures = Figures(
            keyOrder: order, carriesFinishMarks: carriesFinishMarks, framesPerFulfillment: perFulfillment(pages.pagesWritten),
            pagesReadPerFulfillment: perFulfillment(pages.pagesRead),
            syncsPerFulfillment: perFulfillment(vfs.callCount(.sync) - syncsBefore),
            sharedFinishMarksPerFulfillment: perFulfillment(store.groupCommitStatistics.sharedFinishMarkCount - sharedBefore))
        await store.close()
        return figures
    }

    /// The text report's lines.
    var textLines: [String] {
        let verdict = { (frames: Double) in frames <= Self.framesPerFulfillmentTarget ? "PASS" : "MISS" }
        var lines = [
            "per sequential fulfillment at FULL on a fresh ledger (\(fulfillmentCount) counted), keys in order / at random:",
            String(format: "  WAL frames written  %8.2f / %5.2f   target <= %.0f   %@ / %@", framesPerFulfillment,
                   randomKeys.framesPerFulfillment, Self.framesPerFulfillmentTarget, verdict(framesPerFulfillment),
                   verdict(randomKeys.framesPerFulfillment)),
            String(format: "  pages read          %8.2f / %5.2f", pagesReadPerFulfillment, randomKeys.pagesReadPerFulfillment),
            String(format: "  sync calls          %8.2f / %5.2f", syncsPerFulfillment, randomKeys.syncsPerFulfillment),
            String(format: "  finish marks shared %8.2f / %5.2f   (rode in the next grant's commit)", sharedFinishMarksPerFulfillment,
                   randomKeys.sharedFinishMarksPerFulfillment),
            String(format: "  with every mark committed alone (keys in order): %.2f frames, %.2f syncs",
                   marksAlone.framesPerFulfillment, marksAlone.syncsPerFulfillment),
        ]
        switch instructions {
        case .measured(let figures): lines += figures.textLines
        case .absent(let reason): lines.append("  instructions        not measured: \(reason)")
        }
        return lines
    }
}
