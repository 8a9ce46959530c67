import Foundation
import FulfillmentLedger

/// A one-time product purchase as the Play Developer API's `purchases.products.get`
/// returns it. Integer enums keep their raw value, so a value Google adds later survives.
public struct ProductPurchase: Hashable, Sendable, Codable {
    /// `purchaseState`: 0 purchased, 1 canceled, 2 pending.
    public var purchaseState: Int?
    /// `consumptionState`: 0 yet to be consumed, 1 consumed.
    public var consumptionState: Int?
    /// `acknowledgementState`: 0 yet to be acknowledged, 1 acknowledged.
    public var acknowledgementState: Int?
    /// The order ID (recorded; the ledger key is the purchase token).
    public var orderId: String?
    /// The purchase token (Google omits it in `get`; the caller's token is used).
    public var purchaseToken: String?
    /// The product ID (SKU).
    public var productId: String?
    /// Units bought; absent means 1.
    public var quantity: Int?
    /// Units that can still be refunded.
    public var refundableQuantity: Int?
    /// The game's obfuscated account ID set at purchase: the account binding.
    public var obfuscatedExternalAccountId: String?
    /// The game's obfuscated profile ID set at purchase.
    public var obfuscatedExternalProfileId: String?
    /// `purchaseType`: 0 test (license tester), 1 promo, 2 rewarded; absent for a normal purchase.
    public var purchaseType: Int?
    /// The buyer's region (ISO 3166-1 alpha-2).
    public var regionCode: String?
    /// Milliseconds since 1970, as a decimal string (the API encodes int64 as strings).
    public var purchaseTimeMillis: String?
    /// Developer payload (deprecated by Google), kept for completeness.
    public var developerPayload: String?
    /// `androidpublisher#productPurchase`.
    public var kind: String?

    /// An empty purchase, for tests and simulators.
    public init() {}

    /// The known purchase states.
    public enum State: Int, Sendable, CaseIterable {
        /// Paid.
        case purchased = 0
        /// Canceled.
        case canceled = 1
        /// Awaiting payment.
        case pending = 2
    }

    /// The purchase time; nil when absent, malformed or out of range.
    public var purchaseDate: Date? { try? checkedPurchaseDate() }

    /// The purchase time: nil when absent, an error when malformed or out of range.
    public func checkedPurchaseDate() throws(PlayPayloadError) -> Date? {
        try PlayPayloadLimits.date(purchaseTimeMillis, field: "purchaseTimeMillis")
    }

    /// Units bought: 1 when absent, else 1 to `PlayPayloadLimits.quantityMax`.
    public func checkedQuantity() throws(PlayPayloadError) -> Int {
        try PlayPayloadLimits.quantity(quantity, field: "quantity", in: 1...PlayPayloadLimits.quantityMax) ?? 1
    }

    /// Units not refunded yet: nil when absent, else 0 to the checked quantity.
    public func checkedRefundableQuantity() throws(PlayPayloadError) -> Int? {
        try PlayPayloadLimits.quantity(refundableQuantity, field: "refundableQuantity", in: 0...checkedQuantity())
    }
}

/// A voided (refunded, charged back, revoked) purchase from `voidedpurchases.list`.
public struct VoidedPurchase: Hashable, Sendable, Codable {
    /// The purchase token: the ledger key.
    public var purchaseToken: String?
    /// The order ID.
    public var orderId: String?
    /// When the purchase was made, milliseconds as a decimal string.
    public var purchaseTimeMillis: String?
    /// When it was voided, milliseconds as a decimal string.
    public var voidedTimeMillis: String?
    /// 0 user, 1 developer, 2 Google.
    public var voidedSource: Int?
    /// 0 other, 1 remorse, 2 not received, 3 defective, 4 accidental purchase, 5 fraud,
    /// 6 friendly fraud, 7 chargeback, 8 unacknowledged purchase.
    public var voidedReason: Int?
    /// Units voided by a quantity-based partial refund; Google lists such refunds only when
    /// asked with `includeQuantityBasedPartialRefund=true`.
    public var voidedQuantity: Int?
    /// `androidpublisher#voidedPurchase`.
    public var kind: String?

    /// An empty record, for tests and simulators.
    public init() {}

    /// When it was voided; nil when absent, malformed or out of range.
    public var voidedDate: Date? { try? checkedVoidedDate() }

    /// When it was voided: required, a decimal integer within `Date.ledgerMillisecondsRange`.
    public func checkedVoidedDate() throws(PlayPayloadError) -> Date {
        guard let date = try PlayPayloadLimits.date(voidedTimeMillis, field: "voidedTimeMillis") else {
            throw .missingField("voidedTimeMillis")
        }
        return date
    }

    /// The voided units of a quantity-based partial refund: nil when absent, else 1 to
    /// `PlayPayloadLimits.quantityMax` (a zero or negative count is refused, never read as "all").
    public func checkedVoidedQuantity() throws(PlayPayloadError) -> Int? {
        try PlayPayloadLimits.quantity(voidedQuantity, field: "voidedQuantity", in: 1...PlayPayloadLimits.quantityMax)
    }
}

/// One page of `voidedpurchases.list`.
public struct VoidedPurchasesPage: Hashable, Sendable, Codable {
    /// The voided purchases on this page.
    public var voidedPurchases: [VoidedPurchase]
    /// The token of the next page, if there is one.
    public var nextPageToken: String?

    /// Creates a page.
    public init(voidedPurchases: [VoidedPurchase], nextPageToken: String?) {
        self.voidedPurchases = voidedPurchases
        self.nextPageToken = nextPageToken
    }
}
