import Foundation

/// What one `VoidedPurchasesSync.run()` did.
public struct VoidedSyncReport: Hashable, Sendable {
    /// The `startTime` asked for.
    public var startTime: Date
    /// Pages read.
    public var pagesRead = 0
    /// Voided records read.
    public var voidedSeen = 0
    /// Events recorded now (applied, awaiting their purchase, stale or changing nothing).
    public var recorded = 0
    /// Events recorded by an earlier run or a notification; nothing changed now.
    public var alreadyRecorded = 0
    /// Records refused because of what they carry (a missing token or voided time, a time,
    /// quantity or identifier out of range); nothing was applied from them.
    public var skipped = 0
    /// The first `invalidReportedCountMax` reasons of `skipped`.
    public var invalid: [PlayPayloadError] = []
    /// Events recorded now whose `voidedReason` is 8 (`Unacknowledged_purchase`): Google refunded
    /// a purchase nobody acknowledged within 3 days. Each also raises `Ledger.alert`.
    public var unacknowledgedVoids = 0
    /// Events the ledger refused, with the reason.
    public var rejected: [String: String] = [:]
    /// For each purchase a void was applied to now (up to `VoidedPurchasesSync.refundCheckCountMax`),
    /// how the ledger's refunded units compare with Google's `refundableQuantity`.
    public var refundChecks: [String: PlayRefundCheck] = [:]
    /// The watermark saved (latest voided time seen, milliseconds), if one was saved.
    public var watermarkSaved: Int64?
    /// Whether the page limit stopped the run before the last page; the watermark is not
    /// advanced then, so the next run reads the same window again.
    public var truncated = false

    /// Most reasons kept in `invalid`.
    public static let invalidReportedCountMax = 100

    /// Creates an empty report.
    public init(startTime: Date) { self.startTime = startTime }
}
