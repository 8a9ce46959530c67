import Foundation
import FulfillmentLedger

/// A one-time product purchase as `purchases.productsv2.getproductpurchasev2` returns it (Play
/// Billing Library 8: products with several purchase options and offers). Wire names kept, enums
/// as Google's strings so a value Google adds survives (and grants nothing until known).
public struct ProductPurchaseV2: Hashable, Sendable, Codable {
    /// `androidpublisher#productPurchaseV2`.
    public var kind: String?
    /// One item per product bought (Google's name is singular, the field a list).
    public var productLineItem: [ProductLineItem]?
    /// The purchase's state.
    public var purchaseStateContext: PurchaseStateContext?
    /// Present only for a license tester's purchase.
    public var testPurchaseContext: TestPurchaseContext?
    /// The order ID; absent when the purchase has no order.
    public var orderId: String?
    /// The game's obfuscated account ID set at purchase: the account binding.
    public var obfuscatedExternalAccountId: String?
    /// The game's obfuscated profile ID set at purchase.
    public var obfuscatedExternalProfileId: String?
    /// The buyer's billing region (ISO 3166-1 alpha-2).
    public var regionCode: String?
    /// When the purchase became `PURCHASED` (RFC 3339); absent while payment is pending.
    public var purchaseCompletionTime: String?
    /// `ACKNOWLEDGEMENT_STATE_PENDING` or `ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED`.
    public var acknowledgementState: String?

    /// An empty purchase, for tests and simulators.
    public init() {}

    /// The productsv2 shape of a `purchases.products.get` answer: one line for its product,
    /// bought through `purchaseOptionID`; for the simulators and offline purchase files.
    public init(_ purchase: ProductPurchase, purchaseOptionID: String? = nil) {
        kind = "androidpublisher#productPurchaseV2"
        orderId = purchase.orderId
        obfuscatedExternalAccountId = purchase.obfuscatedExternalAccountId
        obfuscatedExternalProfileId = purchase.obfuscatedExternalProfileId
        regionCode = purchase.regionCode
        let state: State? =
            switch purchase.purchaseState.flatMap(ProductPurchase.State.init(rawValue:)) {
            case .purchased: .purchased
            case .canceled: .cancelled
            case .pending: .pending
            case nil: nil
            }
        // A state number the adapter does not know stands for a state Google may add.
        purchaseStateContext = PurchaseStateContext(
            purchaseState: state?.rawValue ?? purchase.purchaseState.map { "PURCHASE_STATE_\($0)" })
        testPurchaseContext = purchase.purchaseType == PlayPurchaseVerifier.testPurchaseType ? TestPurchaseContext() : nil
        if state == .purchased {
            purchaseCompletionTime = purchase.purchaseTimeMillis.flatMap(Int64.init).map { Date(ledgerMilliseconds: $0).ledgerISO8601 }
        }
        acknowledgementState =
            purchase.acknowledgementState == 1 ? Self.acknowledged : "ACKNOWLEDGEMENT_STATE_PENDING"
        productLineItem = [
            ProductLineItem(
                productId: purchase.productId,
                productOfferDetails: ProductOfferDetails(
                    purchaseOptionId: purchaseOptionID, quantity: purchase.quantity ?? 1,
                    refundableQuantity: purchase.refundableQuantity,
                    consumptionState: purchase.consumptionState == 1 ? Self.consumed : "CONSUMPTION_STATE_YET_TO_BE_CONSUMED"))
        ]
    }

    /// `purchaseStateContext.purchaseState` values (Google spells `CANCELLED` with two Ls here).
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// Paid.
        case purchased = "PURCHASED"
        /// Cancelled.
        case cancelled = "CANCELLED"
        /// Awaiting payment.
        case pending = "PENDING"
    }

    /// The purchase's state.
    public struct PurchaseStateContext: Hashable, Sendable, Codable {
        /// `PURCHASED`, `CANCELLED` or `PENDING` (kept raw).
        public var purchaseState: String?
        /// Creates a context.
        public init(purchaseState: String?) { self.purchaseState = purchaseState }
    }

    /// A license tester's purchase.
    public struct TestPurchaseContext: Hashable, Sendable, Codable {
        /// `TEST` (kept raw).
        public var fopType: String?
        /// Creates a context.
        public init(fopType: String? = "TEST") { self.fopType = fopType }
    }

    /// One product of the purchase.
    public struct ProductLineItem: Hashable, Sendable, Codable {
        /// The product ID.
        public var productId: String?
        /// The purchase option and offer it was bought through, with its quantities.
        public var productOfferDetails: ProductOfferDetails?

        /// Creates a line.
        public init(productId: String?, productOfferDetails: ProductOfferDetails?) {
            self.productId = productId
            self.productOfferDetails = productOfferDetails
        }

        /// The purchase option and offer the line was bought through; nil when Google names no
        /// purchase option (an offer without one is left out too). Throws when an ID is empty
        /// or longer than Google's 63 bytes.
        public func purchaseOption() throws(PlayPayloadError) -> StorePurchaseOption? {
            guard let details = productOfferDetails, let optionID = details.purchaseOptionId else { return nil }
            let limit = StorePurchaseOption.identifierByteCountMax
            let option = try PlayPayloadLimits.identifier(optionID, field: "purchaseOptionId", byteCountMax: limit)
            let offer = try details.offerId.map { offerID throws(PlayPayloadError) in
                try PlayPayloadLimits.identifier(offerID, field: "offerId", byteCountMax: limit)
            }
            return StorePurchaseOption(purchaseOptionID: option, offerID: offer)
        }
    }

    /// How a line was bought.
    public struct ProductOfferDetails: Hashable, Sendable, Codable {
        /// The offer, only for an offer.
        public var offerId: String?
        /// The purchase option.
        public var purchaseOptionId: String?
        /// The per-transaction offer token.
        public var offerToken: String?
        /// The offer's tags (its purchase option's included).
        public var offerTags: [String]?
        /// Units bought.
        public var quantity: Int?
        /// Units not refunded yet (quantity-based partial refunds and full refunds counted).
        public var refundableQuantity: Int?
        /// `CONSUMPTION_STATE_YET_TO_BE_CONSUMED` or `CONSUMPTION_STATE_CONSUMED`.
        public var consumptionState: String?
        /// Present (an empty object) for a rental.
        public var rentOfferDetails: RentOfferDetails?
        /// Present for a pre-order.
        public var preorderOfferDetails: PreorderOfferDetails?

        /// Creates details.
        public init(
            purchaseOptionId: String?, offerId: String? = nil, quantity: Int?, refundableQuantity: Int?,
            consumptionState: String? = nil
        ) {
            self.purchaseOptionId = purchaseOptionId
            self.offerId = offerId
            self.quantity = quantity
            self.refundableQuantity = refundableQuantity
            self.consumptionState = consumptionState
        }
    }

    /// A rental's marker (Google sends an empty object).
    public struct RentOfferDetails: Hashable, Sendable, Codable {
        /// Creates the marker.
        public init() {}
    }

    /// A pre-order's details.
    public struct PreorderOfferDetails: Hashable, Sendable, Codable {
        /// When the pre-ordered product is released (RFC 3339).
        public var preorderReleaseTime: String?
        /// Creates details.
        public init(preorderReleaseTime: String?) { self.preorderReleaseTime = preorderReleaseTime }
    }

    /// `consumptionState` of a consumed line.
    public static let consumed = "CONSUMPTION_STATE_CONSUMED"
    /// `acknowledgementState` of an acknowledged purchase.
    public static let acknowledged = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
    /// The store product type reported for a rental line: granted only through a catalog product
    /// that maps its purchase option or offer.
    public static let rentOfferType = StoreProductType.playRentOffer
    /// The store product type reported for a pre-order line: granted only through a catalog
    /// product that maps its purchase option or offer.
    public static let preorderOfferType = StoreProductType.playPreorderOffer

    /// The line of `storeProductID`, if the purchase has one.
    public func lineItem(for storeProductID: String) -> ProductLineItem? {
        productLineItem?.first { $0.productId == storeProductID }
    }

    /// The known state, nil for an absent or unknown one.
    public var state: State? { purchaseStateContext?.purchaseState.flatMap(State.init(rawValue:)) }

    /// When the purchase was paid: nil when absent, an error when malformed or out of range.
    public func checkedCompletionDate() throws(PlayPayloadError) -> Date? {
        try PlayPayloadLimits.timestamp(purchaseCompletionTime, field: "purchaseCompletionTime")
    }

    /// The purchase in the shape of `purchases.products.get` for the line of `storeProductID`,
    /// so one set of rules reads both: state, consumption and acknowledgement as Google's
    /// integers (an unknown state as -1), the line's quantities, the completion time in
    /// milliseconds, and a license tester's purchase as `purchaseType` 0. Nil when the purchase
    /// has no line for the product. Throws when the completion time is malformed or out of range.
    public func productPurchase(for storeProductID: String) throws(PlayPayloadError) -> ProductPurchase? {
        guard let line = lineItem(for: storeProductID) else { return nil }
        var purchase = ProductPurchase()
        purchase.kind = kind
        purchase.productId = storeProductID
        purchase.orderId = orderId
        purchase.obfuscatedExternalAccountId = obfuscatedExternalAccountId
        purchase.obfuscatedExternalProfileId = obfuscatedExternalProfileId
        purchase.regionCode = regionCode
        switch state {
        case .purchased: purchase.purchaseState = ProductPurchase.State.purchased.rawValue
        case .cancelled: purchase.purchaseState = ProductPurchase.State.canceled.rawValue
        case .pending: purchase.purchaseState = ProductPurchase.State.pending.rawValue
        case nil: purchase.purchaseState = purchaseStateContext?.purchaseState == nil ? nil : -1
        }
        purchase.consumptionState = line.productOfferDetails?.consumptionState == Self.consumed ? 1 : 0
        purchase.acknowledgementState = acknowledgementState == Self.acknowledged ? 1 : 0
        purchase.quantity = line.productOfferDetails?.quantity
        purchase.refundableQuantity = line.productOfferDetails?.refundableQuantity
        purchase.purchaseType = testPurchaseContext == nil ? nil : PlayPurchaseVerifier.testPurchaseType
        purchase.purchaseTimeMillis = try checkedCompletionDate().map { String($0.ledgerMilliseconds) }
        return purchase
    }
}
