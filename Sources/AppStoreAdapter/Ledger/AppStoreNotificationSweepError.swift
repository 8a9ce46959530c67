import Foundation
import FulfillmentLedger

/// Why an `AppStoreNotificationHistorySweep` run stopped: Apple's API or the ledger failed.
///
/// Both keep the failure as it was thrown, so a caller can tell a rate limit (and when Apple
/// accepts the next request) from an outage or a configuration error. Notifications applied
/// before the failure stay applied; the watermark is not moved, so the next run reads them again
/// and applies nothing twice.
public enum AppStoreNotificationSweepError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Get Notification History failed (`rateLimited` carries Apple's `Retry-After`).
    case api(AppStoreServerAPIError)
    /// The ledger failed while applying a notification or reading or saving the watermark.
    case ledger(LedgerError)

    /// The wrapped error's stable code (7201-7209 or a `LedgerError` code, Docs/ErrorCodes.md).
    public var code: Int {
        switch self {
        case .api(let error): error.code
        case .ledger(let error): error.code
        }
    }

    /// Whether running the sweep again later may succeed without a configuration change.
    public var isRetryable: Bool {
        switch self {
        case .api(let error): error.isRetryable
        case .ledger(.storage(let failure)): failure.isRetryable
        case .ledger: false
        }
    }

    /// A human-readable account, without secrets.
    public var description: String {
        switch self {
        case .api(let error): "App Store Server API: \(error)"
        case .ledger(let error): "ledger: \(error)"
        }
    }
}
