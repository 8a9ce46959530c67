import Foundation
import FulfillmentLedger

/// What `ledger doctor` reads of a ledger's rows on either engine, inside one read
/// transaction: the records held, one page of pending finishes with their ages, the counts of
/// pending and overdue finishes, and Google Play's unacknowledged refunds. Each engine's doctor
/// adds what only it can check (SQLite's integrity check, PostgreSQL's server settings).
package struct LedgerDoctorContents: Sendable {
    /// Most pending finishes listed in one report; page through more with a cursor.
    package static let pendingFinishCountMax = 1_000

    /// Ledger records held.
    package var transactionCount: Int64
    /// One page of pending finishes, oldest first, with their ages.
    package var pendingFinishes: [PendingFinishAge]
    /// How many finishes are pending in all, listed or not.
    package var pendingFinishCount: Int64
    /// Whether more pending finishes follow this page.
    package var pendingFinishesTruncated: Bool
    /// Where the next page starts, when more follow.
    package var nextAfter: PendingFinishCursor?
    /// How many pending finishes are overdue in all, listed or not.
    package var overdueFinishCount: Int64
    /// Google Play's refunds of purchases not acknowledged in time.
    package var unacknowledgedPlayVoids: UnacknowledgedVoidCount

    /// Refuses a page size out of 1 to `pendingFinishCountMax` with `invalidArgument`, before
    /// anything is opened.
    package static func checkLimit(_ pendingFinishLimit: Int) throws(LedgerError) {
        guard (1...pendingFinishCountMax).contains(pendingFinishLimit) else {
            throw LedgerError.invalidArgument("the pending finish limit must be 1 to \(pendingFinishCountMax)")
        }
    }

    /// Reads the contents through `session`: at most `limit` pending finishes after `cursor`,
    /// overdue past `finishWarningAgeSeconds` at `now`. A ledger whose schema predates the
    /// lean outbox reads its finishes through `queries`; one that predates the refund tables
    /// (`hasRevocationEvents` false) has no refunds to count.
    package init(
        _ session: LedgerReader, now: Date, finishWarningAgeSeconds: Int64, limit: Int, after cursor: PendingFinishCursor?,
        queries: PendingFinishesQueries = .current, hasRevocationEvents: Bool = true
    ) throws(LedgerError) {
        // One more than the page: whether it is there says whether more follow.
        var pending = try session.pendingFinishes(after: cursor, limit: limit + 1, in: queries)
        pendingFinishesTruncated = pending.count > limit
        if pendingFinishesTruncated { pending.removeLast(pending.count - limit) }
        nextAfter = pendingFinishesTruncated ? pending.last.map(PendingFinishCursor.init(after:)) : nil
        transactionCount = try session.transactionCount()
        let cutoff = PendingFinishAge.overdueCutoffMilliseconds(now: now, warningAgeSeconds: finishWarningAgeSeconds)
        (pendingFinishCount, overdueFinishCount) = try session.pendingFinishCounts(enqueuedAtOrBefore: cutoff, in: queries)
        pendingFinishes = pending.map { PendingFinishAge($0, now: now, cutoffMilliseconds: cutoff) }
        unacknowledgedPlayVoids =
            hasRevocationEvents ? try session.unacknowledgedVoidCount(now: now) : UnacknowledgedVoidCount(count: 0, latestAt: nil)
    }
}
