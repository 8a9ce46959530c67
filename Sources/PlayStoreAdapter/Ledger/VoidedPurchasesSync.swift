import Foundation
import FulfillmentLedger

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
    /// Records without a token or voided time; skipped.
    public var skipped = 0
    /// Events the ledger refused, with the reason.
    public var rejected: [String: String] = [:]
    /// The watermark saved (latest voided time seen, milliseconds), if one was saved.
    public var watermarkSaved: Int64?
    /// Whether the page limit stopped the run before the last page; the watermark is not
    /// advanced then, so the next run reads the same window again.
    public var truncated = false

    /// Creates an empty report.
    public init(startTime: Date) { self.startTime = startTime }
}

/// Pulls Google Play's voided purchases (`voidedpurchases.list`) into the ledger as
/// revocation events, the backstop for missed voided-purchase notifications.
///
/// Each run reads from `max(watermark - overlap, now - lookbackMax)` and applies each void
/// as `PlayVoidedEvent.event(for:)`, whose ID is the token plus the voided time, so the
/// overlapping re-read (and a notification of the same void) applies nothing twice. Once
/// every page was read, the latest voided time seen is saved as the sync cursor
/// `playstore.voided`.
public struct VoidedPurchasesSync: Sendable {
    /// The sync cursor holding the watermark, milliseconds since 1970.
    public static let cursorName = "playstore.voided"

    /// The Play Developer API.
    public let api: any PlayPurchasesAPI
    /// The app's package name.
    public let packageName: String
    /// The ledger the events are applied to.
    public let ledger: Ledger
    /// How far before the watermark each run starts reading again, for late-listed voids.
    public var overlapSeconds: TimeInterval
    /// How far back Google lets `startTime` go: 30 days, less a margin for clock skew.
    public var lookbackMaxSeconds: TimeInterval
    /// `maxResults` of each page.
    public var pageSize: Int
    /// Most pages one run reads.
    public var pageCountMax: Int

    /// Default overlap: one day.
    public static let defaultOverlapSeconds: TimeInterval = 24 * 60 * 60
    /// Default lookback: 30 days less 10 minutes.
    public static let defaultLookbackMaxSeconds: TimeInterval = 30 * 24 * 60 * 60 - 10 * 60
    /// Default page size: Google's maximum, 1000.
    public static let defaultPageSize = 1_000
    /// Default page limit.
    public static let defaultPageCountMax = 100

    /// Creates a sync with the default limits.
    public init(api: any PlayPurchasesAPI, packageName: String, ledger: Ledger) {
        self.api = api
        self.packageName = packageName
        self.ledger = ledger
        self.overlapSeconds = Self.defaultOverlapSeconds
        self.lookbackMaxSeconds = Self.defaultLookbackMaxSeconds
        self.pageSize = Self.defaultPageSize
        self.pageCountMax = Self.defaultPageCountMax
    }

    /// Reads every page since the watermark and applies each void once.
    ///
    /// Throws `transactionSourceUnavailable` when a page cannot be read (events applied
    /// before the failure stay applied; the watermark is not moved), `invalidArgument` for
    /// a limit below 1, and storage errors.
    public func run() async throws(LedgerError) -> VoidedSyncReport {
        guard pageSize >= 1, pageCountMax >= 1, overlapSeconds >= 0, lookbackMaxSeconds > 0 else {
            throw LedgerError.invalidArgument("voided sync limits must be positive")
        }
        let now = ledger.clock.now()
        let saved = try ledger.store.read { reader throws(LedgerError) in try reader.syncCursor(name: Self.cursorName) }
        let earliest = now.addingTimeInterval(-lookbackMaxSeconds)
        let watermark = saved.flatMap(Int64.init)
        var start = earliest
        if let watermark { start = max(Date(ledgerMilliseconds: watermark).addingTimeInterval(-overlapSeconds), earliest) }
        var report = VoidedSyncReport(startTime: start)
        var latest = watermark
        var pageToken: String?
        repeat {
            guard report.pagesRead < pageCountMax else {
                report.truncated = true
                return report
            }
            let page: VoidedPurchasesPage
            do {
                page = try await api.voidedPurchases(
                    packageName: packageName, startTime: start, endTime: nil, pageToken: pageToken, maxResults: pageSize)
            } catch {
                throw LedgerError.transactionSourceUnavailable("Google Play voidedpurchases.list failed: \(error)")
            }
            report.pagesRead += 1
            for voided in page.voidedPurchases {
                report.voidedSeen += 1
                guard let event = PlayVoidedEvent.event(for: voided) else {
                    report.skipped += 1
                    continue
                }
                switch try ledger.applyRevocation(event) {
                case .recorded: report.recorded += 1
                case .alreadyRecorded: report.alreadyRecorded += 1
                case .rejected(let rejection): report.rejected[event.eventID] = rejection.description
                }
                let millis = event.eventDate.ledgerMilliseconds
                latest = max(latest ?? millis, millis)
            }
            pageToken = page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
        } while pageToken != nil
        if let latest, latest != watermark {
            try ledger.store.write { writer throws(LedgerError) in
                try writer.setSyncCursor(name: Self.cursorName, value: String(latest))
            }
            report.watermarkSaved = latest
        }
        return report
    }
}
