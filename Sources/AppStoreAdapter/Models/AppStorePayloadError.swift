import FulfillmentLedger
import Foundation

/// A value in a signed App Store payload that the adapter refuses before building anything from
/// it: a date, quantity or percentage out of range, a prorated refund without its percentage, an
/// identifier longer than the ledger accepts. The payload's signature may be good; its content
/// is still refused, and nothing changes.
///
/// Carried by `AppStoreVerificationError.payloadError` (status `verificationFailure`, 7001), so
/// `fulfill` answers `unverified` (103) and `AppStoreNotificationProcessor` answers `.rejected`.
public enum AppStorePayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A millisecond date lies outside `Date.ledgerMillisecondsRange` (1970 through 2199).
    case dateOutOfRange(field: String, milliseconds: Int64)
    /// A quantity lies outside `1...AppStorePayloadLimits.quantityMax`.
    case quantityOutOfRange(field: String, value: Int)
    /// `revocationPercentage` lies outside `0...AppStorePayloadLimits.revocationPercentageMax`.
    case percentageOutOfRange(field: String, value: Int32)
    /// A field the payload needs is absent, such as the `revocationPercentage` of a
    /// `REFUND_PRORATED` refund.
    case missingField(String)
    /// An identifier (`notificationUUID`, `transactionId`, `originalTransactionId`) is longer than
    /// the ledger's `identifierByteCountMax`.
    case identifierTooLong(field: String, byteCount: Int)

    /// The stable numeric code (Docs/ErrorCodes.md).
    public var code: Int {
        switch self {
        case .dateOutOfRange: 7101
        case .quantityOutOfRange: 7102
        case .percentageOutOfRange: 7103
        case .missingField: 7104
        case .identifierTooLong: 7105
        }
    }

    /// What is wrong, naming the field and the value.
    public var description: String {
        switch self {
        case .dateOutOfRange(let field, let milliseconds):
            "\(field) \(milliseconds) is outside \(Date.ledgerMillisecondsRange.lowerBound)"
                + "...\(Date.ledgerMillisecondsRange.upperBound) milliseconds"
        case .quantityOutOfRange(let field, let value):
            "\(field) \(value) is outside 1...\(AppStorePayloadLimits.quantityMax)"
        case .percentageOutOfRange(let field, let value):
            "\(field) \(value) is outside 0...\(AppStorePayloadLimits.revocationPercentageMax) milliunits"
        case .missingField(let field): "\(field) is missing"
        case .identifierTooLong(let field, let byteCount): "\(field) is \(byteCount) bytes long, more than allowed"
        }
    }
}
