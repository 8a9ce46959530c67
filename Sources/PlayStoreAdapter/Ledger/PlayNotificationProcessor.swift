import Foundation
import FulfillmentLedger

/// What processing one Google Play Real-time Developer Notification did.
public enum PlayNotificationOutcome: Hashable, Sendable {
    /// The push body was malformed or for another package; nothing changed or was recorded.
    case rejected(String)
    /// This Pub/Sub `messageId` was processed before; nothing changed now.
    case alreadyProcessed(StoreNotificationRecord)
    /// A one-time product purchased or canceled: the purchase went through the pipeline.
    case fulfillment(FulfillmentOutcome)
    /// The purchase or its player could not be resolved; recorded, nothing granted.
    /// The client's own submission or `recover()` still fulfills the purchase.
    case unresolved(StoreNotificationRecord)
    /// A voided purchase, applied as a revocation event.
    case revocation(RevocationOutcome)
    /// A test notification, a subscription void, an unknown type, or a partial refund whose
    /// voided record was not listed yet (left to `VoidedPurchasesSync`): accepted and logged.
    case logged(StoreNotificationRecord)
}

/// Decodes Google Play RTDN push bodies and drives the ledger from them, each applied
/// once by its Pub/Sub `messageId`.
///
/// A purchase notification is re-submitted through `Ledger.fulfill` for the player that
/// `playerResolver` maps the purchase's `obfuscatedExternalAccountId` to. A voided purchase
/// becomes the same event `VoidedPurchasesSync` builds (looked up in `voidedpurchases.list`
/// around the event time), so the two paths never apply one void twice.
///
/// A retryable API failure or a verifier outage throws and records nothing, so Pub/Sub
/// redelivers the message (answer it with a non-2xx status).
public struct PlayNotificationProcessor: Sendable {
    /// The Play Developer API.
    public let api: any PlayPurchasesAPI
    /// The app's package name; notifications for any other package are rejected.
    public let packageName: String
    /// The ledger the notifications change.
    public let ledger: Ledger
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

    /// Creates a processor.
    public init(
        api: any PlayPurchasesAPI, packageName: String, ledger: Ledger,
        playerResolver: @escaping @Sendable (_ obfuscatedExternalAccountId: String?) -> String?
    ) {
        self.api = api
        self.packageName = packageName
        self.ledger = ledger
        self.playerResolver = playerResolver
        self.voidLookupWindowSeconds = Self.defaultVoidLookupWindowSeconds
        self.voidLookupPageCountMax = Self.defaultVoidLookupPageCountMax
    }

    /// Processes the JSON body Pub/Sub pushes.
    public func process(_ body: Data) async throws(LedgerError) -> PlayNotificationOutcome {
        guard body.count <= Self.bodyByteCountMax else { return .rejected("the body exceeds \(Self.bodyByteCountMax) bytes") }
        guard let envelope = try? JSONDecoder().decode(PubSubPushEnvelope.self, from: body),
            let message = envelope.message
        else { return .rejected("the body is not a Pub/Sub push envelope") }
        guard let messageID = message.messageId, !messageID.isEmpty else { return .rejected("the message has no messageId") }
        guard let data = message.decodedData,
            let notification = try? JSONDecoder().decode(DeveloperNotification.self, from: data)
        else { return .rejected("the message data is not a developer notification") }
        guard notification.packageName == packageName else {
            return .rejected("the notification is for package \(notification.packageName ?? "(none)"), not \(packageName)")
        }
        if let seen = try ledger.store.read({ reader throws(LedgerError) in try reader.storeNotification(id: messageID) }) {
            return .alreadyProcessed(seen)
        }
        let (type, token) = Self.typeAndToken(notification)
        let outcome = try await apply(notification, messageID: messageID)
        let record = StoreNotificationRecord(
            notificationID: messageID, store: .playStore, type: type,
            transaction: token.map { TransactionKey(store: .playStore, transactionID: $0) }, receivedAt: ledger.clock.now(),
            outcome: outcome.summary)
        // Fulfillment and revocation are idempotent themselves, so a crash before this write is safe.
        try ledger.store.write { writer throws(LedgerError) in
            if try writer.storeNotification(id: messageID) == nil { try writer.insertStoreNotification(record) }
        }
        switch outcome {
        case .fulfillment(let result): return .fulfillment(result)
        case .revocation(let result): return .revocation(result)
        case .unresolved: return .unresolved(record)
        case .logged: return .logged(record)
        }
    }

    /// What `apply` did, before the notification is recorded.
    private enum Applied {
        case fulfillment(FulfillmentOutcome)
        case revocation(RevocationOutcome)
        case unresolved(String)
        case logged(String)

        var summary: String {
            switch self {
            case .fulfillment(let outcome):
                outcome.rejection.map { "fulfillment rejected: \($0)" } ?? "fulfillment \(outcome.name)"
            case .revocation(let outcome):
                outcome.record.map { "revocation \($0.disposition.rawValue)" }
                    ?? "revocation rejected: \(outcome.rejection?.description ?? "")"
            case .unresolved(let reason): "unresolved: \(reason)"
            case .logged(let note): note
            }
        }
    }

    private func apply(_ notification: DeveloperNotification, messageID: String) async throws(LedgerError) -> Applied {
        if let product = notification.oneTimeProductNotification {
            guard product.kind != nil, let token = product.purchaseToken, let sku = product.sku else {
                return .logged("logged: one-time product notification type \(product.notificationType ?? -1)")
            }
            return try await resubmit(token: token, productID: sku)
        }
        if let voided = notification.voidedPurchaseNotification {
            return try await revoke(voided, notification: notification, messageID: messageID)
        }
        return .logged("logged")
    }

    /// Fetches the purchase, resolves its player and runs it through the pipeline.
    private func resubmit(token: String, productID: String) async throws(LedgerError) -> Applied {
        let purchase: ProductPurchase
        do {
            purchase = try await api.productPurchase(packageName: packageName, productID: productID, token: token)
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
            token: token, productID: productID, playerID: playerID, quantity: purchase.quantity ?? 1)
        return .fulfillment(try await ledger.fulfill(submission))
    }

    /// Applies a one-time product void as the event the voided-purchases list describes.
    private func revoke(
        _ voided: DeveloperNotification.VoidedPurchaseNotification, notification: DeveloperNotification,
        messageID: String
    ) async throws(LedgerError) -> Applied {
        guard voided.productType != DeveloperNotification.VoidedPurchaseNotification.subscriptionProductType,
            let token = voided.purchaseToken, !token.isEmpty
        else { return .logged("logged: not a one-time product void") }
        let eventDate = notification.eventDate ?? ledger.clock.now()
        if let listed = try await lookUpVoid(token: token, around: eventDate), let event = PlayVoidedEvent.event(for: listed) {
            return .revocation(try ledger.applyRevocation(event))
        }
        guard voided.refundType == DeveloperNotification.VoidedPurchaseNotification.fullRefundType else {
            // A partial or unknown refund type: guessing a quantity could take back more than was
            // refunded; the sync applies it once Google lists it.
            return .logged("logged: refund type \(voided.refundType.map(String.init) ?? "missing") not listed yet; left to the voided purchases sync")
        }
        let event = RevocationEvent(
            eventID: PlayVoidedEvent.eventIDPrefix + messageID, store: .playStore, transactionID: token,
            kind: .fullRefund, eventDate: eventDate, reason: voided.refundType.map { "refundType \($0)" })
        return .revocation(try ledger.applyRevocation(event))
    }

    /// The voided-purchases record of `token` closest to `date`, listed from shortly before it.
    /// A retryable failure throws; any other failure counts as not found.
    private func lookUpVoid(token: String, around date: Date) async throws(LedgerError) -> VoidedPurchase? {
        let start = date.addingTimeInterval(-voidLookupWindowSeconds)
        var pageToken: String?
        var found: VoidedPurchase?
        for _ in 0..<max(1, voidLookupPageCountMax) {
            let page: VoidedPurchasesPage
            do {
                page = try await api.voidedPurchases(
                    packageName: packageName, startTime: start, endTime: nil, pageToken: pageToken,
                    maxResults: Self.voidLookupPageSize)
            } catch {
                // Only "nothing there" is an answer; an outage or a refused account throws so the push is redelivered.
                switch error {
                case .invalidToken, .notFound: return nil
                default: throw LedgerError.verifierUnavailable("Google Play voidedpurchases.list failed: \(error)")
                }
            }
            // The void of the token closest to the notification's event time.
            for candidate in page.voidedPurchases where candidate.purchaseToken == token {
                guard let time = candidate.voidedDate else { continue }
                let distance = abs(time.timeIntervalSince(date))
                if found?.voidedDate.map({ abs($0.timeIntervalSince(date)) > distance }) ?? true { found = candidate }
            }
            pageToken = page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
            if pageToken == nil { break }
        }
        return found
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
        if let voided = notification.voidedPurchaseNotification { return ("VOIDED_PURCHASE", voided.purchaseToken) }
        if notification.testNotification != nil { return ("TEST", nil) }
        return ("UNKNOWN", nil)
    }
}
