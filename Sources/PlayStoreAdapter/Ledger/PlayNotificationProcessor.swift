import Foundation
import FulfillmentLedger

/// Authenticates Google Play Real-time Developer Notification pushes from Cloud Pub/Sub and
/// drives the ledger from them, each applied once by its Pub/Sub `messageId`.
///
/// Nothing in a push is trusted: the request must carry Pub/Sub's OIDC token
/// (`PubSubPushAuthenticator`) before its body is read, a purchase notification is re-read
/// with `purchases.products.get` and re-submitted through `Ledger.fulfill` for the player that
/// `playerResolver` maps the purchase's `obfuscatedExternalAccountId` to, a subscription
/// notification is followed by `purchases.subscriptionsv2.get` (see
/// `PlayNotificationProcessor+Subscriptions.swift`), and a void is applied
/// only once Google confirms it: as the same event `VoidedPurchasesSync` builds when
/// `voidedpurchases.list` lists it (so the two paths never apply one void twice), or as a full
/// refund when `purchases.products.get` shows the purchase canceled or wholly refunded.
///
/// A retryable API failure, a verifier outage or unreadable signing keys throw and record
/// nothing, so Pub/Sub redelivers the message (answer it with a 5xx status).
public struct PlayNotificationProcessor: Sendable {
    /// The Play Developer API.
    public let api: any PlayPurchasesAPI
    /// The app's package name; notifications for any other package are rejected.
    public let packageName: String
    /// The ledger the notifications change.
    public let ledger: Ledger
    /// Checks each push's OIDC token before anything else.
    public let authenticator: PubSubPushAuthenticator
    /// Maps a purchase's `obfuscatedExternalAccountId` to the game's player ID; nil when unknown.
    public let playerResolver: @Sendable (_ obfuscatedExternalAccountId: String?) -> String?
    /// How far before the event time a void is looked for in `voidedpurchases.list`.
    public var voidLookupWindowSeconds: TimeInterval
    /// Most `voidedpurchases.list` pages read to find one void.
    public var voidLookupPageCountMax: Int

    /// Largest push body accepted, in bytes.
    public static let bodyByteCountMax = 64 * 1024
    /// Default lookup window: one hour.
    public static let defaultVoidLookupWindowSeconds: TimeInterval = 60 * 60
    /// Default lookup page limit.
    public static let defaultVoidLookupPageCountMax = 5
    /// Page size of a void lookup.
    public static let voidLookupPageSize = 1_000
    /// Answers chargeback reviews (`pendingRefundReviewNotification`) as they arrive; nil logs
    /// them for an operator (`ledger playstore refund-review`).
    public var refundReviewSender: PlayRefundReviewSender?

    /// Creates a processor.
    public init(
        api: any PlayPurchasesAPI, packageName: String, ledger: Ledger, authenticator: PubSubPushAuthenticator,
        playerResolver: @escaping @Sendable (_ obfuscatedExternalAccountId: String?) -> String?
    ) {
        self.api = api
        self.packageName = packageName
        self.ledger = ledger
        self.authenticator = authenticator
        self.playerResolver = playerResolver
        self.voidLookupWindowSeconds = Self.defaultVoidLookupWindowSeconds
        self.voidLookupPageCountMax = Self.defaultVoidLookupPageCountMax
    }

    /// Processes one push request: its headers (for `Authorization`) and the JSON body.
    /// Answer with `outcome.httpStatus`, or a 5xx when this throws.
    public func process(headers: [String: String], body: Data) async throws(LedgerError) -> PlayNotificationOutcome {
        if case .failure(let refusal) = try await authenticator.authenticate(headers: headers) {
            return .unauthenticated(refusal)
        }
        let parsed: (messageID: String, notification: DeveloperNotification, eventDate: Date?)
        switch decode(body) {
        case .failure(let rejection): return .rejected(rejection)
        case .success(let decoded): parsed = decoded
        }
        let messageID = parsed.messageID
        if let seen = try await ledger.storeNotification(id: messageID) {
            return .alreadyProcessed(seen)
        }
        let (type, token) = Self.typeAndToken(parsed.notification)
        let outcome = try await apply(parsed.notification, eventDate: parsed.eventDate, messageID: messageID)
        let record = StoreNotificationRecord(
            notificationID: messageID, store: .playStore, type: type,
            transaction: token.map { TransactionKey(store: .playStore, transactionID: $0) }, receivedAt: ledger.clock.now(),
            outcome: outcome.summary)
        // Fulfillment and revocation are idempotent themselves, so a crash before this write is safe.
        try await ledger.recordStoreNotification(record)
        switch outcome {
        case .fulfillment(let result): return .fulfillment(result)
        case .revocation(let result, let check): return .revocation(result, refundCheck: check)
        case .unresolved: return .unresolved(record)
        case .subscription(let effect): return .subscription(effect)
        case .unconfirmed: return .unconfirmed(record)
        case .logged: return .logged(record)
        case .refundReview(let review): return .refundReview(review, record)
        }
    }

    /// The message ID, the notification and its checked event time, or why the body is refused.
    private func decode(_ body: Data) -> Result<(String, DeveloperNotification, Date?), PlayPushRejection> {
        guard body.count <= Self.bodyByteCountMax else {
            return .failure(.init(.bodyTooLarge, "the body exceeds \(Self.bodyByteCountMax) bytes"))
        }
        guard let envelope = try? JSONDecoder().decode(PubSubPushEnvelope.self, from: body), let message = envelope.message
        else { return .failure(.init(.notAnEnvelope, "the body is not a Pub/Sub push envelope")) }
        guard let messageID = message.messageId, !messageID.isEmpty,
            messageID.utf8.count <= PlayPayloadLimits.messageIDByteCountMax
        else { return .failure(.init(.invalidMessageID, "the message has no messageId, or one that is too long")) }
        guard let data = message.decodedData, let notification = try? JSONDecoder().decode(DeveloperNotification.self, from: data)
        else { return .failure(.init(.notANotification, "the message data is not a developer notification")) }
        guard notification.packageName == packageName else {
            return .failure(
                .init(.wrongPackage, "the notification is for package \(notification.packageName ?? "(none)"), not \(packageName)"))
        }
        do throws(PlayPayloadError) {
            let eventDate = try notification.checkedEventDate()
            let tokens = [
                notification.oneTimeProductNotification?.purchaseToken, notification.subscriptionNotification?.purchaseToken,
                notification.voidedPurchaseNotification?.purchaseToken,
                notification.pendingRefundReviewNotification?.pendingRefundToken,
            ]
            for token in tokens where token != nil {
                _ = try PlayPayloadLimits.identifier(
                    token, field: "purchaseToken", byteCountMax: PlayPayloadLimits.purchaseTokenByteCountMax)
            }
            if let orderID = notification.pendingRefundReviewNotification?.orderId {
                _ = try PlayPayloadLimits.identifier(
                    orderID, field: "orderId", byteCountMax: PlayPayloadLimits.orderIDByteCountMax)
            }
            return .success((messageID, notification, eventDate))
        } catch {
            return .failure(PlayPushRejection(error))
        }
    }

    /// What `apply` did, before the notification is recorded.
    enum Applied {
        case fulfillment(FulfillmentOutcome)
        case revocation(RevocationOutcome, PlayRefundCheck?)
        case subscription(SubscriptionEffect)
        case unresolved(String)
        case unconfirmed(String)
        case logged(String)
        case refundReview(PlayRefundReviewOutcome)

        var summary: String {
            switch self {
            case .fulfillment(let outcome):
                outcome.rejection.map { "fulfillment rejected: \($0)" } ?? "fulfillment \(outcome.name)"
            case .revocation(let outcome, let check):
                (outcome.record.map { "revocation \($0.disposition.rawValue)" }
                    ?? "revocation rejected: \(outcome.rejection?.description ?? "")")
                    + (check.map { "; refund check \($0)" } ?? "")
            case .subscription(let effect): "subscription: \(effect.note)"
            case .unresolved(let reason): "unresolved: \(reason)"
            case .unconfirmed(let reason): "unconfirmed: \(reason)"
            case .logged(let note): note
            case .refundReview(let review): review.summary
            }
        }
    }

    /// Applies the notification. An identifier the ledger refuses (a token over its
    /// `identifierByteCountMax`) would be refused on every redelivery, so it is recorded as
    /// unresolved instead of thrown; nothing changed.
    private func apply(_ notification: DeveloperNotification, eventDate: Date?, messageID: String) async throws(LedgerError)
        -> Applied
    {
        do {
            return try await applyChecked(notification, eventDate: eventDate, messageID: messageID)
        } catch .invalidArgument(let detail) {
            return .unresolved("the ledger refused an identifier: \(detail)")
        }
    }

    private func applyChecked(_ notification: DeveloperNotification, eventDate: Date?, messageID: String)
        async throws(LedgerError) -> Applied
    {
        if let product = notification.oneTimeProductNotification {
            guard product.kind != nil, let token = product.purchaseToken, let sku = product.sku else {
                return .logged("logged: one-time product notification type \(product.notificationType ?? -1)")
            }
            return try await resubmit(token: token, productID: sku)
        }
        if let subscription = notification.subscriptionNotification {
            guard let token = subscription.purchaseToken, !token.isEmpty else {
                return .logged("logged: subscription notification type \(subscription.notificationType ?? -1) without a token")
            }
            return try await applySubscription(subscription, token: token, eventDate: eventDate ?? ledger.clock.now())
        }
        if let voided = notification.voidedPurchaseNotification {
            return try await revoke(voided, eventDate: eventDate ?? ledger.clock.now(), messageID: messageID)
        }
        if let review = notification.pendingRefundReviewNotification {
            return try await reviewRefund(review, requestedAt: eventDate ?? ledger.clock.now(), messageID: messageID)
        }
        return .logged("logged")
    }

    /// Fetches the purchase, resolves its player and runs it through the pipeline.
    private func resubmit(token: String, productID: String) async throws(LedgerError) -> Applied {
        let purchase: ProductPurchase
        do {
            purchase = try await api.productPurchase(packageName: packageName, storeProductID: productID, token: token)
        } catch {
            // Only a token Google does not know is final; anything else (outage, a refused service
            // account) throws, so nothing is recorded and Pub/Sub redelivers.
            switch error {
            case .invalidToken, .notFound: return .unresolved("the purchase could not be read: \(error)")
            default: throw LedgerError.verifierUnavailable("Google Play purchases.products.get failed: \(error)")
            }
        }
        guard let playerID = playerResolver(purchase.obfuscatedExternalAccountId) else {
            return .unresolved("no player for account \(purchase.obfuscatedExternalAccountId ?? "(none)")")
        }
        let submission = PlayPurchaseVerifier.submission(
            token: token, storeProductID: productID, playerID: playerID, quantity: purchase.quantity ?? 1)
        return .fulfillment(try await ledger.fulfill(submission, via: .notification))
    }

    /// Answers a chargeback review with `refundReviewSender`, or logs it when there is none.
    private func reviewRefund(
        _ review: DeveloperNotification.PendingRefundReviewNotification, requestedAt: Date, messageID: String
    ) async throws(LedgerError) -> Applied {
        guard let orderID = review.orderId, let token = review.pendingRefundToken, !token.isEmpty else {
            return .unresolved("a refund review without an orderId or a pendingRefundToken")
        }
        guard let refundReviewSender else {
            let deadline = PlayRefundReviewSender.deadline(requestedAt: requestedAt).ledgerISO8601
            return .logged("logged: refund review of order \(orderID) requested, to answer by \(deadline); no sender is configured")
        }
        return .refundReview(
            try await refundReviewSender.answer(
                orderID: orderID, pendingRefundToken: token, requestedAt: requestedAt, messageID: messageID))
    }

    private static func typeAndToken(_ notification: DeveloperNotification) -> (String, String?) {
        if let product = notification.oneTimeProductNotification {
            let type: String
            switch product.kind {
            case .purchased: type = "ONE_TIME_PRODUCT_PURCHASED"
            case .canceled: type = "ONE_TIME_PRODUCT_CANCELED"
            case nil: type = "ONE_TIME_PRODUCT_\(product.notificationType ?? -1)"
            }
            return (type, product.purchaseToken)
        }
        if let subscription = notification.subscriptionNotification { return (subscription.typeName, subscription.purchaseToken) }
        if let voided = notification.voidedPurchaseNotification { return ("VOIDED_PURCHASE", voided.purchaseToken) }
        if let review = notification.pendingRefundReviewNotification { return ("PENDING_REFUND_REVIEW", review.orderId) }
        if notification.testNotification != nil { return ("TEST", nil) }
        return ("UNKNOWN", nil)
    }
}
