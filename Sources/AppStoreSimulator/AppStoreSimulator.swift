import AppStoreAdapter
import FulfillmentLedger
import Foundation
import Synchronization

/// A simulated App Store: sells products, refunds them and sends server notifications, each
/// signed as Apple signs them but by a chain generated for the simulator. Configure the
/// verifier under test with `rootCertificateDER` and it accepts what this store signs.
///
/// Safe to share between tasks: its state sits behind a `Mutex`.
public final class AppStoreSimulator: Sendable {
    /// The app's bundle ID, written into every payload.
    public let bundleID: String
    /// The environment written into every payload.
    public let environment: AppStoreEnvironment
    /// The app's Apple ID, written into notifications when set.
    public let appAppleID: Int64?
    /// The app's build version, written into notifications.
    public let bundleVersion: String
    /// The chain that signs everything this store sends.
    public let certificateAuthority: AppStoreTestCertificateAuthority
    /// A second, unrelated chain that signs forged payloads; nobody trusts its root.
    public let untrustedCertificateAuthority: AppStoreTestCertificateAuthority
    /// The signer: `certificateAuthority`'s leaf with the configured options.
    public let signer: AppStoreJWSSigner

    struct State: Sendable {
        var transactions: [String: AppStoreSimulatedTransaction] = [:]
        var nextTransactionNumber: Int64 = 1
        var nextWebOrderNumber: Int64 = 1
        /// Each subscription's renewal state, by `originalTransactionId`; absent is renewing.
        var renewals: [String: RenewalState] = [:]
        /// A period's length by product ID, for products that do not last `subscriptionPeriod`.
        var periodSecondsByProductID: [String: TimeInterval] = [:]

        /// How long a period of `productID` lasts.
        func periodSeconds(_ productID: String) -> TimeInterval {
            periodSecondsByProductID[productID] ?? AppStoreSimulator.subscriptionPeriod
        }
    }

    /// Where a subscription's next renewal stands, as its renewal information reports it.
    struct RenewalState: Sendable {
        var autoRenew = true
        var inBillingRetry = false
        var gracePeriodExpiresDate: Date?
    }

    /// First transaction ID; Apple's IDs are decimal strings of about this size.
    static let transactionIDBase: Int64 = 2_000_000_000_000_000
    /// First web order line item ID.
    static let webOrderBase: Int64 = 2_000_000_000_000
    /// How long a simulated subscription period lasts, unless `setPeriod` says otherwise.
    static let subscriptionPeriod: TimeInterval = 30 * 86_400

    let clock: any LedgerClock
    let state = Mutex(State())

    /// A store for `bundleID` in `environment`. Generates a chain unless one is given;
    /// `signingOptions` bends the JWS rules for every payload this store signs.
    public init(
        bundleID: String, environment: AppStoreEnvironment = .sandbox, appAppleID: Int64? = nil,
        bundleVersion: String = "1", clock: any LedgerClock = SystemClock(),
        certificateAuthority: AppStoreTestCertificateAuthority? = nil,
        signingOptions: AppStoreJWSSigner.Options = AppStoreJWSSigner.Options()
    ) throws {
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
        self.bundleVersion = bundleVersion
        self.clock = clock
        let authority = try certificateAuthority ?? AppStoreTestCertificateAuthority()
        self.certificateAuthority = authority
        self.untrustedCertificateAuthority = try AppStoreTestCertificateAuthority(
            options: .init(commonNamePrefix: "Untrusted Forger"))
        self.signer = AppStoreJWSSigner(certificateAuthority: authority, options: signingOptions)
    }

    /// The root certificate (DER) a verifier must trust to accept this store's payloads.
    public var rootCertificateDER: [UInt8] { certificateAuthority.rootCertificateDER }

    /// The `appAccountToken` a game sets for `playerID`; the same as `AppAccountToken.forPlayer`,
    /// which the ledger uses as its `accountBinding`.
    public static func accountToken(for playerID: String) -> String {
        AppAccountToken.forPlayer(playerID)
    }

    /// Buys `quantity` of `productID` at `date` (default: the clock's now) and returns the
    /// signed transaction. IDs are sequential decimal strings. A subscription runs 30 days.
    /// `appTransactionID` names the buyer's Apple Account in the payload (`appTransactionId`),
    /// as Apple does since 2025; without it the account is derived (`appTransactionID(of:)`).
    @discardableResult
    public func purchase(
        productID: String, quantity: Int = 1, appAccountToken: String? = nil,
        type: TransactionType = .consumable, price: Int64 = 990, at date: Date? = nil, appTransactionID: String? = nil
    ) throws -> SignedAppStoreTransaction {
        let now = date ?? clock.now()
        let payload = state.withLock { state in
            let transactionID = String(Self.transactionIDBase + state.nextTransactionNumber)
            state.nextTransactionNumber += 1
            var payload = AppStoreSimulatedTransaction(
                transactionID: transactionID, bundleID: bundleID, productID: productID, purchaseDate: now,
                quantity: quantity, type: type, appAccountToken: appAccountToken, signedDate: now,
                environment: environment, price: price)
            payload.appTransactionID = appTransactionID
            if type == .autoRenewableSubscription {
                payload.webOrderLineItemID = String(Self.webOrderBase + state.nextWebOrderNumber)
                state.nextWebOrderNumber += 1
                payload.subscriptionGroupIdentifier = "21000000"
                payload.expiresDate = now.addingTimeInterval(state.periodSeconds(productID))
            }
            state.transactions[transactionID] = payload
            return payload
        }
        return SignedAppStoreTransaction(jws: try sign(payload), payload: payload)
    }

    /// Makes every period of the auto-renewable `productID` sold from now on last `seconds`
    /// (a yearly plan, say) instead of 30 days.
    public func setPeriod(seconds: TimeInterval, forProductID productID: String) {
        state.withLock { $0.periodSecondsByProductID[productID] = seconds }
    }

    /// Renews the auto-renewable subscription `transactionID` belongs to at `date`: a new
    /// transaction with the same original transaction, reason `RENEWAL`, a new 30-day period.
    public func renew(transactionID: String, at date: Date? = nil) throws -> SignedAppStoreTransaction {
        let now = date ?? clock.now()
        let payload = try state.withLock { state in
            guard let previous = state.transactions[transactionID] else { throw Self.unknown(transactionID) }
            guard previous.type == .autoRenewableSubscription else {
                throw AppStoreSimulatorError("transaction \(transactionID) is not an auto-renewable subscription")
            }
            return Self.newPeriod(after: previous, productID: previous.productID, at: now, reason: .renewal, in: &state)
        }
        return SignedAppStoreTransaction(jws: try sign(payload), payload: payload)
    }

    /// A new paid period of the chain `previous` belongs to, of `productID`, from `now`: the next
    /// transaction and web order line item IDs, stored. A period that went through ends any
    /// billing retry and grace period.
    static func newPeriod(
        after previous: AppStoreSimulatedTransaction, productID: String, at now: Date, reason: TransactionReason,
        in state: inout State
    ) -> AppStoreSimulatedTransaction {
        var payload = previous
        payload.isUpgraded = nil
        payload.productID = productID
        payload.transactionID = String(Self.transactionIDBase + state.nextTransactionNumber)
        state.nextTransactionNumber += 1
        payload.webOrderLineItemID = String(Self.webOrderBase + state.nextWebOrderNumber)
        state.nextWebOrderNumber += 1
        payload.purchaseDate = now
        payload.signedDate = now
        payload.expiresDate = now.addingTimeInterval(state.periodSeconds(productID))
        payload.transactionReason = reason
        Self.clearRevocation(&payload)
        state.transactions[payload.transactionID] = payload
        state.renewals[payload.originalTransactionID]?.inBillingRetry = false
        state.renewals[payload.originalTransactionID]?.gracePeriodExpiresDate = nil
        return payload
    }

    /// Delivers `transactionID`'s purchase again, as Apple does when the player restores
    /// purchases or signs in on a new device: a new `transactionId` with the same
    /// `originalTransactionId`, product and account token, signed at `date`. Only a
    /// non-consumable (or a subscription's current period) is ever restored.
    public func restore(transactionID: String, at date: Date? = nil) throws -> SignedAppStoreTransaction {
        try deliverCopy(of: transactionID, at: date, refusal: "the App Store never restores one") { _ in }
    }

    /// Shares `transactionID`'s non-consumable (or subscription) with a family member through
    /// Family Sharing, as Apple does when the purchaser has it turned on: the member gets a
    /// transaction of their own (new `transactionId` and `originalTransactionId`),
    /// `inAppOwnershipType` FAMILY_SHARED, with the member's `appAccountToken`, signed at `date`.
    /// End the member's access with `revoke(transactionID:type: .familyRevoke)` on that copy.
    public func shareWithFamily(
        transactionID: String, appAccountToken: String?, at date: Date? = nil
    ) throws -> SignedAppStoreTransaction {
        try deliverCopy(of: transactionID, at: date, refusal: "Family Sharing never shares one") { payload in
            payload.originalTransactionID = payload.transactionID
            payload.inAppOwnershipType = .familyShared
            payload.appAccountToken = appAccountToken
            Self.clearRevocation(&payload)
        }
    }

    /// A new transaction copied from `transactionID`'s (never a consumable's, which `refusal`
    /// explains), with the next transaction ID, signed at `date`, after `edit`.
    private func deliverCopy(
        of transactionID: String, at date: Date?, refusal: String, edit: (inout AppStoreSimulatedTransaction) -> Void
    ) throws -> SignedAppStoreTransaction {
        let now = date ?? clock.now()
        let payload = try state.withLock { state in
            guard let previous = state.transactions[transactionID] else { throw Self.unknown(transactionID) }
            guard previous.type != .consumable else {
                throw AppStoreSimulatorError("transaction \(transactionID) is a consumable; \(refusal)")
            }
            var payload = previous
            payload.transactionID = String(Self.transactionIDBase + state.nextTransactionNumber)
            state.nextTransactionNumber += 1
            payload.signedDate = now
            edit(&payload)
            state.transactions[payload.transactionID] = payload
            return payload
        }
        return SignedAppStoreTransaction(jws: try sign(payload), payload: payload)
    }

    /// Refunds or revokes `transactionID` at `date`: records `revocationDate`, `revocationReason`
    /// and, when given, `revocationType` and `revocationPercentage` (milliunits of the whole
    /// quantity: `revoke(transactionID: id, type: .refundProrated, percentage: 33_333)` refunds 1
    /// of 3 units; `type: .familyRevoke` ends a family member's access), and returns the
    /// transaction re-signed at `date`. Send the matching `REFUND` or `REVOKE` notification next.
    public func revoke(
        transactionID: String, reason: RevocationReason = .refundedForOtherReason, type: RevocationType? = nil,
        percentage: Int32? = nil, at date: Date? = nil
    ) throws
        -> SignedAppStoreTransaction
    {
        try update(transactionID, at: date) { payload, now in
            payload.revocationDate = now
            payload.revocationReason = reason
            payload.revocationType = type
            payload.revocationPercentage = percentage
        }
    }

    /// Reverses the refund of `transactionID` at `date`, as Apple does before a `REFUND_REVERSED`
    /// notification: the revocation fields are gone from the transaction re-signed at `date`.
    public func reverseRefund(transactionID: String, at date: Date? = nil) throws -> SignedAppStoreTransaction {
        try update(transactionID, at: date) { payload, _ in Self.clearRevocation(&payload) }
    }

    /// Removes every revocation field, as a renewal or a reversed refund does.
    static func clearRevocation(_ payload: inout AppStoreSimulatedTransaction) {
        payload.revocationDate = nil
        payload.revocationReason = nil
        payload.revocationType = nil
        payload.revocationPercentage = nil
    }

    /// Changes the stored `transactionID` with `change` and returns it re-signed at `date`.
    private func update(
        _ transactionID: String, at date: Date?, _ change: (inout AppStoreSimulatedTransaction, Date) -> Void
    ) throws -> SignedAppStoreTransaction {
        let now = date ?? clock.now()
        let payload = try state.withLock { state in
            guard var payload = state.transactions[transactionID] else { throw Self.unknown(transactionID) }
            change(&payload, now)
            payload.signedDate = now
            state.transactions[transactionID] = payload
            return payload
        }
        return SignedAppStoreTransaction(jws: try sign(payload), payload: payload)
    }

    /// Set App Account Token: gives every transaction of the purchase `originalTransactionID`
    /// names (its restores and renewals too) `token`, as Apple reports them afterwards, and
    /// returns how many changed. Throws `AppStoreSimulatorError.notOriginal` for a transaction
    /// that is not a purchase's original, `.familyShared` for a Family Sharing one, and
    /// `.unknownTransaction` for an ID this store never sold.
    @discardableResult
    public func setAppAccountToken(
        originalTransactionID: String, token: String
    ) throws(AppStoreSimulatorError) -> Int {
        try state.withLock { (state) throws(AppStoreSimulatorError) -> Int in
            guard let original = state.transactions[originalTransactionID] else { throw Self.unknown(originalTransactionID) }
            guard original.originalTransactionID == originalTransactionID else {
                throw AppStoreSimulatorError.notOriginal(originalTransactionID)
            }
            guard original.inAppOwnershipType != .familyShared else {
                throw AppStoreSimulatorError.familyShared(originalTransactionID)
            }
            let ids = state.transactions.values.filter { $0.originalTransactionID == originalTransactionID }.map(\.transactionID)
            for id in ids { state.transactions[id]?.appAccountToken = token }
            return ids.count
        }
    }

    /// The current payload of `transactionID`, or nil when this store never sold it.
    public func transaction(_ transactionID: String) -> AppStoreSimulatedTransaction? {
        state.withLock { $0.transactions[transactionID] }
    }

    /// Every transaction sold so far, oldest first (IDs are sequential).
    public var transactions: [AppStoreSimulatedTransaction] {
        state.withLock { state in
            state.transactions.values.sorted {
                ($0.transactionID.count, $0.transactionID) < ($1.transactionID.count, $1.transactionID)
            }
        }
    }

    /// `transactionID` in its current state, re-signed at `date`.
    public func signedTransaction(_ transactionID: String, at date: Date? = nil) throws -> SignedAppStoreTransaction {
        var payload = try storedTransaction(transactionID)
        payload.signedDate = date ?? clock.now()
        return SignedAppStoreTransaction(jws: try sign(payload), payload: payload)
    }

    /// The signed renewal information (`signedRenewalInfo`) of the auto-renewable subscription
    /// `transactionID` belongs to, signed at `date`.
    public func renewalInfo(transactionID: String, at date: Date? = nil) throws -> String {
        let transaction = try storedTransaction(transactionID)
        guard transaction.type == .autoRenewableSubscription else {
            throw AppStoreSimulatorError("transaction \(transactionID) is not an auto-renewable subscription")
        }
        var info = AppStoreSimulatedRenewalInfo(transaction: transaction, signedDate: date ?? clock.now())
        if let renewal = state.withLock({ $0.renewals[transaction.originalTransactionID] }) {
            info.autoRenewStatus = renewal.autoRenew ? .on : .off
            info.isInBillingRetryPeriod = renewal.inBillingRetry
            info.gracePeriodExpiresDate = renewal.gracePeriodExpiresDate
        }
        return try signer.sign(info)
    }

    /// A signed App Store Server Notification V2 about `transactionID`, whose
    /// `data.signedTransactionInfo` is the transaction re-signed at `date` (and, for an
    /// auto-renewable subscription, `data.signedRenewalInfo` its renewal information).
    public func notification(
        type: NotificationTypeV2, subtype: NotificationSubtype? = nil, transactionID: String, at date: Date? = nil
    ) throws -> String {
        try sign(notificationPayload(type: type, subtype: subtype, transactionID: transactionID, at: date))
    }

    /// A notification signed by this store's trusted chain whose nested
    /// `signedTransactionInfo` is forged: signed by `untrustedCertificateAuthority`, after
    /// `alter` (default: no change) edits the transaction. Outer verification passes; the
    /// nested transaction must not.
    public func forgedNotification(
        type: NotificationTypeV2, subtype: NotificationSubtype? = nil, transactionID: String, at date: Date? = nil,
        alter: (inout AppStoreSimulatedTransaction) -> Void = { _ in }
    ) throws -> String {
        let now = date ?? clock.now()
        var notification = try notificationPayload(type: type, subtype: subtype, transactionID: transactionID, at: now)
        var forged = try storedTransaction(transactionID)
        forged.signedDate = now
        alter(&forged)
        let forger = AppStoreJWSSigner(certificateAuthority: untrustedCertificateAuthority)
        notification.data.signedTransactionInfo = try forger.sign(forged)
        return try sign(notification)
    }

    /// The unsigned notification `notification(type:subtype:transactionID:at:)` would sign,
    /// for tests that alter it and sign it with `sign(_:)`.
    public func notificationPayload(
        type: NotificationTypeV2, subtype: NotificationSubtype? = nil, transactionID: String, at date: Date? = nil
    ) throws -> AppStoreSimulatedNotification {
        let now = date ?? clock.now()
        let signed = try signedTransaction(transactionID, at: now)
        let isSubscription = signed.payload.type == .autoRenewableSubscription
        let body = AppStoreSimulatedNotification.Body(
            environment: environment, appAppleID: appAppleID, bundleID: bundleID,
            bundleVersion: bundleVersion, signedTransactionInfo: signed.jws,
            signedRenewalInfo: isSubscription ? try renewalInfo(transactionID: transactionID, at: now) : nil,
            status: Self.subscriptionStatus(of: signed.payload, at: now))
        return AppStoreSimulatedNotification(notificationType: type, subtype: subtype, data: body, signedDate: now)
    }

    /// Signs a transaction payload with this store's signer.
    public func sign(_ transaction: AppStoreSimulatedTransaction) throws -> String {
        try signer.sign(transaction)
    }

    /// Signs a notification payload with this store's signer.
    public func sign(_ notification: AppStoreSimulatedNotification) throws -> String {
        try signer.sign(notification)
    }

    /// The stored payload of `transactionID`, or an error naming it.
    func storedTransaction(_ transactionID: String) throws -> AppStoreSimulatedTransaction {
        guard let payload = transaction(transactionID) else { throw Self.unknown(transactionID) }
        return payload
    }

    /// Apple's status of an auto-renewable subscription (active, expired or revoked); nil for
    /// other product types, as Apple leaves it out.
    private static func subscriptionStatus(
        of payload: AppStoreSimulatedTransaction, at date: Date
    ) -> SubscriptionStatus? {
        guard payload.type == .autoRenewableSubscription else { return nil }
        if payload.revocationDate != nil { return .revoked }
        if let expires = payload.expiresDate, expires <= date { return .expired }
        return .active
    }

    /// The error for a transaction this store never sold.
    static func unknown(_ transactionID: String) -> AppStoreSimulatorError {
        AppStoreSimulatorError("unknown transaction \(transactionID)")
    }
}
