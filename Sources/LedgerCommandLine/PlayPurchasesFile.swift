import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import Synchronization

/// A Play Developer API answered from a JSON file instead of Google: for trying the
/// `ledger playstore` commands offline and in tests.
///
/// The file: `{"purchases": {"TOKEN": {ProductPurchase JSON}, ...}, "subscriptions": {"TOKEN":
/// {SubscriptionPurchaseV2 JSON}, ...}, "voided": [{VoidedPurchase JSON}, ...], "orders": {"ORDER-ID":
/// {Order JSON}, ...}}`.
/// The file stands in for Google: a void is confirmed only when its `voided` list names it (or
/// its purchase shows `purchaseState` 1 or `refundableQuantity` 0, as `purchases.products.get`
/// would). Acknowledge and consume succeed and are remembered for the life of the process only.
final class PlayPurchasesFile: PlayPurchasesAPI {
    /// Largest file read.
    static let byteCountMax = 4 * 1024 * 1024

    struct Contents: Decodable {
        var purchases: [String: ProductPurchase]?
        var subscriptions: [String: SubscriptionPurchaseV2]?
        var voided: [VoidedPurchase]?
        var orders: [String: PlayOrder]?
    }

    private let contents: Contents
    private let finished = Mutex<Set<String>>([])

    init(path: String) throws(Arguments.UsageError) {
        guard let data = FileManager.default.contents(atPath: path), data.count <= Self.byteCountMax else {
            throw Arguments.UsageError(message: "cannot read --purchases \(path), or it is larger than \(Self.byteCountMax) bytes")
        }
        // The project's strict parser first: a duplicate key, a trailing comma or a misspelt
        // top-level section ("purchase") is refused with its line and column, never read as an
        // empty file. The purchases themselves are Google's documents, read as the API client
        // reads Google's answers: a field Google adds is ignored.
        do throws(StrictJSONError) {
            let root = try StrictJSON.parse(data)
            try Self.checkSections(root)
        } catch {
            throw Arguments.UsageError(message: "--purchases \(path) is not a purchases file: " + error.lines(source: path).joined(separator: "; "))
        }
        do {
            contents = try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw Arguments.UsageError(message: "--purchases \(path) is not a purchases file: \(error)")
        }
    }

    /// The file's top-level sections.
    static let sections: Set<String> = ["purchases", "subscriptions", "voided", "orders"]

    /// Refuses a document that is not an object of `sections`, naming the nearest for a typo.
    static func checkSections(_ root: JSONValue) throws(StrictJSONError) {
        guard case .object(let object, _) = root else {
            throw StrictJSONError([.init(path: "$", message: "expected an object of \(sections.sorted())", position: root.position)])
        }
        let unknown = object.members.filter { !sections.contains($0.key) }.map { member in
            let hint = EditDistance.nearest(to: member.key, in: sections).map { "did you mean \"\($0)\"?" }
                ?? "allowed here: " + sections.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            return StrictJSONError.Problem(
                path: "$.\(member.key)", message: "unknown field \"\(member.key)\"; \(hint)", position: member.keyPosition)
        }
        guard unknown.isEmpty else { throw StrictJSONError(unknown) }
    }

    func productPurchase(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError)
        -> ProductPurchase
    {
        guard var purchase = contents.purchases?[token] else { throw PlayAPIError.invalidToken("unknown token") }
        guard purchase.productId == nil || purchase.productId == storeProductID else {
            throw PlayAPIError.notFound("token \(token) is for another product")
        }
        purchase.purchaseToken = token
        purchase.productId = storeProductID
        return purchase
    }

    func acknowledge(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {
        guard contents.purchases?[token] != nil else { throw PlayAPIError.invalidToken("unknown token") }
        _ = finished.withLock { $0.insert(token) }
    }

    func consume(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {
        try await acknowledge(packageName: packageName, storeProductID: storeProductID, token: token)
    }

    func voidedPurchases(
        packageName: String, startTime: Date, endTime: Date?, pageToken: String?, maxResults: Int,
        includeQuantityBasedPartialRefund: Bool, includeSubscriptions: Bool
    ) async throws(PlayAPIError) -> VoidedPurchasesPage {
        // As Google: partial refunds only when asked for; a record with a bad time is listed
        // (the caller refuses it), one outside the window is not.
        let all = (contents.voided ?? []).filter { record in
            (includeQuantityBasedPartialRefund || record.voidedQuantity == nil)
                && (record.voidedDate.map { $0 >= startTime } ?? true)
        }
        let offset = Int(pageToken ?? "0") ?? 0
        let page = Array(all.dropFirst(offset).prefix(max(1, maxResults)))
        let next = offset + page.count < all.count ? String(offset + page.count) : nil
        return VoidedPurchasesPage(voidedPurchases: page, nextPageToken: next)
    }

    func subscriptionPurchase(packageName: String, token: String) async throws(PlayAPIError) -> SubscriptionPurchaseV2 {
        guard let subscription = contents.subscriptions?[token] else { throw PlayAPIError.invalidToken("unknown token") }
        return subscription
    }

    func acknowledgeSubscription(
        packageName: String, storeProductID: String, token: String, externalAccountIDs: PlayExternalAccountIDs?
    ) async throws(PlayAPIError) {
        guard contents.subscriptions?[token] != nil else { throw PlayAPIError.invalidToken("unknown token") }
        _ = finished.withLock { $0.insert(token) }
    }

    /// Accepted, like an acknowledgement: an offline trial has no Google to tell.
    func reviewRefund(packageName: String, orderID: String, request: PlayRefundReviewRequest) async throws(PlayAPIError) {
        _ = finished.withLock { $0.insert("review:" + orderID) }
    }

    /// The file's purchase of `token` in the productsv2 shape.
    func productPurchaseV2(packageName: String, token: String) async throws(PlayAPIError) -> ProductPurchaseV2 {
        guard var purchase = contents.purchases?[token] else { throw PlayAPIError.invalidToken("unknown token") }
        purchase.purchaseToken = token
        return ProductPurchaseV2(purchase)
    }

    func order(packageName: String, orderID: String) async throws(PlayAPIError) -> PlayOrder {
        guard var order = contents.orders?[orderID] else { throw PlayAPIError.notFound("unknown order \(orderID)") }
        order.orderId = order.orderId ?? orderID
        return order
    }

    /// As Google: an unknown order fails the whole batch.
    func orders(packageName: String, orderIDs: [String]) async throws(PlayAPIError) -> [PlayOrder] {
        if let problem = PlayOrderLimits.batchProblem(orderIDs) { throw PlayAPIError.permanent(problem) }
        var found: [PlayOrder] = []
        for orderID in orderIDs { found.append(try await order(packageName: packageName, orderID: orderID)) }
        return found
    }
}
