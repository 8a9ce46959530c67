import Foundation
import FulfillmentLedger

/// What processing one App Store Server Notification V2 did.
public enum AppStoreNotificationOutcome: Hashable, Sendable {
    /// The signed payload did not verify, or a value in it is refused (`payloadError`: a date,
    /// quantity or percentage out of range, a prorated refund without its percentage, an
    /// identifier too long, a subscription's transaction without its `webOrderLineItemId`,
    /// `originalTransactionId` or `expiresDate`); nothing changed and nothing was recorded.
    case rejected(AppStoreVerificationError)
    /// This `notificationUUID` was processed before; nothing changed now.
    case alreadyProcessed(StoreNotificationRecord)
    /// A `REFUND`, `REFUND_REVERSED` or `REVOKE`, applied as a revocation event (see
    /// `AppStoreRevocationMapping`: a prorated refund is a cumulative `partialRefund`).
    case revocation(RevocationOutcome)
    /// A `CONSUMPTION_REQUEST`: the V2 body to send to Apple, and what the processor's
    /// `consumptionSender` did with it, if it has one.
    case consumptionRequest(AppStoreConsumptionQuestion)
    /// A notification about an auto-renewable subscription's period or state (see
    /// `AppStoreSubscriptionMapping`): the period it carried, fulfilled, and the chain's change.
    /// When the period was rejected, the chain is unchanged (`update` is nil) and the
    /// notification is not recorded.
    case subscription(AppStoreSubscriptionEffect)
    /// A `RESCIND_CONSENT`: consent to use the app was withdrawn for the account of
    /// `appData.signedAppTransactionInfo` (its `appTransactionId`). The withdrawal as the ledger
    /// keeps it: the first for the account, so a later notification about it shows the first.
    /// From then on a purchase naming the account is refused `consentRescinded`.
    case consentRescinded(ConsentRescission)
    /// A `ONE_TIME_CHARGE`: the purchase granted, through the pipeline, to the player its
    /// `appAccountToken` names, or journaled `accountUnassigned` when it names none (see
    /// `AppStoreOneTimeCharge`). A charge the pipeline rejected is not recorded, so Apple's
    /// redelivery tries again.
    case oneTimeCharge(AppStoreOneTimeCharge)
    /// Any other type, or a prorated refund of 0 %: accepted and logged.
    case logged(StoreNotificationRecord)
}

/// Verifies App Store Server Notifications V2 and drives the ledger from them, each
/// applied once by its `notificationUUID`.
public struct AppStoreNotificationProcessor: Sendable {
    /// Verifies the notification and its nested signed transaction.
    public let signedDataVerifier: SignedDataVerifier
    /// The ledger the notifications change.
    public let ledger: Ledger
    /// `customerConsented` of the body a `CONSUMPTION_REQUEST` outcome shows.
    public var customerConsented: Bool
    /// `refundPreference` of the body a `CONSUMPTION_REQUEST` outcome shows; nil omits it.
    public var refundPreference: AppStoreConsumptionRequest.RefundPreference?
    /// Answers each `CONSUMPTION_REQUEST` with Apple, once, with its own consent and settings;
    /// nil leaves answering to the caller. A send that may succeed later throws, so the
    /// notification is not recorded and Apple's redelivery tries again.
    public var consumptionSender: AppStoreConsumptionSender?

    /// Creates a processor.
    public init(
        signedDataVerifier: SignedDataVerifier, ledger: Ledger, customerConsented: Bool = true,
        refundPreference: AppStoreConsumptionRequest.RefundPreference? = nil,
        consumptionSender: AppStoreConsumptionSender? = nil
    ) {
        self.signedDataVerifier = signedDataVerifier
        self.ledger = ledger
        self.customerConsented = customerConsented
        self.refundPreference = refundPreference
        self.consumptionSender = consumptionSender
    }

    /// Processes the `signedPayload` Apple posts. Throws only when the ledger fails.
    public func process(_ signedPayload: String) async throws(LedgerError) -> AppStoreNotificationOutcome {
        let notification: ResponseBodyV2DecodedPayload
        switch signedDataVerifier.verifyNotification(signedPayload) {
        case .failure(let error): return .rejected(error)
        case .success(let payload): notification = payload
        }
        guard let uuid = notification.notificationUUID, !uuid.isEmpty else {
            return .rejected(AppStoreVerificationError(.verificationFailure, "the notification has no notificationUUID"))
        }
        if let refused = identifierRefusal(uuid: uuid, notification: notification) {
            return .rejected(AppStoreVerificationError(refused))
        }
        if let seen = try await ledger.storeNotification(id: uuid) {
            return .alreadyProcessed(seen)
        }
        let type = notification.notificationType ?? NotificationTypeV2(rawValue: "UNKNOWN")
        let key = notification.transaction?.transactionId.map {
            TransactionKey(store: .appStore, transactionID: $0)
        }
        let outcome = try await apply(notification, type: type, key: key, uuid: uuid)
        // A refused payload or a rejected event is not recorded, so Apple's redelivery is tried again.
        switch outcome {
        case .rejected: return outcome
        case .revocation(let revocation) where revocation.rejection != nil: return outcome
        case .subscription(let effect) where effect.period?.rejection != nil: return outcome
        case .oneTimeCharge(let charge) where charge.rejection != nil: return outcome
        default: break
        }
        let record = StoreNotificationRecord(
            notificationID: uuid, store: .appStore, type: type.rawValue, transaction: key, receivedAt: ledger.clock.now(),
            outcome: describe(outcome))
        // The revocation itself is idempotent by the same UUID, so a crash before this write is safe.
        try await ledger.recordStoreNotification(record)
        if case .logged = outcome { return .logged(record) }
        return outcome
    }

    /// Why the notification's identifiers cannot go into the ledger, if they cannot: each must be
    /// non-empty when present and at most the ledger's `identifierByteCountMax` bytes long, or
    /// the ledger would throw instead of answering.
    private func identifierRefusal(uuid: String, notification: ResponseBodyV2DecodedPayload) -> AppStorePayloadError? {
        let byteCountMax = ledger.configuration.identifierByteCountMax
        let transaction = notification.transaction
        // One call per field rather than a loop over (field, optional value) pairs: the loop
        // crashed Swift 6.3's optimizer (an ownership verification failure) in release builds.
        if let refusal = Self.refusal(field: "notificationUUID", value: uuid, byteCountMax: byteCountMax) {
            return refusal
        }
        if let refusal = Self.refusal(
            field: "transactionId", value: transaction?.transactionId, byteCountMax: byteCountMax)
        {
            return refusal
        }
        if let refusal = Self.refusal(
            field: "originalTransactionId", value: transaction?.originalTransactionId, byteCountMax: byteCountMax)
        {
            return refusal
        }
        return Self.refusal(
            field: "appTransactionId", value: notification.appTransaction?.appTransactionId, byteCountMax: byteCountMax)
    }

    /// Why one identifier is refused (empty, or too long), or nil.
    private static func refusal(field: String, value: String?, byteCountMax: Int) -> AppStorePayloadError? {
        if value?.isEmpty == true { return .missingField(field) }
        do throws(AppStorePayloadError) {
            try AppStorePayloadLimits.checkIdentifier(value, field: field, byteCountMax: byteCountMax)
        } catch {
            return error
        }
        return nil
    }

    private func apply(
        _ notification: ResponseBodyV2DecodedPayload, type: NotificationTypeV2, key: TransactionKey?, uuid: String
    ) async throws(LedgerError) -> AppStoreNotificationOutcome {
        if type == .rescindConsent { return try await rescission(notification, uuid: uuid) }
        if type == .oneTimeCharge { return try await oneTimeCharge(notification, uuid: uuid) }
        if let key, let transaction = notification.transaction,
            let decision = AppStoreRevocationMapping.decision(
                type: type, transaction: transaction, transactionID: key.transactionID, notificationUUID: uuid,
                signedDate: notification.signedDate?.date, now: ledger.clock.now())
        {
            switch decision {
            case .apply(let event):
                let outcome = try await ledger.applyRevocation(event)
                // A refund settles the refund request: no consumption answer is sent for it after this.
                if type == .refund, outcome.rejection == nil {
                    try await AppStoreConsumptionSender.closeCase(
                        transactionID: key.transactionID, notificationType: type, notificationUUID: uuid, ledger: ledger)
                }
                return .revocation(outcome)
            case .refuse(let error): return .rejected(AppStoreVerificationError(error))
            case .nothingToTake(let note): return .logged(placeholder(uuid: uuid, type: type, key: key, outcome: note))
            }
        }
        if let outcome = try await subscriptionOutcome(notification, type: type) { return outcome }
        if type == .consumptionRequest, let key {
            return .consumptionRequest(try await question(notification, key: key, uuid: uuid))
        }
        if type == .refundDeclined, let key {
            let closure = try await AppStoreConsumptionSender.closeCase(
                transactionID: key.transactionID, notificationType: type, notificationUUID: uuid, ledger: ledger)
            let note = "refund declined: consumption case closed (by \(closure.notificationType) \(closure.notificationUUID ?? ""))"
            return .logged(placeholder(uuid: uuid, type: type, key: key, outcome: note))
        }
        return .logged(placeholder(uuid: uuid, type: type, key: key, outcome: "logged"))
    }

    /// A `RESCIND_CONSENT`, recorded for the account its verified app transaction names; refused,
    /// changing nothing, without one.
    private func rescission(
        _ notification: ResponseBodyV2DecodedPayload, uuid: String
    ) async throws(LedgerError) -> AppStoreNotificationOutcome {
        guard notification.appData?.signedAppTransactionInfo != nil else {
            return .rejected(AppStoreVerificationError(.missingField("appData.signedAppTransactionInfo")))
        }
        guard let accountID = notification.appTransaction?.appTransactionId else {
            return .rejected(AppStoreVerificationError(.missingField("appTransactionId")))
        }
        let now = ledger.clock.now()
        let rescission = ConsentRescission(
            store: .appStore, accountID: accountID, rescindedAt: notification.signedDate?.date ?? now, notificationID: uuid,
            recordedAt: now)
        return .consentRescinded(try await ledger.recordConsentRescission(rescission))
    }

    /// A `ONE_TIME_CHARGE`, granted through the pipeline to the player its `appAccountToken`
    /// names, or journaled for an operator when it names none; refused, changing nothing,
    /// without its signed transaction.
    private func oneTimeCharge(
        _ notification: ResponseBodyV2DecodedPayload, uuid: String
    ) async throws(LedgerError) -> AppStoreNotificationOutcome {
        guard let signed = notification.data?.signedTransactionInfo, let transaction = notification.transaction else {
            return .rejected(AppStoreVerificationError(.missingField("data.signedTransactionInfo")))
        }
        guard let transactionID = transaction.transactionId else {
            return .rejected(AppStoreVerificationError(.missingField("transactionId")))
        }
        guard let storeProductID = transaction.productId, !storeProductID.isEmpty else {
            return .rejected(AppStoreVerificationError(.missingField("productId")))
        }
        let token = transaction.appAccountToken.map { AppAccountToken.canonical($0) ?? $0 }
        let submission = TransactionSubmission(
            store: .appStore, transactionID: transactionID, storeProductID: storeProductID, playerID: "",
            quantity: transaction.quantity ?? 1, payload: signed)
        var binding: AccountTokenBinding?
        if let token { binding = try await ledger.accountTokenBinding(store: .appStore, token: token) }
        guard let playerID = binding?.playerID else {
            let why = token.map { "its appAccountToken \($0) names no player" } ?? "it has no appAccountToken"
            await ledger.journalUnassigned(
                submission, purchaseID: transaction.originalTransactionId,
                reason: "ONE_TIME_CHARGE \(uuid): \(why); assign it with ledger appstore fulfill", via: .notification)
            return .oneTimeCharge(
                AppStoreOneTimeCharge(
                    transactionID: transactionID, storeProductID: storeProductID, appAccountToken: token, playerID: nil,
                    fulfillment: nil))
        }
        var forPlayer = submission
        forPlayer.playerID = playerID
        let fulfillment = try await ledger.fulfill(forPlayer, via: .notification)
        return .oneTimeCharge(
            AppStoreOneTimeCharge(
                transactionID: transactionID, storeProductID: storeProductID, appAccountToken: token, playerID: playerID,
                fulfillment: fulfillment))
    }

    /// The `CONSUMPTION_REQUEST`'s question, answered by the sender when there is one.
    private func question(
        _ notification: ResponseBodyV2DecodedPayload, key: TransactionKey, uuid: String
    ) async throws(LedgerError) -> AppStoreConsumptionQuestion {
        let body = try await AppStoreConsumptionRequest.build(
            for: key, ledger: ledger, customerConsented: customerConsented, refundPreference: refundPreference,
            sampleContentProvided: consumptionSender?.sampleContentProvided ?? false)
        var question = AppStoreConsumptionQuestion(
            transactionID: key.transactionID, notificationUUID: uuid, signedDate: notification.signedDate?.date,
            reason: notification.data?.consumptionRequestReason, body: body)
        if let consumptionSender {
            let answer = try await consumptionSender.answer(question)
            question.answer = answer
            // What Apple got (now or before) is the body to show, not the processor's own build.
            if let sent = answer.answer { question.body = sent.body }
        }
        return question
    }

    /// The record of a logged notification before it is stored.
    private func placeholder(uuid: String, type: NotificationTypeV2, key: TransactionKey?, outcome: String)
        -> StoreNotificationRecord
    {
        StoreNotificationRecord(
            notificationID: uuid, store: .appStore, type: type.rawValue, transaction: key, receivedAt: ledger.clock.now(),
            outcome: outcome)
    }

    private func describe(_ outcome: AppStoreNotificationOutcome) -> String {
        switch outcome {
        case .revocation(let revocation):
            if let record = revocation.record { return "revocation \(record.disposition.rawValue)" }
            return "revocation rejected: \(revocation.rejection?.description ?? "")"
        case .consumptionRequest(let question):
            let percentage = question.body.consumptionPercentage.map { ", \($0) milliunits consumed" } ?? ""
            let answer = question.answer.map { ", \($0.name)" } ?? ""
            return "consumption request (\(question.body.deliveryStatus)\(percentage)\(answer))"
        case .subscription(let effect): return effect.note
        case .oneTimeCharge(let charge): return charge.note
        case .consentRescinded(let rescission):
            return "consent rescinded for account \(rescission.accountID) (by \(rescission.notificationID))"
        case .logged(let record): return record.outcome
        default: return "logged"
        }
    }
}
