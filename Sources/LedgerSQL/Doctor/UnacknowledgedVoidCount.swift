import Foundation
import FulfillmentLedger

/// Google Play's refunds of purchases nobody acknowledged within 3 days (`voidedReason` 8,
/// `Unacknowledged_purchase`) in the ledger's revocation events, as `ledger doctor` counts them
/// on either engine: any at all means finishes did not reach Google in time.
public struct UnacknowledgedVoidCount: Hashable, Sendable, Codable {
    /// How far back the doctor looks, in days.
    public static let windowDays = 30
    /// The end of such an event's reason, as the Play adapter writes it
    /// (`PlayVoidedEvent.unacknowledgedReasonSuffix`; a test keeps the two equal).
    public static let reasonSuffix = "voidedReason 8"

    /// Such refunds dated within the window.
    public var count: Int64
    /// The latest one's date, nil when there is none in the window.
    public var latestAt: Date?

    /// Creates a count.
    public init(count: Int64, latestAt: Date?) {
        self.count = count
        self.latestAt = latestAt
    }

    /// The doctor's warning line, nil when there is nothing to warn about.
    public var warning: String? {
        guard count > 0 else { return nil }
        return "warning: Google Play refunded \(count) purchase(s) in the last \(Self.windowDays) days because they were not "
            + "acknowledged within 3 days (voidedReason 8), the latest at \(latestAt?.ledgerISO8601 ?? "?"); "
            + "check that finishes reach Google (`ledger recover`)"
    }
}

extension LedgerReader {
    /// The unacknowledged-purchase refunds dated in the `windowDays` before `now`.
    package func unacknowledgedVoidCount(now: Date) throws(LedgerError) -> UnacknowledgedVoidCount {
        let since = now.addingTimeInterval(-TimeInterval(UnacknowledgedVoidCount.windowDays * 86_400))
        let found = try revocationEventCount(store: .playStore, reasonSuffix: UnacknowledgedVoidCount.reasonSuffix, since: since)
        return UnacknowledgedVoidCount(count: found.count, latestAt: found.latest)
    }
}
