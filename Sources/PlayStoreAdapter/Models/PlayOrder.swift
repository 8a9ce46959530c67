import Foundation

/// An order as the Orders API (`orders.get`, `orders.batchget`) returns it, with the fields the
/// ledger reads; wire names kept, enums as Google's strings so a value Google adds survives.
/// One order is a one-time purchase, or one period of a subscription (`GPA.….N` for renewal N).
public struct PlayOrder: Hashable, Sendable, Codable {
    /// The order ID (`GPA.…`).
    public var orderId: String?
    /// The purchase token of the purchase or subscription.
    public var purchaseToken: String?
    /// `PENDING`, `PROCESSED`, `CANCELED`, `PENDING_REFUND`, `PARTIALLY_REFUNDED`, `REFUNDED`; see `State`.
    public var state: String?
    /// When the order was created (RFC 3339).
    public var createTime: String?
    /// When the order last changed (RFC 3339).
    public var lastEventTime: String?
    /// What was bought.
    public var lineItems: [LineItem]?
    /// What the buyer paid, discounts and taxes included.
    public var total: PlayMoney?
    /// The tax in `total`.
    public var tax: PlayMoney?
    /// The developer's revenue, after partial refunds, taxes and fees, in the buyer's currency.
    public var developerRevenueInBuyerCurrency: PlayMoney?
    /// The order's events: processed, cancelled, refunded in full, refunded in part.
    public var orderHistory: OrderHistory?
    /// `IN_APP`, `PLAY_STORE`, `PC_EMULATOR`, `NATIVE_PC`, `OUTSIDE_PLAY_STORE`, … (kept raw).
    public var salesChannel: String?

    /// An empty order, for tests and simulators.
    public init() {}

    /// The states the adapter knows.
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// Created, waiting to be processed.
        case pending = "PENDING"
        /// Paid.
        case processed = "PROCESSED"
        /// Cancelled before it was processed.
        case canceled = "CANCELED"
        /// A refund is under way.
        case pendingRefund = "PENDING_REFUND"
        /// Part of the amount was refunded.
        case partiallyRefunded = "PARTIALLY_REFUNDED"
        /// The full amount was refunded.
        case refunded = "REFUNDED"
    }

    /// The known state, nil for an absent or unknown one.
    public var knownState: State? { state.flatMap(State.init(rawValue:)) }

    /// One product of the order.
    public struct LineItem: Hashable, Sendable, Codable {
        /// The product ID.
        public var productId: String?
        /// The product's title in the buyer's language.
        public var productTitle: String?
        /// The price listed on the Play Store.
        public var listingPrice: PlayMoney?
        /// What this line cost, taxes included.
        public var total: PlayMoney?
        /// The tax in `total`.
        public var tax: PlayMoney?
        /// For a one-time product: its purchase option, offer and quantity.
        public var oneTimePurchaseDetails: OneTimePurchaseDetails?
        /// For a subscription: its base plan, offer and the period the order pays for.
        public var subscriptionDetails: SubscriptionDetails?

        /// Creates a line.
        public init(productId: String?, total: PlayMoney? = nil, quantity: Int? = nil) {
            self.productId = productId
            self.total = total
            self.oneTimePurchaseDetails = quantity.map { OneTimePurchaseDetails(quantity: $0) }
        }
    }

    /// A one-time product's line details.
    public struct OneTimePurchaseDetails: Hashable, Sendable, Codable {
        /// The offer, when bought through one.
        public var offerId: String?
        /// The purchase option.
        public var purchaseOptionId: String?
        /// Units bought.
        public var quantity: Int?

        /// Creates details.
        public init(offerId: String? = nil, purchaseOptionId: String? = nil, quantity: Int?) {
            self.offerId = offerId
            self.purchaseOptionId = purchaseOptionId
            self.quantity = quantity
        }
    }

    /// A subscription's line details.
    public struct SubscriptionDetails: Hashable, Sendable, Codable {
        /// The base plan.
        public var basePlanId: String?
        /// The offer, when bought through one.
        public var offerId: String?
        /// When the period this order pays for starts (RFC 3339).
        public var servicePeriodStartTime: String?
        /// When it ends (RFC 3339).
        public var servicePeriodEndTime: String?
    }

    /// The order's events.
    public struct OrderHistory: Hashable, Sendable, Codable {
        /// When it was processed.
        public var processedEvent: Event?
        /// When it was cancelled.
        public var cancellationEvent: Event?
        /// The full refund, when there was one.
        public var refundEvent: RefundEvent?
        /// The partial refunds.
        public var partialRefundEvents: [PartialRefundEvent]?

        /// An empty history.
        public init() {}
    }

    /// A dated event.
    public struct Event: Hashable, Sendable, Codable {
        /// When (RFC 3339).
        public var eventTime: String?
        /// Creates an event.
        public init(eventTime: String?) { self.eventTime = eventTime }
    }

    /// The full refund of the order.
    public struct RefundEvent: Hashable, Sendable, Codable {
        /// When (RFC 3339).
        public var eventTime: String?
        /// The amounts refunded.
        public var refundDetails: RefundDetails?
        /// `OTHER`, `CHARGEBACK` (kept raw).
        public var refundReason: String?

        /// Creates an event.
        public init(eventTime: String?, refundDetails: RefundDetails?, refundReason: String? = nil) {
            self.eventTime = eventTime
            self.refundDetails = refundDetails
            self.refundReason = refundReason
        }
    }

    /// One partial refund.
    public struct PartialRefundEvent: Hashable, Sendable, Codable {
        /// When it was asked for (RFC 3339).
        public var createTime: String?
        /// When it was processed (RFC 3339).
        public var processTime: String?
        /// The amounts refunded.
        public var refundDetails: RefundDetails?
        /// `PENDING` or `PROCESSED_SUCCESSFULLY` (kept raw).
        public var state: String?

        /// Creates an event.
        public init(processTime: String?, refundDetails: RefundDetails?, state: String?) {
            self.processTime = processTime
            self.refundDetails = refundDetails
            self.state = state
        }

        /// `state` of a partial refund that went through.
        public static let processedState = "PROCESSED_SUCCESSFULLY"
    }

    /// Refunded amounts.
    public struct RefundDetails: Hashable, Sendable, Codable {
        /// The amount refunded, tax included.
        public var total: PlayMoney?
        /// The tax refunded.
        public var tax: PlayMoney?

        /// Creates details.
        public init(total: PlayMoney?, tax: PlayMoney? = nil) {
            self.total = total
            self.tax = tax
        }
    }

    /// The amount refunded so far: the full refund's total, else the sum of the partial refunds
    /// that went through; nil when nothing was refunded. Throws when an amount is malformed or
    /// the refunds are in another currency than each other.
    public func refundedAmount() throws(PlayPayloadError) -> PlayMoney? {
        if let full = orderHistory?.refundEvent?.refundDetails?.total {
            let (code, total) = try full.checked(field: "orderHistory.refundEvent.refundDetails.total")
            return PlayMoney(currencyCode: code, totalNanos: total)
        }
        var sum: (code: String, nanos: Int64)?
        let processed = (orderHistory?.partialRefundEvents ?? []).prefix(Self.partialRefundCountMax)
        for event in processed where event.state == PartialRefundEvent.processedState {
            guard let amount = event.refundDetails?.total else { continue }
            let (code, nanos) = try amount.checked(field: "orderHistory.partialRefundEvents.refundDetails.total")
            guard sum == nil || sum?.code == code else {
                throw .malformedMoney(field: "orderHistory.partialRefundEvents", detail: "refunds in two currencies")
            }
            let (added, overflow) = (sum?.nanos ?? 0).addingReportingOverflow(nanos)
            guard !overflow else { throw .malformedMoney(field: "orderHistory.partialRefundEvents", detail: "the sum overflows") }
            sum = (code, added)
        }
        return sum.map { PlayMoney(currencyCode: $0.code, totalNanos: $0.nanos) }
    }

    /// Most partial refunds of one order read.
    public static let partialRefundCountMax = 1_000
}
