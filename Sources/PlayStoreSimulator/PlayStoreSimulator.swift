import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import Synchronization

/// An in-memory Google Play: a `PlayPurchasesAPI` with purchases, acknowledgement and
/// consumption, voided purchases with paging, scripted failures, and RTDN push bodies.
public final class PlayStoreSimulator: PlayPurchasesAPI {
    /// The Play Developer API calls a failure can be scripted for.
    public enum Call: String, Hashable, Sendable, CaseIterable {
        /// `purchases.products.get`.
        case get
        /// `purchases.products.acknowledge`.
        case acknowledge
        /// `purchases.products.consume`.
        case consume
        /// `voidedpurchases.list`.
        case voidedList
        /// `purchases.subscriptionsv2.get`.
        case subscriptionGet
        /// `purchases.subscriptions.acknowledge`.
        case subscriptionAcknowledge
        /// `orders.reviewrefund`.
        case reviewRefund
        /// `orders.get` and `orders.batchget`.
        case orderGet
    }

    /// The package name the simulator answers for; other packages get `notFound`.
    public let packageName: String
    /// The simulator's time: purchase, void and event times.
    public let clock: any LedgerClock
    let state: Mutex<State>

    /// The largest page `voidedPurchases` returns, whatever `maxResults` asks for.
    public static let defaultPageSizeMax = 1_000

    struct Failure {
        var error: PlayAPIError
        var remaining: Int
    }

    struct State {
        var purchases: [String: ProductPurchase] = [:]
        var subscriptions: [String: SimulatedSubscription] = [:]
        /// Order IDs of listed voids that are subscription periods (`type=1` lists them).
        var subscriptionVoidOrderIDs: Set<String> = []
        /// The account IDs each out-of-app resubscription was acknowledged with.
        var subscriptionAttributions: [String: PlayExternalAccountIDs] = [:]
        /// How each one-time purchase was bought, as productsv2 reports it (default: the
        /// purchase option `PlayStoreSimulator.defaultPurchaseOptionID`).
        var productOffers: [String: ProductPurchaseV2.ProductOfferDetails] = [:]
        /// Unit prices by product ID, in nanos of `PlayStoreSimulator.currencyCode`.
        var unitPriceNanos: [String: Int64] = [:]
        /// Chargebacks awaiting the game's review, by order ID.
        var refundReviews: [String: SimulatedRefundReview] = [:]
        var voided: [VoidedPurchase] = []
        var unlisted: [VoidedPurchase] = []
        var failures: [Call: Failure] = [:]
        var calls: [Call: Int] = [:]
        var nextSerial = 1
        var nextMessage = 1
        var pageSizeMax: Int
    }

    /// Creates an empty store for `packageName`.
    public init(packageName: String, clock: any LedgerClock, pageSizeMax: Int = defaultPageSizeMax) {
        self.packageName = packageName
        self.clock = clock
        self.state = Mutex(State(pageSizeMax: max(1, pageSizeMax)))
    }

    // MARK: Setting up the store

    /// Records a purchase and returns its token. `testPurchase` marks a license-tester purchase
    /// (`purchaseType` 0); `state` is the raw `purchaseState` (0 purchased, 1 canceled, 2 pending).
    @discardableResult
    public func purchase(
        productID: String, quantity: Int = 1, accountID: String?, state purchaseState: Int = 0,
        testPurchase: Bool = false
    ) -> String {
        let now = clock.now()
        return state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial += 1
            let token = "play-token-\(serial)-\(productID)"
            var purchase = ProductPurchase()
            purchase.kind = "androidpublisher#productPurchase"
            purchase.productId = productID
            purchase.orderId = "GPA.0000-0000-0000-\(String(format: "%05d", serial))"
            purchase.purchaseState = purchaseState
            purchase.consumptionState = 0
            purchase.acknowledgementState = 0
            purchase.quantity = quantity
            purchase.refundableQuantity = quantity
            purchase.obfuscatedExternalAccountId = accountID
            purchase.purchaseType = testPurchase ? 0 : nil
            purchase.regionCode = "US"
            purchase.purchaseTimeMillis = String(now.ledgerMilliseconds)
            state.purchases[token] = purchase
            return token
        }
    }

    /// Sets a purchase's raw `purchaseState`, such as a pending purchase becoming paid.
    public func setState(_ token: String, to purchaseState: Int) {
        state.withLock { $0.purchases[token]?.purchaseState = purchaseState }
    }

    /// Sets a purchase's `orderId`, so a test can send what Google should never send.
    public func setOrderID(_ token: String, to orderID: String?) {
        state.withLock { $0.purchases[token]?.orderId = orderID }
    }

    /// Sets a purchase's `refundableQuantity` without a void, so a test can make Google's count
    /// disagree with its list.
    public func setRefundableQuantity(_ token: String, to quantity: Int?) {
        state.withLock { $0.purchases[token]?.refundableQuantity = quantity }
    }

    /// The purchase as Google holds it now.
    public func storedPurchase(_ token: String) -> ProductPurchase? { state.withLock { $0.purchases[token] } }

    /// Whether the purchase was acknowledged.
    public func isAcknowledged(_ token: String) -> Bool {
        state.withLock { $0.purchases[token]?.acknowledgementState == 1 }
    }

    /// Whether the purchase was consumed.
    public func isConsumed(_ token: String) -> Bool { state.withLock { $0.purchases[token]?.consumptionState == 1 } }

    /// Voids a purchase: `quantity` units as a quantity-based partial refund (reported with
    /// `voidedQuantity`, and listed only to callers that ask for such refunds, as at Google), or
    /// all of it when nil. `refundableQuantity` drops at once; the record is listed by
    /// `voidedPurchases` when `listed`, else only after `listUnlistedVoids()` (Google counts a
    /// refund before it lists it). Returns the voided record.
    @discardableResult
    public func void(
        token: String, quantity: Int? = nil, at date: Date? = nil, reason: Int = 1, listed: Bool = true
    ) -> VoidedPurchase {
        let when = date ?? clock.now()
        return state.withLock { state in
            var record = VoidedPurchase()
            record.kind = "androidpublisher#voidedPurchase"
            record.purchaseToken = token
            record.orderId = state.purchases[token]?.orderId
            record.purchaseTimeMillis = state.purchases[token]?.purchaseTimeMillis
            record.voidedTimeMillis = String(when.ledgerMilliseconds)
            record.voidedSource = 0
            record.voidedReason = reason
            record.voidedQuantity = quantity
            if var purchase = state.purchases[token] {
                let refundable = purchase.refundableQuantity ?? purchase.quantity ?? 1
                purchase.refundableQuantity = max(0, refundable - (quantity ?? refundable))
                state.purchases[token] = purchase
            }
            if listed { state.voided.append(record) } else { state.unlisted.append(record) }
            return record
        }
    }

    /// Lists every void made with `listed: false`.
    public func listUnlistedVoids() {
        state.withLock { state in
            state.voided += state.unlisted
            state.unlisted = []
        }
    }

    /// A fresh Pub/Sub-style message ID (a decimal string).
    func nextMessageID() -> String {
        state.withLock { state in
            defer { state.nextMessage += 1 }
            return String(state.nextMessage + 9_000_000_000)
        }
    }

    /// Makes the next `times` calls of `call` fail with `error`.
    public func fail(_ call: Call, with error: PlayAPIError, times: Int = 1) {
        state.withLock { $0.failures[call] = Failure(error: error, remaining: times) }
    }

    /// Withdraws the failures `fail` armed for `call` that have not fired yet.
    public func clearFailure(_ call: Call) {
        _ = state.withLock { $0.failures.removeValue(forKey: call) }
    }

    /// How many times `call` was made (failed calls included).
    public func callCount(_ call: Call) -> Int { state.withLock { $0.calls[call] ?? 0 } }

    // MARK: PlayPurchasesAPI

    /// The purchase option every purchase is bought through unless `setOffer` says otherwise.
    public static let defaultPurchaseOptionID = "buy"

    /// Sets how `token`'s purchase was bought, as productsv2 reports it: its purchase option,
    /// its offer, and whether that offer is a rental or a pre-order (released at
    /// `preorderReleaseTime`).
    public func setOffer(
        _ token: String, purchaseOptionID: String?, offerID: String? = nil, rental: Bool = false,
        preorderReleaseTime: Date? = nil
    ) {
        state.withLock { state in
            var details = ProductPurchaseV2.ProductOfferDetails(
                purchaseOptionId: purchaseOptionID, offerId: offerID, quantity: nil, refundableQuantity: nil)
            details.rentOfferDetails = rental ? ProductPurchaseV2.RentOfferDetails() : nil
            details.preorderOfferDetails = preorderReleaseTime.map { .init(preorderReleaseTime: $0.ledgerISO8601) }
            state.productOffers[token] = details
        }
    }

    /// `purchases.productsv2.getproductpurchasev2`: the purchase with its one line, bought as
    /// `setOffer` said. Counted as a `.get` call, like `purchases.products.get` (either read of
    /// a one-time purchase), and failing as `fail(.get, …)` says.
    public func productPurchaseV2(packageName: String, token: String) async throws(PlayAPIError) -> ProductPurchaseV2 {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.get, &state)
            guard packageName == self.packageName else { throw PlayAPIError.notFound("no app \(packageName)") }
            guard let purchase = state.purchases[token] else { throw PlayAPIError.invalidToken("unknown purchase token") }
            let offer = state.productOffers[token]
            var answer = ProductPurchaseV2(purchase, purchaseOptionID: offer?.purchaseOptionId ?? Self.defaultPurchaseOptionID)
            if let offer {
                answer.productLineItem?[0].productOfferDetails?.offerId = offer.offerId
                answer.productLineItem?[0].productOfferDetails?.rentOfferDetails = offer.rentOfferDetails
                answer.productLineItem?[0].productOfferDetails?.preorderOfferDetails = offer.preorderOfferDetails
            }
            return answer
        }
    }

    /// `purchases.products.get`.
    public func productPurchase(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError)
        -> ProductPurchase
    {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.get, &state)
            var purchase = try self.lookUp(packageName: packageName, storeProductID: storeProductID, token: token, in: state)
            purchase.purchaseToken = nil  // Google omits it in `get`.
            return purchase
        }
    }

    /// `purchases.products.acknowledge`: repeating it succeeds, as at Google.
    public func acknowledge(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.acknowledge, &state)
            let purchase = try self.lookUp(packageName: packageName, storeProductID: storeProductID, token: token, in: state)
            guard purchase.purchaseState == 0 else { throw PlayAPIError.invalidToken("the purchase is not purchased") }
            state.purchases[token]?.acknowledgementState = 1
        }
    }

    /// `purchases.products.consume`: consuming twice fails with `invalidToken`, as at Google.
    public func consume(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.consume, &state)
            let purchase = try self.lookUp(packageName: packageName, storeProductID: storeProductID, token: token, in: state)
            guard purchase.purchaseState == 0 else { throw PlayAPIError.invalidToken("the purchase is not purchased") }
            guard purchase.consumptionState != 1 else { throw PlayAPIError.invalidToken("the purchase is already consumed") }
            state.purchases[token]?.consumptionState = 1
            state.purchases[token]?.acknowledgementState = 1
        }
    }

    /// `voidedpurchases.list`: listed voids with `startTime <= voidedTime <= endTime`, oldest
    /// first, in pages of at most `min(maxResults, pageSizeMax)`; the page token is an offset.
    /// Quantity-based partial refunds are left out unless `includeQuantityBasedPartialRefund`,
    /// subscription periods unless `includeSubscriptions` (`type=1`).
    public func voidedPurchases(
        packageName: String, startTime: Date, endTime: Date?, pageToken: String?, maxResults: Int,
        includeQuantityBasedPartialRefund: Bool, includeSubscriptions: Bool
    ) async throws(PlayAPIError) -> VoidedPurchasesPage {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.voidedList, &state)
            guard packageName == self.packageName else { throw PlayAPIError.notFound("no app \(packageName)") }
            let start = startTime.ledgerMilliseconds
            let end = endTime?.ledgerMilliseconds ?? Int64.max
            let matching = state.voided.filter { record in
                guard includeQuantityBasedPartialRefund || record.voidedQuantity == nil else { return false }
                guard includeSubscriptions || !state.subscriptionVoidOrderIDs.contains(record.orderId ?? "") else { return false }
                guard let millis = record.voidedTimeMillis.flatMap(Int64.init) else { return false }
                return millis >= start && millis <= end
            }.sorted { ($0.voidedTimeMillis.flatMap(Int64.init) ?? 0) < ($1.voidedTimeMillis.flatMap(Int64.init) ?? 0) }
            guard let offset = pageToken.map({ Int($0) }) ?? 0, offset >= 0, offset <= matching.count else {
                throw PlayAPIError.invalidToken("bad page token")
            }
            let size = max(1, min(maxResults, state.pageSizeMax))
            let slice = Array(matching[offset..<min(offset + size, matching.count)])
            let next = offset + slice.count < matching.count ? String(offset + slice.count) : nil
            return VoidedPurchasesPage(voidedPurchases: slice, nextPageToken: next)
        }
    }

    static func begin(_ call: Call, _ state: inout State) throws(PlayAPIError) {
        state.calls[call, default: 0] += 1
        guard var failure = state.failures[call] else { return }
        failure.remaining -= 1
        state.failures[call] = failure.remaining > 0 ? failure : nil
        throw failure.error
    }

    private func lookUp(packageName: String, storeProductID: String, token: String, in state: State) throws(PlayAPIError)
        -> ProductPurchase
    {
        guard packageName == self.packageName else { throw PlayAPIError.notFound("no app \(packageName)") }
        guard let purchase = state.purchases[token] else { throw PlayAPIError.invalidToken("unknown purchase token") }
        guard purchase.productId == storeProductID else { throw PlayAPIError.notFound("token is not for \(storeProductID)") }
        return purchase
    }
}
