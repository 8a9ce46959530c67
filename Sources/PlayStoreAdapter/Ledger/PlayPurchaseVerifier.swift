import Foundation
import FulfillmentLedger

/// The ledger's verifier port for Google Play: a purchase token becomes verified
/// transaction facts by asking the Play Developer API: `purchases.products.get` for a one-time
/// product, `purchases.subscriptionsv2.get` for a store product ID in `subscriptionStoreProductIDs`.
///
/// The ledger key of a one-time Play purchase is its **purchase token**: the submission's
/// `transactionID` and `payload` are both the token. The Play order ID (`ProductPurchase.orderId`,
/// the `GPA.…` ID of the player's receipt) is kept on the record as `storeOrderID`, so support
/// finds the purchase from it. A subscription's token names
/// its chain, and each paid period is keyed by its order ID (`latestSuccessfulOrderId`), which
/// Google gives every renewal anew and never changes for a restore or a new device.
///
/// Environment rule: a license-tester purchase (`purchaseType` 0) is always reported as
/// `.sandbox`, so a production ledger rejects it as `wrongEnvironment`; every other
/// purchase is reported in the verifier's configured `environment`.
public struct PlayPurchaseVerifier: TransactionVerifier {
    /// The Play Developer API.
    public let api: any PlayPurchasesAPI
    /// The app's package name, such as `com.kibblestreet.td`.
    public let packageName: String
    /// The environment this verifier vouches for.
    public let environment: StoreEnvironment
    /// Gives the purchase date of a purchase Google reports without `purchaseTimeMillis`.
    public let clock: any LedgerClock
    /// The store product IDs sold as subscriptions (the catalog's `autoRenewable` products'
    /// Play IDs, `ProductCatalog.playSubscriptionStoreProductIDs`): read with `subscriptionsv2`.
    public let subscriptionStoreProductIDs: Set<String>

    /// How one-time purchases are read: `purchases.productsv2` (Play Billing Library 8's
    /// purchase options and offers) by default, falling back to `purchases.products.get` for a
    /// token productsv2 does not know; or `purchases.products.get` only.
    public var oneTimeProductRead: OneTimeProductRead = .productsV2

    /// The API a one-time purchase is read with.
    public enum OneTimeProductRead: String, Hashable, Sendable, CaseIterable {
        /// `purchases.productsv2.getproductpurchasev2`, then `purchases.products.get` for an
        /// old token productsv2 does not know.
        case productsV2
        /// `purchases.products.get` only.
        case productsV1
    }

    /// The store product type reported for a purchase of several line items, which one
    /// submission (one product, keyed by the token) cannot grant whole.
    public static let multiLinePurchaseType = StoreProductType(rawValue: "playMultiLinePurchase")

    /// `purchaseType` of a license-tester (test) purchase.
    public static let testPurchaseType = 0

    /// Creates a verifier for `packageName` that vouches for `environment`.
    public init(
        api: any PlayPurchasesAPI, packageName: String, environment: StoreEnvironment,
        clock: any LedgerClock = SystemClock(), subscriptionStoreProductIDs: Set<String> = []
    ) {
        self.api = api
        self.packageName = packageName
        self.environment = environment
        self.clock = clock
        self.subscriptionStoreProductIDs = subscriptionStoreProductIDs
    }

    /// The configured environment only.
    public var supportedEnvironments: Set<StoreEnvironment> { [environment] }

    /// Looks the token in `submission.payload` up for `submission.productID`.
    ///
    /// An invalid or unknown token, and an answer whose `purchaseTimeMillis` is malformed or
    /// out of range, are `.invalid`. A retryable API failure, and a refused or
    /// otherwise permanent one (a configuration problem: retry after fixing it), throw
    /// `LedgerError.verifierUnavailable`, so nothing is decided.
    public func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        let token = submission.payload
        guard !token.isEmpty else { return .invalid(reason: "the submission carries no purchase token") }
        if subscriptionStoreProductIDs.contains(submission.storeProductID) {
            return try await verifySubscription(token: token, storeProductID: submission.storeProductID)
        }
        var offerType: StoreProductType?
        var purchaseOption: StorePurchaseOption?
        var unknownV2State: String?
        var purchase: ProductPurchase
        if oneTimeProductRead == .productsV2,
            let read = try await readV2(token: token, storeProductID: submission.storeProductID)
        {
            switch read {
            case .invalid(let reason): return .invalid(reason: reason)
            case .found(let found, let type, let option, let unknownState):
                purchase = found
                offerType = type
                purchaseOption = option
                unknownV2State = unknownState
            }
        } else {
            do {
                purchase = try await api.productPurchase(
                    packageName: packageName, storeProductID: submission.storeProductID, token: token)
            } catch {
                switch error {
                case .invalidToken, .notFound:
                    return .invalid(reason: "Google Play does not know this purchase: \(error)")
                case .retryable, .unauthorized, .permanent:
                    throw LedgerError.verifierUnavailable("Google Play purchases.products.get failed: \(error)")
                }
            }
        }
        let result = check(purchase, token: token, submission: submission, offerType: offerType, purchaseOption: purchaseOption)
        guard case .verified(var verified) = result, let unknownV2State else { return result }
        // A productsv2 state the adapter does not know keeps Google's word and grants nothing.
        verified.state = PurchaseState(rawValue: "playPurchaseState:\(unknownV2State)")
        return .verified(verified)
    }

    /// The checks every read of a one-time purchase passes, then its facts.
    private func check(
        _ purchase: ProductPurchase, token: String, submission: TransactionSubmission, offerType: StoreProductType?,
        purchaseOption: StorePurchaseOption?
    ) -> VerificationResult {
        if let reported = purchase.productId, reported != submission.storeProductID {
            return .invalid(reason: "Google Play reports product \(reported), not \(submission.storeProductID)")
        }
        do throws(PlayPayloadError) {
            _ = try purchase.checkedPurchaseDate()
            if let orderID = purchase.orderId, !orderID.isEmpty {
                _ = try PlayPayloadLimits.identifier(orderID, field: "orderId", byteCountMax: PlayPayloadLimits.orderIDByteCountMax)
            }
        } catch {
            return .invalid(reason: "Google Play's answer is out of range: \(error)")
        }
        var verified = facts(purchase, token: token, storeProductID: submission.storeProductID)
        verified.storeProductType = offerType
        verified.purchaseOption = purchaseOption
        return .verified(verified)
    }

    /// What a productsv2 read gave.
    private enum V2Read {
        /// The purchase in `purchases.products.get`'s shape, the store product type of an
        /// offer the ledger grants only when the catalog maps it (a rental, a pre-order) or never
        /// (several line items), the purchase option and offer it was bought through, and a
        /// `purchaseState` the adapter does not know (or `missing`).
        case found(ProductPurchase, StoreProductType?, StorePurchaseOption?, unknownState: String?)
        case invalid(String)
    }

    /// Reads `token` with productsv2: nil when Google does not know it there (an old token,
    /// read with `purchases.products.get` next). An outage or a refused account throws.
    private func readV2(token: String, storeProductID: String) async throws(LedgerError) -> V2Read? {
        let answer: ProductPurchaseV2
        do {
            answer = try await api.productPurchaseV2(packageName: packageName, token: token)
        } catch {
            switch error {
            case .invalidToken, .notFound: return nil
            case .retryable, .unauthorized, .permanent:
                throw LedgerError.verifierUnavailable("Google Play purchases.productsv2 failed: \(error)")
            }
        }
        let lines = answer.productLineItem ?? []
        guard lines.count <= PlayPayloadLimits.lineItemCountMax else {
            return .invalid("Google Play's purchase has \(lines.count) line items, more than \(PlayPayloadLimits.lineItemCountMax)")
        }
        guard let line = answer.lineItem(for: storeProductID) else {
            return .invalid("Google Play's purchase has no line item for \(storeProductID)")
        }
        let purchase: ProductPurchase
        let option: StorePurchaseOption?
        do throws(PlayPayloadError) {
            guard let converted = try answer.productPurchase(for: storeProductID) else {
                return .invalid("Google Play's purchase has no line item for \(storeProductID)")
            }
            purchase = converted
            _ = try purchase.checkedRefundableQuantity()
            option = try line.purchaseOption()
        } catch {
            return .invalid("Google Play's answer is out of range: \(error)")
        }
        let offer = line.productOfferDetails
        let type: StoreProductType? =
            if offer?.rentOfferDetails != nil {
                ProductPurchaseV2.rentOfferType
            } else if offer?.preorderOfferDetails != nil {
                ProductPurchaseV2.preorderOfferType
            } else if lines.count > 1 {
                Self.multiLinePurchaseType
            } else {
                nil
            }
        let unknownState = answer.state == nil ? answer.purchaseStateContext?.purchaseState ?? "missing" : nil
        return .found(purchase, type, option, unknownState: unknownState)
    }

    /// The ledger's facts of a Play purchase fetched for `token` and `storeProductID`. A purchase time
    /// that is absent (or out of range, which `verify` refuses) is read as the clock's now; an
    /// empty order ID is left out, and an over-long one (which `verify` refuses) too.
    public func facts(_ purchase: ProductPurchase, token: String, storeProductID: String) -> VerifiedTransaction {
        let isTest = purchase.purchaseType == Self.testPurchaseType
        return VerifiedTransaction(
            store: .playStore, transactionID: token, storeProductID: storeProductID,
            accountBinding: purchase.obfuscatedExternalAccountId, quantity: purchase.quantity ?? 1,
            state: Self.state(purchase.purchaseState), environment: isTest ? .sandbox : environment,
            purchaseDate: purchase.purchaseDate ?? clock.now(),
            orderID: purchase.orderId.flatMap { orderID in
                (try? PlayPayloadLimits.identifier(
                    orderID, field: "orderId", byteCountMax: PlayPayloadLimits.orderIDByteCountMax))
            })
    }

    /// Maps Play's `purchaseState`: 0 purchased, 1 cancelled, 2 pending; any other value
    /// is kept as `playState<N>` and an absent one as `playStateMissing`; neither grants.
    public static func state(_ raw: Int?) -> PurchaseState {
        guard let raw else { return PurchaseState(rawValue: "playStateMissing") }
        switch ProductPurchase.State(rawValue: raw) {
        case .purchased: return .purchased
        case .canceled: return .cancelled
        case .pending: return .pending
        case nil: return PurchaseState(rawValue: "playState\(raw)")
        }
    }

    /// The submission for a purchase token the game client sent: the token is both the
    /// ledger's transaction ID and the proof. The pipeline verifies it before anything is granted.
    public static func submission(token: String, storeProductID: String, playerID: String, quantity: Int = 1)
        -> TransactionSubmission
    {
        TransactionSubmission(
            store: .playStore, transactionID: token, storeProductID: storeProductID, playerID: playerID, quantity: quantity,
            payload: token)
    }
}
