import Foundation
import FulfillmentLedger

/// The ledger's verifier port for the App Store: a StoreKit 2 signed transaction (the
/// client's `jwsRepresentation`) becomes verified transaction facts, offline.
public struct AppStoreTransactionVerifier: TransactionVerifier {
    /// Checks signatures, the chain, the bundle ID and the environment.
    public let signedDataVerifier: SignedDataVerifier
    /// The environment the signed-data verifier is configured for.
    public var environment: AppStoreEnvironment { signedDataVerifier.configuration.environment }

    /// Wraps a signed-data verifier; the ledger environment it vouches for is the one the
    /// verifier is configured for, so the two cannot disagree.
    public init(signedDataVerifier: SignedDataVerifier) {
        self.signedDataVerifier = signedDataVerifier
    }

    /// The ledger environment matching the App Store environment.
    public var supportedEnvironments: Set<StoreEnvironment> { [environment.storeEnvironment] }

    /// Verifies the JWS in `submission.payload`. A transaction with a `revocationDate` is
    /// reported revoked; its `appAccountToken` is the account binding, and its `appTransactionId`
    /// the account a withdrawal of consent names.
    public func verify(_ submission: TransactionSubmission) async throws(LedgerError) -> VerificationResult {
        switch signedDataVerifier.verifyTransaction(submission.payload) {
        case .failure(let error):
            if error.status == .retryableVerificationFailure { throw LedgerError.verifierUnavailable(error.description) }
            return .invalid(reason: error.description)
        case .success(let payload):
            guard let facts = Self.facts(payload, defaultEnvironment: environment) else {
                return .invalid(reason: "the signed transaction lacks a transactionId or productId")
            }
            return .verified(facts)
        }
    }

    /// The ledger's facts of a verified App Store transaction, its `type` as the store product
    /// type the pipeline checks against the catalog. Build them only from a payload
    /// `SignedDataVerifier` verified: it has range-checked the dates read here (outside the range
    /// `AppStoreTimestamp.date` is nil).
    public static func facts(
        _ payload: JWSTransactionDecodedPayload, defaultEnvironment: AppStoreEnvironment
    ) -> VerifiedTransaction? {
        guard let transactionID = payload.transactionId, let productID = payload.productId else { return nil }
        let binding = payload.appAccountToken.map { AppAccountToken.canonical($0) ?? $0 }
        let purchaseDate = payload.purchaseDate?.date ?? payload.signedDate?.date ?? Date(timeIntervalSince1970: 0)
        return VerifiedTransaction(
            store: .appStore, transactionID: transactionID, originalTransactionID: payload.originalTransactionId,
            storeProductID: productID, accountBinding: binding,
            quantity: payload.quantity ?? 1, state: .purchased,
            environment: (payload.environment ?? defaultEnvironment).storeEnvironment, purchaseDate: purchaseDate,
            revocationDate: payload.revocationDate?.date, storeProductType: payload.type?.storeProductType,
            isFamilyShared: isFamilyShared(payload.inAppOwnershipType),
            subscriptionPeriod: subscriptionPeriod(payload), storeAccountID: payload.appTransactionId)
    }

    /// The paid period an auto-renewable subscription's transaction is for: keyed by its
    /// `webOrderLineItemId`, the same on a restore or a new device, where `transactionId` is
    /// new; its chain is the `originalTransactionId`. Nil for other types, and when a field is
    /// missing, which the pipeline refuses rather than keying the period by the delivery.
    package static func subscriptionPeriod(_ payload: JWSTransactionDecodedPayload) -> SubscriptionPeriodFacts? {
        guard payload.type == .autoRenewableSubscription, let periodID = payload.webOrderLineItemId, !periodID.isEmpty,
            let chainID = payload.originalTransactionId, !chainID.isEmpty, let expiresAt = payload.expiresDate?.date
        else { return nil }
        return SubscriptionPeriodFacts(
            periodID: periodID, chainID: chainID, expiresAt: expiresAt,
            subscriptionGroupID: payload.subscriptionGroupIdentifier)
    }

    /// Which field an auto-renewable subscription's transaction lacks for its period (checked in
    /// `subscriptionPeriod`'s order), so a refusal names it.
    package static func missingPeriodField(_ payload: JWSTransactionDecodedPayload) -> AppStorePayloadError {
        if payload.webOrderLineItemId?.isEmpty ?? true { return .missingField("webOrderLineItemId") }
        if payload.originalTransactionId?.isEmpty ?? true { return .missingField("originalTransactionId") }
        return .missingField("expiresDate")
    }

    /// The ID of the ledger record an auto-renewable subscription's transaction names: its
    /// period's, the same whichever delivery of the period a refund or revoke carries. Nil for
    /// other types.
    package static func subscriptionRecordID(_ payload: JWSTransactionDecodedPayload) -> String? {
        guard subscriptionPeriod(payload) != nil, let facts = facts(payload, defaultEnvironment: .production) else {
            return nil
        }
        return facts.ledgerKey(for: .autoRenewable).transactionID
    }

    /// Whether `ownership` makes the transaction a family member's shared copy: FAMILY_SHARED,
    /// and any value Apple may add later, since only PURCHASED (or no value, in older
    /// payloads) says the player paid; the cautious reading grants no currency.
    package static func isFamilyShared(_ ownership: InAppOwnershipType?) -> Bool {
        guard let ownership else { return false }
        return ownership != .purchased
    }

    /// The submission for a client's `jwsRepresentation`, with the identifiers read from the
    /// (not yet verified) payload; the pipeline verifies it before anything is granted.
    /// Nil when the JWS cannot be read at all.
    public static func submission(jws: String, playerID: String) -> TransactionSubmission? {
        guard let decoded = try? CompactJWS(jws).decodePayload(as: JWSTransactionDecodedPayload.self),
            let transactionID = decoded.transactionId, let productID = decoded.productId
        else { return nil }
        return TransactionSubmission(
            store: .appStore, transactionID: transactionID, storeProductID: productID, playerID: playerID,
            quantity: decoded.quantity ?? 1, payload: jws)
    }
}

/// The App Store's finish port. A server cannot finish a StoreKit transaction: the game
/// client calls `Transaction.finish()` once the server says the purchase is fulfilled. This
/// port is where the server tells its client (or records that it must); by default it
/// succeeds at once, so the outbox clears when the grant commits.
public struct AppStoreFinisher: PlatformFinisher {
    private let tellClient: @Sendable (FinishRequest) async throws(LedgerError) -> Void

    /// A finisher that calls `tellClient` for every fulfilled App Store transaction.
    public init(tellClient: @escaping @Sendable (FinishRequest) async throws(LedgerError) -> Void = { _ in }) {
        self.tellClient = tellClient
    }

    /// Tells the client to finish the transaction.
    public func finish(_ request: FinishRequest) async throws(LedgerError) { try await tellClient(request) }
}
