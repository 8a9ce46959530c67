import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import Synchronization

/// A Play Developer API answered from a JSON file instead of Google: for trying the
/// `ledger playstore` commands offline and in tests.
///
/// The file: `{"purchases": {"TOKEN": {ProductPurchase JSON}, ...}, "subscriptions": {"TOKEN":
/// {SubscriptionPurchaseV2 JSON}, ...}, "voided": [{VoidedPurchase JSON}, ...]}`.
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
    }

    private let contents: Contents
    private let finished = Mutex<Set<String>>([])

    init(path: String) throws(Arguments.UsageError) {
        guard let data = FileManager.default.contents(atPath: path), data.count <= Self.byteCountMax else {
            throw Arguments.UsageError(message: "cannot read --purchases \(path), or it is larger than \(Self.byteCountMax) bytes")
        }
        do {
            contents = try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw Arguments.UsageError(message: "--purchases \(path) is not a purchases file: \(error)")
        }
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

    func acknowledgeSubscription(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {
        guard contents.subscriptions?[token] != nil else { throw PlayAPIError.invalidToken("unknown token") }
        _ = finished.withLock { $0.insert(token) }
    }
}
