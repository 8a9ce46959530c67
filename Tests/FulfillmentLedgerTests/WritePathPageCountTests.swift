import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteLedgerStore
import Testing

/// Pages a fulfillment writes, counted rather than timed, so a change that adds a write fails
/// here rather than in a benchmark nobody reran.
///
/// Steady state, schema 6 writes 9 frames per sequential fulfillment (Docs/Performance.md
/// lists them): 7 in the fulfillment's commit (the ledger row, its by-player and pending
/// index entries, the balance, the event and its two index entries) and 2 in the finish mark
/// (the row and its pending index entry), plus a leaf split now and then. The issue's target
/// is 8; this test holds the line at today's figure until a write is removed.
@Suite("write path page counts")
struct WritePathPageCountTests {
    /// Most frames per fulfillment allowed: measured 9.5 over this test's 40 (about 20
    /// before schema 6).
    static let framesPerFulfillmentMax = 10.0
    /// Fulfillments measured: few enough that the WAL never reaches SQLite's automatic
    /// checkpoint (1,000 pages), so its growth counts every frame.
    static let measuredCount = 40
    /// The players the purchases cycle over, as the benchmark's do.
    static let playerCount = 10

    @Test("a sequential fulfillment writes at most 10 WAL frames, and SQLite's counter agrees with the WAL's growth")
    func framesPerSequentialFulfillment() async throws {
        let directory = try LedgerHarness.temporaryDirectory()
        let path = directory.appendingPathComponent("ledger.sqlite").path
        let store = try SQLiteLedgerStore(path: path)
        let harness = try LedgerHarness(store: store, clock: ManualClock(), testStore: TestStore(), databasePath: path)
        // Warm up: every player exists and every table has its first pages before counting.
        for index in 0..<Self.playerCount { try await fulfill(harness, index: index) }
        let walBefore = try walByteCount(path)
        let before = store.writerPageCounters()
        for index in Self.playerCount..<(Self.playerCount + Self.measuredCount) {
            try await fulfill(harness, index: index)
        }
        let pages = store.writerPageCounters().since(before)
        let walFrames = try (walByteCount(path) - walBefore) / Self.frameByteCount(pageSize: 4096)
        let framesPerFulfillment = Double(pages.pagesWritten) / Double(Self.measuredCount)
        #expect(pages.pagesWritten == walFrames, "SQLite's written pages are the WAL's frames")
        #expect(framesPerFulfillment <= Self.framesPerFulfillmentMax, "\(framesPerFulfillment) frames per fulfillment")
        #expect(pages.pagesRead == 0, "a warm writer reads nothing from disk")
    }

    private func fulfill(_ harness: LedgerHarness, index: Int) async throws {
        let purchase = harness.testStore.purchase(
            storeProductID: "test.gems_small", playerID: "player-\(index % Self.playerCount)")
        let outcome = try await harness.ledger.fulfill(purchase)
        guard case .granted = outcome else {
            Issue.record("purchase \(index): \(outcome)")
            return
        }
    }

    private func walByteCount(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    /// A WAL frame: a 24-byte header and one page.
    static func frameByteCount(pageSize: Int) -> Int { 24 + pageSize }
}
