import Foundation
import FulfillmentLedger

/// What one `SteamReportSync.run()` did.
public struct SteamReportSyncReport: Hashable, Sendable, Encodable {
    /// The first `time` asked for.
    public var startTime: Date
    /// GetReport calls made.
    public var pagesRead = 0
    /// Orders read (an order listed again at the next call's start time counts once).
    public var ordersSeen = 0
    /// Items Steam charged that the ledger granted now: a crash between FinalizeTxn and the grant,
    /// recovered.
    public var granted = 0
    /// Items Steam charged that the ledger already held.
    public var alreadyFulfilled = 0
    /// Items the pipeline refused, with the reason (the first `rejectedReportedCountMax`).
    public var rejected: [String: String] = [:]
    /// Orders the player authorised that were never finalised (`Approved`): nothing was charged and
    /// nothing is granted; the game's next `authorize` call finalises them, or Steam lets them lapse.
    public var awaitingFinalize = 0
    /// Orders whose buyer `playerResolver` did not name: nothing granted (their order IDs).
    public var unassigned: [String] = []
    /// Take-backs (refunds, chargebacks, fraud refunds) recorded now.
    public var revocationsRecorded = 0
    /// Take-backs recorded by an earlier run.
    public var revocationsAlreadyRecorded = 0
    /// Take-backs the ledger refused, with the reason.
    public var revocationsRejected: [String: String] = [:]
    /// Orders skipped: order ID 0 (a subscription started from the Steam store, which the ledger
    /// does not sell), more items than an order of the ledger's can have
    /// (`SteamOrderRequest.lineCountMax`), or a time out of range.
    public var skipped = 0
    /// The watermark saved (the latest update time read, or where a first run read from,
    /// milliseconds), if one was saved.
    public var watermarkSaved: Int64?
    /// Whether the page limit stopped the run; the watermark then moves only as far as was read.
    public var truncated = false

    /// Most reasons kept in `rejected` and `revocationsRejected`, and order IDs in `unassigned`.
    public static let rejectedReportedCountMax = 100

    /// Creates an empty report.
    public init(startTime: Date) { self.startTime = startTime }
}
