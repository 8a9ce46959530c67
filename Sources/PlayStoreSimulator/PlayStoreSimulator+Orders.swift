import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// The Orders API: every purchase's order and every subscription period's, as `orders.get`
/// and `orders.batchget` report them, with amounts from the simulator's prices and refunds from
/// its voids.
extension PlayStoreSimulator {
    /// The currency every simulated order is in.
    public static let currencyCode = "USD"
    /// A unit's price when none was set: 0.99.
    public static let defaultUnitPriceNanos: Int64 = 990_000_000

    /// Sets the price of one unit of `productID`, in nanos of `currencyCode`.
    public func setUnitPrice(_ productID: String, nanos: Int64) {
        state.withLock { $0.unitPriceNanos[productID] = nanos }
    }

    /// `orders.get`.
    public func order(packageName: String, orderID: String) async throws(PlayAPIError) -> PlayOrder {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.orderGet, &state)
            guard packageName == self.packageName else { throw PlayAPIError.notFound("no app \(packageName)") }
            guard let order = Self.order(orderID, in: state) else { throw PlayAPIError.notFound("no order \(orderID)") }
            return order
        }
    }

    /// `orders.batchget`: 1 to 1,000 distinct IDs; one unknown order fails the whole request.
    public func orders(packageName: String, orderIDs: [String]) async throws(PlayAPIError) -> [PlayOrder] {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.orderGet, &state)
            guard packageName == self.packageName else { throw PlayAPIError.notFound("no app \(packageName)") }
            if let problem = PlayOrderLimits.batchProblem(orderIDs) { throw PlayAPIError.invalidToken(problem) }
            var found: [PlayOrder] = []
            for orderID in orderIDs {
                guard let order = Self.order(orderID, in: state) else { throw PlayAPIError.notFound("no order \(orderID)") }
                found.append(order)
            }
            return found
        }
    }

    /// The order `orderID` names: a one-time purchase's, or a subscription period's.
    static func order(_ orderID: String, in state: State) -> PlayOrder? {
        if let (token, purchase) = state.purchases.first(where: { $0.value.orderId == orderID }) {
            return productOrder(orderID, token: token, purchase: purchase, in: state)
        }
        for (token, subscription) in state.subscriptions {
            let periods = [subscription.baseOrderID] + (0..<subscription.renewalCount).map { "\(subscription.baseOrderID)..\($0)" }
            guard periods.contains(orderID) else { continue }
            let productID = subscription.purchase.lineItems?.first?.productId ?? ""
            var order = PlayOrder()
            order.orderId = orderID
            order.purchaseToken = token
            let price = state.unitPriceNanos[productID] ?? defaultUnitPriceNanos
            let total = PlayMoney(currencyCode: currencyCode, totalNanos: price)
            order.total = total
            order.lineItems = [PlayOrder.LineItem(productId: productID, total: total)]
            if state.subscriptionVoidOrderIDs.contains(orderID) {
                order.state = PlayOrder.State.refunded.rawValue
                var history = PlayOrder.OrderHistory()
                history.refundEvent = .init(eventTime: nil, refundDetails: .init(total: total))
                order.orderHistory = history
            } else {
                order.state = PlayOrder.State.processed.rawValue
            }
            return order
        }
        return nil
    }

    /// A one-time purchase's order: refunded in full or in part as its voids say.
    private static func productOrder(_ orderID: String, token: String, purchase: ProductPurchase, in state: State) -> PlayOrder {
        let productID = purchase.productId ?? ""
        let quantity = Int64(max(1, purchase.quantity ?? 1))
        let unit = state.unitPriceNanos[productID] ?? defaultUnitPriceNanos
        var order = PlayOrder()
        order.orderId = orderID
        order.purchaseToken = token
        order.createTime = purchase.purchaseTimeMillis.flatMap(Int64.init).map { Date(ledgerMilliseconds: $0).ledgerISO8601 }
        let total = PlayMoney(currencyCode: currencyCode, totalNanos: unit * quantity)
        order.total = total
        order.lineItems = [PlayOrder.LineItem(productId: productID, total: total, quantity: Int(quantity))]
        let voids = (state.voided + state.unlisted).filter { $0.purchaseToken == token }
        var history = PlayOrder.OrderHistory()
        let refundable = Int64(purchase.refundableQuantity ?? Int(quantity))
        if !voids.isEmpty, refundable <= 0 {
            order.state = PlayOrder.State.refunded.rawValue
            history.refundEvent = .init(
                eventTime: voids.last?.voidedDate?.ledgerISO8601, refundDetails: .init(total: total),
                refundReason: voids.last?.voidedReason == 7 ? "CHARGEBACK" : "OTHER")
        } else if !voids.isEmpty {
            order.state = PlayOrder.State.partiallyRefunded.rawValue
            history.partialRefundEvents = voids.map { voided in
                PlayOrder.PartialRefundEvent(
                    processTime: voided.voidedDate?.ledgerISO8601,
                    refundDetails: .init(total: PlayMoney(currencyCode: currencyCode, totalNanos: unit * Int64(voided.voidedQuantity ?? 1))),
                    state: PlayOrder.PartialRefundEvent.processedState)
            }
        } else {
            switch purchase.purchaseState {
            case 1: order.state = PlayOrder.State.canceled.rawValue
            case 2: order.state = PlayOrder.State.pending.rawValue
            default: order.state = PlayOrder.State.processed.rawValue
            }
        }
        order.orderHistory = history
        return order
    }
}
