import Foundation
import FulfillmentLedger
import LedgerCommandLine
import SQLiteLedgerStore

/// Memory flatness: resident memory over a long run of sequential fulfillments on a new
/// ledger at synchronous=FULL (the default a game server runs with). Purchases follow
/// R6's sequence: hashed transaction IDs spread over a million players.
struct BenchMemoryFlatness: Encodable {
    /// The target: less growth than this over `targetOperationCount` fulfillments.
    static let targetGrowthBytes: Int64 = 10_000_000
    /// The fulfillments the target is stated for.
    static let targetOperationCount = 1_000_000
    /// The share of the run treated as warm-up (caches filling) before the baseline sample.
    static let warmupFraction = 0.05
    /// Most resident-memory samples taken after the warm-up.
    static let sampleCountMax = 200
    /// Players the purchases are spread over.
    static let playerCount = 1_000_000
    /// Below this many measured fulfillments the extrapolated growth is mostly noise.
    static let meaningfulOperationCountMin = 100_000

    /// Fulfillments run.
    var operationCount: Int
    /// Fulfillments before the baseline sample.
    var warmupOperationCount: Int
    /// The `synchronous` level of the ledger.
    var synchronous: String
    /// Wall time of the whole run.
    var seconds: Double
    /// Fulfillments per second over the whole run.
    var operationsPerSecond: Double
    /// Resident bytes after the warm-up (the baseline).
    var startResidentBytes: Int64
    /// Resident bytes at the end.
    var endResidentBytes: Int64
    /// The highest resident bytes of the periodic samples and the end.
    var peakResidentBytes: Int64
    /// `endResidentBytes - startResidentBytes`.
    var growthBytes: Int64
    /// `peakResidentBytes - startResidentBytes`.
    var peakGrowthBytes: Int64
    /// `growthBytes` scaled linearly to `targetOperationCount` measured fulfillments.
    var growthPerMillionBytes: Int64
    /// The target, in bytes.
    var targetGrowthBytes: Int64
    /// Whether `growthPerMillionBytes` stays under the target.
    var pass: Bool
    /// Whether fewer than `meaningfulOperationCountMin` fulfillments were measured.
    var tooShortToJudge: Bool
    /// The periodic samples after the warm-up, in bytes, oldest first.
    var sampleResidentBytes: [Int64]

    /// Runs `count` fulfillments on a new ledger in `directory`; nil where resident memory
    /// cannot be read. Shows progress on `io`'s stderr when `interactive`.
    static func measure(count: Int, directory: URL, io: CommandIO, interactive: Bool) async throws -> BenchMemoryFlatness? {
        guard BenchResidentMemory.currentBytes() != nil else { return nil }
        let path = directory.appendingPathComponent("memory.sqlite").path
        let ledger = try BenchWorkloads.ledger(path: path, synchronous: .full)
        let warmup = max(1, Int(Double(count) * warmupFraction))
        let sampleInterval = max(1, (count - warmup + sampleCountMax - 1) / sampleCountMax)
        let progressInterval = max(1, count / 1000)
        var start: Int64 = 0
        var samples: [Int64] = []
        let began = ContinuousClock.now
        for index in 0..<count {
            let submission = BenchWorkloads.prefillSubmission(index: index, playerCount: playerCount)
            try BenchWorkloads.expect(await ledger.fulfill(submission), "granted", submission)
            let done = index + 1
            if done == warmup { start = BenchResidentMemory.currentBytes() ?? 0 }
            if done > warmup, (done - warmup) % sampleInterval == 0 {
                samples.append(BenchResidentMemory.currentBytes() ?? 0)
            }
            if interactive, done % progressInterval == 0 {
                io.writeError("\rbench: memory run \(done)/\(count) fulfillments")
            }
        }
        if interactive { io.writeError("\n") }
        let seconds = BenchWorkloads.seconds(ContinuousClock.now - began)
        let end = BenchResidentMemory.currentBytes() ?? 0
        await ledger.store.close()
        return BenchMemoryFlatness(
            count: count, warmup: warmup, seconds: seconds, start: start, end: end, samples: samples)
    }

    init(count: Int, warmup: Int, seconds: Double, start: Int64, end: Int64, samples: [Int64]) {
        operationCount = count
        warmupOperationCount = warmup
        synchronous = SQLiteLedgerStore.Synchronous.full.rawValue
        self.seconds = seconds
        operationsPerSecond = Double(count) / seconds
        startResidentBytes = start
        endResidentBytes = end
        peakResidentBytes = max(end, samples.max() ?? end)
        growthBytes = end - start
        peakGrowthBytes = peakResidentBytes - start
        let measured = max(1, count - warmup)
        growthPerMillionBytes = Int64(Double(growthBytes) * Double(Self.targetOperationCount) / Double(measured))
        targetGrowthBytes = Self.targetGrowthBytes
        pass = growthPerMillionBytes < Self.targetGrowthBytes
        tooShortToJudge = measured < Self.meaningfulOperationCountMin
        sampleResidentBytes = samples
    }

    /// The text report's lines.
    var textLines: [String] {
        let megabytes = { (bytes: Int64) in String(format: "%.1f MB", Double(bytes) / 1e6) }
        var lines = [
            "memory flatness: \(operationCount) fulfillments at \(synchronous) in "
                + String(format: "%.0f s (%.0f/s)", seconds, operationsPerSecond) + ", warm-up \(warmupOperationCount)",
            "  resident after warm-up \(megabytes(startResidentBytes)), at end \(megabytes(endResidentBytes)), "
                + "peak \(megabytes(peakResidentBytes))",
            "  growth \(megabytes(growthBytes)) (peak \(megabytes(peakGrowthBytes))), "
                + "\(megabytes(growthPerMillionBytes)) per million   target < \(megabytes(targetGrowthBytes)) per million   "
                + (pass ? "PASS" : "MISS"),
        ]
        if tooShortToJudge {
            lines.append(
                "  (fewer than \(Self.meaningfulOperationCountMin) fulfillments measured: the verdict is not meaningful)")
        }
        return lines
    }
}
