import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

@testable import SQLiteLedgerStore

/// The doctor lists pending finishes a page at a time, says when it cut the list, and counts
/// pending and overdue finishes in full.
@Suite("Ledger doctor: pages of pending finishes")
struct LedgerDoctorPagingTests {
    /// More pending finishes than one report lists.
    static let pendingCount = LedgerDoctor.pendingFinishCountMax + 1

    /// A ledger with `pendingCount` finishes pending, ten queued per second from `Rows.date`
    /// (so many share a time and are ordered by transaction ID).
    static func makeLedger(at path: String) async throws {
        let store = try SQLiteLedgerStore(path: path)
        try await store.write { writer throws(LedgerError) in
            for index in 0..<pendingCount {
                let id = "t-\(index)"
                try writer.insertTransaction(Rows.record(id, fulfilledAt: Rows.date.addingTimeInterval(Double(index / 10))))
            }
        }
        await store.close()
    }

    @Test("1,001 pending finishes: the first report lists 1,000 and says more follow; the next page lists the last")
    func pagesThroughMoreThanOneReport() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        try await Self.makeLedger(at: path)
        // 50 seconds after the first was queued: the 410 rows queued in the first 41 seconds are 10 s old or more.
        let now = Rows.date.addingTimeInterval(50)
        let first = try LedgerDoctor.examine(path: path, now: now, finishWarningAgeSeconds: 10)
        #expect(first.pendingFinishes.count == LedgerDoctor.pendingFinishCountMax)
        #expect(first.pendingFinishCount == Int64(Self.pendingCount))
        #expect(first.pendingFinishesTruncated)
        #expect(first.overdueFinishCount == 410, "overdue finishes are counted in full, listed or not")
        #expect(first.pendingFinishes.filter(\.overdue).count == 410)
        let last = try #require(first.pendingFinishes.last)
        #expect(first.nextAfter == PendingFinishCursor(enqueuedAtMilliseconds: Rows.date.addingTimeInterval(99).ledgerMilliseconds, key: last.key))

        let second = try LedgerDoctor.examine(path: path, now: now, finishWarningAgeSeconds: 10, after: first.nextAfter)
        #expect(second.pendingFinishes.count == 1 && !second.pendingFinishesTruncated && second.nextAfter == nil)
        let listed = Set((first.pendingFinishes + second.pendingFinishes).map(\.key.transactionID))
        #expect(listed == Set((0..<Self.pendingCount).map { "t-\($0)" }), "every row once, none skipped")
    }

    @Test("a smaller limit pages by it; a cursor round-trips through its text form")
    func smallerPages() async throws {
        let directory = try ScratchDirectory()
        let path = directory.path("ledger.sqlite")
        try await Self.makeLedger(at: path)
        var cursor: PendingFinishCursor?
        var seen: [String] = []
        var pages = 0
        repeat {
            let report = try LedgerDoctor.examine(path: path, pendingFinishLimit: 400, after: cursor)
            seen += report.pendingFinishes.map(\.key.transactionID)
            cursor = try report.nextAfter.map { try #require(PendingFinishCursor($0.description)) }
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        #expect(seen.count == Self.pendingCount && Set(seen).count == Self.pendingCount)
    }

    @Test("a limit out of range is refused", arguments: [0, -1, LedgerDoctor.pendingFinishCountMax + 1])
    func limitOutOfRange(limit: Int) throws {
        #expect(throws: LedgerError.self) {
            try LedgerDoctor.examine(path: "unused.sqlite", pendingFinishLimit: limit)
        }
    }

    @Test("cursor text: MILLISECONDS/STORE/ID, the ID may hold slashes; anything else is refused")
    func cursorText() throws {
        let cursor = try #require(PendingFinishCursor("1780000000000/test/a/b"))
        #expect(cursor.enqueuedAtMilliseconds == 1_780_000_000_000 && cursor.key == TransactionKey(store: .test, transactionID: "a/b"))
        #expect(cursor.description == "1780000000000/test/a/b")
        for text in ["", "x/test/t", "1/test", "1//t", "1/test/"] { #expect(PendingFinishCursor(text) == nil, "\(text)") }
        let encoded = try JSONEncoder().encode(cursor)
        #expect(String(decoding: encoded, as: UTF8.self) == #""1780000000000\/test\/a\/b""#)
        #expect(try JSONDecoder().decode(PendingFinishCursor.self, from: encoded) == cursor)
    }
}
