import Foundation
import FulfillmentLedger

/// Reads Get Notification History since the saved watermark and applies every notification the
/// server missed: the backstop for App Store Server Notifications V2 that Apple gave up
/// retrying while the server was down (five retries over about six and a half days in
/// production, none in the sandbox).
///
/// Each run asks for `[max(watermark - overlap, now - lookbackMax), now)` and hands every
/// `signedPayload` to `AppStoreNotificationProcessor`, which verifies it and applies it once by
/// its `notificationUUID`, so the overlapping re-read, and a notification that was pushed too,
/// apply nothing twice. The range is read in windows (the whole range until a run finds it too
/// many pages); once every page of a window was read and applied, its end is saved as the sync
/// cursor `appstore.notifications`. A window stopped by `pageCountMax` or by an error leaves
/// it, and is halved for the next run, so a backlog of any size moves forward.
///
/// `onlyFailures` is off by default: the whole history is read, so a notification Apple counts
/// as delivered but the ledger lacks (answered by a proxy, lost with a database restored from a
/// backup) is applied too; re-reading the delivered ones costs pages, never a double grant.
/// Turn it on when the volume makes the full history too many pages a run.
public struct AppStoreNotificationHistorySweep: Sendable {
    /// The sync cursor holding the watermark, milliseconds since 1970.
    public static let cursorName = "appstore.notifications"
    /// The sync cursor holding the width, in seconds, of the window a run reads at a time,
    /// once a run found the whole range too many pages.
    public static let windowCursorName = "appstore.notifications.window"
    /// The narrowest window: a minute's notifications always fit in a run.
    public static let windowSecondsMin: TimeInterval = 60

    /// The App Store Server API client (its verifier checks the app and environment).
    public let client: AppStoreServerAPIClient
    /// Verifies and applies each notification.
    public let processor: AppStoreNotificationProcessor
    /// Ask only for notifications Apple failed to deliver (`onlyFailures`).
    public var onlyFailures: Bool
    /// How far before the watermark each run starts reading again, for notifications Apple
    /// lists late and for clock skew between the server and Apple.
    public var overlapSeconds: TimeInterval
    /// How far back `startDate` may go: Apple's retention (180 days in production, 30 in the
    /// sandbox), less a margin for clock skew (Apple refuses an older `startDate`).
    public var lookbackMaxSeconds: TimeInterval
    /// Most pages one run reads (Apple sends up to 20 notifications a page).
    public var pageCountMax: Int

    /// Default overlap: one hour. Every run re-reads it, so a longer one costs pages each run.
    public static let defaultOverlapSeconds: TimeInterval = 60 * 60
    /// Default lookback: the environment's retention window less one hour.
    public static func defaultLookbackMaxSeconds(for environment: AppStoreEnvironment) -> TimeInterval {
        let days = environment == .production ? AppStoreNotificationHistoryRequest.retentionDays : sandboxRetentionDays
        return TimeInterval(days * 86_400 - 60 * 60)
    }
    /// How far back the sandbox keeps notification history, in days.
    public static let sandboxRetentionDays = 30
    /// Default page limit: 100 pages, up to 2,000 notifications a run.
    public static let defaultPageCountMax = 100

    /// Creates a sweep with the default limits, reading the whole history (`onlyFailures` off).
    public init(client: AppStoreServerAPIClient, processor: AppStoreNotificationProcessor, onlyFailures: Bool = false) {
        self.client = client
        self.processor = processor
        self.onlyFailures = onlyFailures
        self.overlapSeconds = Self.defaultOverlapSeconds
        self.lookbackMaxSeconds = Self.defaultLookbackMaxSeconds(for: client.environment)
        self.pageCountMax = Self.defaultPageCountMax
    }

    /// The ledger the notifications are applied to (the processor's).
    public var ledger: Ledger { processor.ledger }

    /// Reads every page since the watermark and applies each notification once.
    ///
    /// A notification that fails verification or carries a refused value is counted in
    /// `rejected`, not thrown.
    /// - Throws: `.api` when a page cannot be read (after the client's retries; a 429 is
    ///   `rateLimited` with Apple's `Retry-After`), `.ledger` for a limit out of range
    ///   (`invalidArgument`) and storage errors. Notifications applied before the failure stay
    ///   applied; the watermark is not moved.
    public func run() async throws(AppStoreNotificationSweepError) -> AppStoreNotificationSweepReport {
        guard pageCountMax >= 1, overlapSeconds >= 0, lookbackMaxSeconds > 0,
            lookbackMaxSeconds <= TimeInterval(AppStoreNotificationHistoryRequest.retentionDays * 86_400)
        else {
            throw .ledger(.invalidArgument("notification sweep limits must be positive, lookback within retention"))
        }
        let now = ledger.clock.now()
        let watermark = try await savedWatermark()
        let earliest = now.addingTimeInterval(-lookbackMaxSeconds)
        var start = earliest
        if let watermark { start = max(watermark.addingTimeInterval(-overlapSeconds), earliest) }
        // Apple needs startDate before endDate: a watermark at or past now (a clock set back)
        // reads the last overlap again.
        if start >= now { start = now.addingTimeInterval(-max(overlapSeconds, 1)) }
        var report = AppStoreNotificationSweepReport(startDate: start, endDate: now, onlyFailures: onlyFailures)
        // Read in windows, each saved as the watermark once complete, so a backlog larger than
        // one run's pages still moves forward: a window that does not fit is halved for the
        // next run, and one that fits easily is widened again.
        var windowSeconds = try await savedWindowSeconds() ?? now.timeIntervalSince(start)
        var windowStart = start
        while windowStart < now, report.pagesRead < pageCountMax {
            let windowEnd = min(now, windowStart.addingTimeInterval(max(windowSeconds, Self.windowSecondsMin)))
            let pagesBefore = report.pagesRead
            let complete = try await read(from: windowStart, to: windowEnd, into: &report)
            guard complete else {
                report.truncated = true
                // Only a window that had the whole budget proves it is too wide.
                if pagesBefore == 0 {
                    windowSeconds = max(Self.windowSecondsMin, windowEnd.timeIntervalSince(windowStart) / 2)
                    try await save(Self.windowCursorName, String(Int(windowSeconds)))
                }
                break
            }
            // A rejection that may pass later keeps the watermark, so the next run sees it again.
            guard report.retryableRejected == 0 else { break }
            try await save(Self.cursorName, String(windowEnd.ledgerMilliseconds))
            report.watermarkSaved = windowEnd
            windowStart = windowEnd
            if report.pagesRead - pagesBefore <= pageCountMax / 4, windowEnd < now {
                windowSeconds *= 2
                try await save(Self.windowCursorName, String(Int(windowSeconds)))
            }
        }
        // The budget ran out exactly at a window's end, before the range's.
        if windowStart < now, report.retryableRejected == 0 { report.truncated = true }
        return report
    }

    /// Reads every page of `[start, end)` that the run's page budget allows and applies each
    /// notification; whether the window was read to Apple's last page.
    private func read(
        from start: Date, to end: Date, into report: inout AppStoreNotificationSweepReport
    ) async throws(AppStoreNotificationSweepError) -> Bool {
        let request = AppStoreNotificationHistoryRequest(
            startDate: start, endDate: end, onlyFailures: onlyFailures ? true : nil)
        var paginationToken: String?
        while report.pagesRead < pageCountMax {
            let page: AppStoreNotificationHistoryPage.Unverified
            do throws(AppStoreServerAPIError) {
                page = try await client.notificationHistoryEntries(request, paginationToken: paginationToken)
            } catch {
                throw .api(error)
            }
            report.pagesRead += 1
            for entry in page.entries { try await apply(entry.signedPayload, to: &report) }
            guard page.hasMore else { return true }
            // A page that claims more without a new token cannot be followed: the window ends
            // as truncated rather than repeating the page or saving a watermark past the rest.
            guard let next = page.paginationToken, !next.isEmpty, next != paginationToken else { return false }
            paginationToken = next
        }
        return false
    }

    /// Saves a sync cursor.
    private func save(_ name: String, _ value: String) async throws(AppStoreNotificationSweepError) {
        do throws(LedgerError) {
            try await ledger.saveSyncCursor(name: name, value: value)
        } catch {
            throw .ledger(error)
        }
    }

    /// The window width a truncated run left for the next, if one is saved and in range.
    private func savedWindowSeconds() async throws(AppStoreNotificationSweepError) -> TimeInterval? {
        let saved: String?
        do throws(LedgerError) {
            saved = try await ledger.syncCursor(name: Self.windowCursorName)
        } catch {
            throw .ledger(error)
        }
        guard let seconds = saved.flatMap(Int.init), seconds >= Int(Self.windowSecondsMin) else { return nil }
        return TimeInterval(min(seconds, AppStoreNotificationHistoryRequest.retentionDays * 86_400))
    }

    /// The saved watermark, or nil when none is saved or it is not a time in range (a
    /// hand-edited or damaged row): the run then reads the whole lookback, which applies
    /// nothing twice.
    private func savedWatermark() async throws(AppStoreNotificationSweepError) -> Date? {
        let saved: String?
        do throws(LedgerError) {
            saved = try await ledger.syncCursor(name: Self.cursorName)
        } catch {
            throw .ledger(error)
        }
        guard let millis = saved.flatMap(Int64.init), Date.ledgerMillisecondsRange.contains(millis) else { return nil }
        return Date(ledgerMilliseconds: millis)
    }

    /// Processes one notification, counting it in `report`.
    private func apply(
        _ signedPayload: String, to report: inout AppStoreNotificationSweepReport
    ) async throws(AppStoreNotificationSweepError) {
        report.notificationsRead += 1
        let outcome: AppStoreNotificationOutcome
        do throws(LedgerError) {
            outcome = try await processor.process(signedPayload)
        } catch {
            throw .ledger(error)
        }
        let listedCountMax = AppStoreNotificationSweepReport.listedCountMax
        func reject(_ reason: String) {
            report.rejected += 1
            if report.rejections.count < listedCountMax { report.rejections.append(reason) }
        }
        switch outcome {
        case .rejected(let error):
            if error.status == .retryableVerificationFailure { report.retryableRejected += 1 }
            reject(error.description)
        case .alreadyProcessed: report.alreadyProcessed += 1
        case .revocation(let revocation):
            switch revocation {
            case .rejected(let rejection): reject(rejection.description)
            case .alreadyRecorded: report.alreadyProcessed += 1
            case .recorded:
                report.applied += 1
                report.revocationsApplied += 1
            }
        case .subscription, .consentRescinded: report.applied += 1
        case .oneTimeCharge(let charge):
            if let rejection = charge.rejection { reject(rejection.description) } else { report.applied += 1 }
        case .consumptionRequest:
            report.applied += 1
            // The outcome carries the answer, not the transaction it is for; the payload verified
            // a moment ago, so reading it again only costs the signature checks of a rare type.
            if report.consumptionRequestTransactionIDs.count < listedCountMax,
                case .success(let notification) = processor.signedDataVerifier.verifyNotification(signedPayload),
                let transactionID = notification.transaction?.transactionId
            {
                report.consumptionRequestTransactionIDs.append(transactionID)
            }
        case .logged: report.applied += 1
        }
    }
}
