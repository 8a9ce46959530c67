import Foundation
import FulfillmentLedger

/// Pulls Google Play's voided purchases (`voidedpurchases.list`, quantity-based partial
/// refunds included) into the ledger as revocation events, the backstop for missed or
/// unconfirmed voided-purchase notifications.
///
/// Each run reads from `max(watermark - overlap, now - lookbackMax)` and applies each void
/// as `PlayVoidedEvent.event(for:)`, whose ID is the token plus the voided time (and the order
/// ID for a partial refund), so the overlapping re-read (and a notification of the same void)
/// applies nothing twice. Once every page was read, the latest voided time seen is saved as
/// the sync cursor `playstore.voided`. Every purchase a void was applied to is then checked
/// against Google's `refundableQuantity` (`PlayRefundCheck`).
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
    /// Most purchases checked against `refundableQuantity` in one run (one API call each).
    public var refundCheckCountMax: Int

    /// Default overlap: one day.
    public static let defaultOverlapSeconds: TimeInterval = 24 * 60 * 60
    /// Default lookback: 30 days less 10 minutes.
    public static let defaultLookbackMaxSeconds: TimeInterval = 30 * 24 * 60 * 60 - 10 * 60
    /// Default page size: Google's maximum, 1000.
    public static let defaultPageSize = 1_000
    /// Default page limit.
    public static let defaultPageCountMax = 100
    /// Default refund-check limit.
    public static let defaultRefundCheckCountMax = 100

    /// Creates a sync with the default limits.
    public init(api: any PlayPurchasesAPI, packageName: String, ledger: Ledger) {
        self.api = api
        self.packageName = packageName
        self.ledger = ledger
        self.overlapSeconds = Self.defaultOverlapSeconds
        self.lookbackMaxSeconds = Self.defaultLookbackMaxSeconds
        self.pageSize = Self.defaultPageSize
        self.pageCountMax = Self.defaultPageCountMax
        self.refundCheckCountMax = Self.defaultRefundCheckCountMax
    }

    /// Reads every page since the watermark and applies each void once.
    ///
    /// Throws `transactionSourceUnavailable` when a page cannot be read (events applied
    /// before the failure stay applied; the watermark is not moved), `invalidArgument` for
    /// a limit below 1, and storage errors.
    public func run() async throws(LedgerError) -> VoidedSyncReport {
        guard pageSize >= 1, pageCountMax >= 1, overlapSeconds >= 0, lookbackMaxSeconds > 0, refundCheckCountMax >= 0 else {
            throw LedgerError.invalidArgument("voided sync limits must be positive")
        }
        let now = ledger.clock.now()
        // A cursor that is not a time in range (a hand-edited or damaged row) is ignored: the
        // run then reads the whole lookback again, which applies nothing twice.
        let saved = try await ledger.syncCursor(name: Self.cursorName)
        let watermark = saved.flatMap(Int64.init).flatMap { Date.ledgerMillisecondsRange.contains($0) ? $0 : nil }
        let earliest = now.addingTimeInterval(-lookbackMaxSeconds)
        var start = earliest
        if let watermark { start = max(Date(ledgerMilliseconds: watermark).addingTimeInterval(-overlapSeconds), earliest) }
        start = min(start, now)
        var report = VoidedSyncReport(startTime: start)
        var latest = watermark
        var applied: [String] = []
        var pageToken: String?
        repeat {
            guard report.pagesRead < pageCountMax else {
                report.truncated = true
                break
            }
            let page: VoidedPurchasesPage
            do {
                page = try await api.voidedPurchases(
                    packageName: packageName, startTime: start, endTime: nil, pageToken: pageToken, maxResults: pageSize,
                    includeQuantityBasedPartialRefund: true, includeSubscriptions: true)
            } catch {
                throw LedgerError.transactionSourceUnavailable("Google Play voidedpurchases.list failed: \(error)")
            }
            report.pagesRead += 1
            for voided in page.voidedPurchases {
                let isPeriod = try await PlayVoidedEvent.isSubscriptionPeriod(
                    voided, in: ledger, api: api, packageName: packageName)
                guard let (event, appliedNow) = try await apply(voided, subscriptionPeriod: isPeriod, to: &report) else {
                    continue
                }
                // Google's refundable count is kept for one-time products only.
                if appliedNow, !isPeriod, !applied.contains(event.transactionID) { applied.append(event.transactionID) }
                let millis = event.eventDate.ledgerMilliseconds
                latest = max(latest ?? millis, millis)
            }
            pageToken = page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
        } while pageToken != nil
        if !report.truncated, let latest, latest != watermark {
            try await ledger.saveSyncCursor(name: Self.cursorName, value: String(latest))
            report.watermarkSaved = latest
        }
        let checker = PlayRefundChecker(api: api, packageName: packageName, ledger: ledger)
        for token in applied.prefix(refundCheckCountMax) {
            report.refundChecks[token] = try await checker.check(token: token)
        }
        return report
    }

    /// Applies one record, counting it in `report`: its event and whether it changed the
    /// player now, or nil when the record was refused before an event could be built.
    private func apply(_ voided: VoidedPurchase, subscriptionPeriod: Bool, to report: inout VoidedSyncReport)
        async throws(LedgerError) -> (RevocationEvent, Bool)?
    {
        report.voidedSeen += 1
        let event: RevocationEvent
        do throws(PlayPayloadError) {
            event = subscriptionPeriod ? try PlayVoidedEvent.subscriptionPeriodEvent(for: voided) : try PlayVoidedEvent.event(for: voided)
        } catch {
            report.skipped += 1
            if report.invalid.count < VoidedSyncReport.invalidReportedCountMax { report.invalid.append(error) }
            return nil
        }
        let outcome: RevocationOutcome
        do {
            outcome = try await ledger.applyRevocation(event)
        } catch .invalidArgument(let detail) {
            // An ID over the ledger's identifier limit: refused before anything was written.
            report.rejected[event.eventID] = "invalidArgument: \(detail)"
            return (event, false)
        }
        if PlayVoidedEvent.alertIfUnacknowledged(voided, event: event, outcome: outcome, ledger: ledger) {
            report.unacknowledgedVoids += 1
        }
        switch outcome {
        case .recorded(let record):
            report.recorded += 1
            return (event, record.disposition == .applied)
        case .alreadyRecorded: report.alreadyRecorded += 1
        case .rejected(let rejection): report.rejected[event.eventID] = rejection.description
        }
        return (event, false)
    }
}
