import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator

/// Google answers as the simulator does, except for the voided list and purchase fields a test sets.
struct AlteredPlayAPI: PlayPurchasesAPI {
    let play: PlayStoreSimulator
    var voided: [VoidedPurchase]? = nil
    var alterPurchase: @Sendable (inout ProductPurchase) -> Void = { _ in }
    /// Alters productsv2's answer after `alterPurchase`.
    var alterV2: @Sendable (inout ProductPurchaseV2) -> Void = { _ in }
    /// Whether productsv2 answers 404, as for an old token.
    var v2Unknown = false

    func productPurchase(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError)
        -> ProductPurchase
    {
        var purchase = try await play.productPurchase(packageName: packageName, storeProductID: storeProductID, token: token)
        alterPurchase(&purchase)
        return purchase
    }

    func acknowledge(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {
        try await play.acknowledge(packageName: packageName, storeProductID: storeProductID, token: token)
    }

    func consume(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {
        try await play.consume(packageName: packageName, storeProductID: storeProductID, token: token)
    }

    func voidedPurchases(
        packageName: String, startTime: Date, endTime: Date?, pageToken: String?, maxResults: Int,
        includeQuantityBasedPartialRefund: Bool, includeSubscriptions: Bool
    ) async throws(PlayAPIError) -> VoidedPurchasesPage {
        if let voided { return VoidedPurchasesPage(voidedPurchases: voided, nextPageToken: nil) }
        return try await play.voidedPurchases(
            packageName: packageName, startTime: startTime, endTime: endTime, pageToken: pageToken, maxResults: maxResults,
            includeQuantityBasedPartialRefund: includeQuantityBasedPartialRefund, includeSubscriptions: includeSubscriptions)
    }

    func subscriptionPurchase(packageName: String, token: String) async throws(PlayAPIError) -> SubscriptionPurchaseV2 {
        try await play.subscriptionPurchase(packageName: packageName, token: token)
    }

    func acknowledgeSubscription(
        packageName: String, storeProductID: String, token: String, externalAccountIDs: PlayExternalAccountIDs?
    ) async throws(PlayAPIError) {
        try await play.acknowledgeSubscription(
            packageName: packageName, storeProductID: storeProductID, token: token, externalAccountIDs: externalAccountIDs)
    }

    func reviewRefund(packageName: String, orderID: String, request: PlayRefundReviewRequest) async throws(PlayAPIError) {
        try await play.reviewRefund(packageName: packageName, orderID: orderID, request: request)
    }

    /// The simulator's answer, with the purchase altered as `productPurchase` alters it.
    func productPurchaseV2(packageName: String, token: String) async throws(PlayAPIError) -> ProductPurchaseV2 {
        if v2Unknown { throw PlayAPIError.notFound("productsv2: HTTP 404") }
        let answer = try await play.productPurchaseV2(packageName: packageName, token: token)
        guard let line = answer.productLineItem?.first, let productID = line.productId else { return answer }
        let purchase = try await productPurchase(packageName: packageName, storeProductID: productID, token: token)
        var altered = ProductPurchaseV2(purchase, purchaseOptionID: line.productOfferDetails?.purchaseOptionId)
        altered.productLineItem?[0].productOfferDetails?.offerId = line.productOfferDetails?.offerId
        alterV2(&altered)
        return altered
    }

    func order(packageName: String, orderID: String) async throws(PlayAPIError) -> PlayOrder {
        try await play.order(packageName: packageName, orderID: orderID)
    }

    func orders(packageName: String, orderIDs: [String]) async throws(PlayAPIError) -> [PlayOrder] {
        try await play.orders(packageName: packageName, orderIDs: orderIDs)
    }
}
