import Foundation

/// What one `AppStoreNotificationHistorySweep.run()` did.
public struct AppStoreNotificationSweepReport: Hashable, Sendable, Codable {
    /// The `startDate` asked for: the watermark less the overlap, at most the retention window back.
    public var startDate: Date
    /// The end of the range: the run's start; saved as the watermark when the run catches up.
    public var endDate: Date
    /// Whether only notifications Apple failed to deliver were asked for (`onlyFailures`).
    public var onlyFailures: Bool
    /// Pages read.
    public var pagesRead = 0
    /// Notifications read.
    public var notificationsRead = 0
    /// Notifications processed now for the first time (and recorded): revocations, consumption
    /// requests and logged types.
    public var applied = 0
    /// Of `applied`, the `REFUND`, `REFUND_REVERSED` and `REVOKE` notifications recorded as
    /// revocation events now.
    public var revocationsApplied = 0
    /// Notifications whose `notificationUUID` the ledger had processed before (a push, or an
    /// earlier sweep); nothing changed now.
    public var alreadyProcessed = 0
    /// Notifications that failed verification, carry a refused value, or whose revocation the
    /// ledger rejected; nothing was applied from them.
    public var rejected = 0
    /// The first `listedCountMax` reasons of `rejected`.
    public var rejections: [String] = []
    /// Of `rejected`, those whose check may pass later (`retryableVerificationFailure`): the
    /// watermark is not moved while there are any, so the next run tries them again.
    public var retryableRejected = 0
    /// The transactions of the `CONSUMPTION_REQUEST` notifications applied now (at most
    /// `listedCountMax`): Apple still waits for their consumption information.
    public var consumptionRequestTransactionIDs: [String] = []
    /// Whether the run stopped before reaching `endDate`: at the page limit, or at a page that
    /// claimed more without a new `paginationToken`. The next run reads on from the watermark.
    public var truncated = false
    /// The last watermark saved: the end of the last window whose every page was read and
    /// applied with no retryable rejection (`endDate` when the run caught up); nil if none.
    public var watermarkSaved: Date?

    /// Most entries kept in `rejections` and in `consumptionRequestTransactionIDs`.
    public static let listedCountMax = 100

    /// Creates an empty report for the range asked for.
    public init(startDate: Date, endDate: Date, onlyFailures: Bool) {
        self.startDate = startDate
        self.endDate = endDate
        self.onlyFailures = onlyFailures
    }
}
