import Foundation
import Synchronization

/// Verifies App Store signed data (StoreKit 2 transactions, renewal information, app
/// transactions, and App Store Server Notifications V2) offline, as Apple's
/// `SignedDataVerifier` does without online revocation checks.
///
/// For each JWS, in order: three segments; header `alg` is `ES256`; `x5c` holds exactly three
/// standard-base64 DER certificates; the chain leads to a configured root at the payload's
/// `signedDate` (now when absent); the leaf carries OID 1.2.840.113635.100.6.11.1 and the
/// intermediate 1.2.840.113635.100.6.2.1; the signature verifies with the leaf's P-256 key;
/// then bundle ID, environment and (for production notifications) app Apple ID match.
///
/// A verifier configured for `.xcode` or `.localTesting` checks neither chain nor signature,
/// as Apple's does: such payloads are signed by a local key, not Apple's, and prove nothing.
/// Production and sandbox verifiers therefore never accept them.
public final class SignedDataVerifier: Sendable {
    /// What this verifier trusts and expects.
    public let configuration: AppStoreVerifierConfiguration
    /// The configured roots.
    let trustStore: X509TrustStore
    /// Chains already verified, so repeated payloads skip the X509_STORE work.
    let chainCache: Mutex<VerifiedChainCache>

    /// Creates a verifier. Throws `.invalidCertificate` for a root that does not parse (or no
    /// root outside local testing) and `.invalidAppIdentifier` for production without an app
    /// Apple ID.
    public init(_ configuration: AppStoreVerifierConfiguration) throws(AppStoreVerificationError) {
        if configuration.environment == .production, configuration.appAppleID == nil {
            throw AppStoreVerificationError(.invalidAppIdentifier, "production requires appAppleID")
        }
        if configuration.rootCertificates.isEmpty, !configuration.environment.isLocalTesting {
            throw AppStoreVerificationError(.invalidCertificate, "no root certificate configured")
        }
        var roots: [X509Certificate] = []
        for der in configuration.rootCertificates { roots.append(try X509Certificate(der: der)) }
        self.configuration = configuration
        trustStore = try X509TrustStore(roots: roots)
        chainCache = Mutex(VerifiedChainCache(countMax: configuration.chainCacheCountMax))
    }

    /// How many verified chains are cached now.
    public var cachedChainCount: Int { chainCache.withLock { $0.count } }

    /// Verifies a signed transaction (`signedTransactionInfo`, StoreKit's `jwsRepresentation`).
    public func verifyTransaction(_ jws: String) -> Result<JWSTransactionDecodedPayload, AppStoreVerificationError> {
        Result { () throws(AppStoreVerificationError) in try checkedTransaction(jws) }
    }

    /// Verifies signed subscription renewal information (`signedRenewalInfo`).
    public func verifyRenewalInfo(_ jws: String) -> Result<JWSRenewalInfoDecodedPayload, AppStoreVerificationError> {
        Result { () throws(AppStoreVerificationError) in try checkedRenewalInfo(jws) }
    }

    /// Verifies a signed app transaction (StoreKit's `AppTransaction`).
    public func verifyAppTransaction(_ jws: String) -> Result<AppTransaction, AppStoreVerificationError> {
        Result { () throws(AppStoreVerificationError) in try checkedAppTransaction(jws) }
    }

    /// A verified app transaction whose bundle ID, app Apple ID and environment match.
    private func checkedAppTransaction(_ jws: String) throws(AppStoreVerificationError) -> AppTransaction {
        let transaction = try verifiedPayload(jws, as: AppTransaction.self)
        try checkIdentifiers(
            bundleID: transaction.bundleId, appAppleID: transaction.appAppleId, environment: transaction.receiptType)
        return transaction
    }

    /// Verifies a notification's `signedPayload`, then its nested `signedTransactionInfo`,
    /// `signedRenewalInfo` and `signedAppTransactionInfo` the same way; any nested failure fails
    /// the whole notification.
    public func verifyNotification(_ jws: String) -> Result<ResponseBodyV2DecodedPayload, AppStoreVerificationError> {
        Result { () throws(AppStoreVerificationError) in
            var notification = try verifiedPayload(jws, as: ResponseBodyV2DecodedPayload.self)
            let (bundleID, appAppleID, environment) = Self.identifiers(of: notification)
            try checkIdentifiers(bundleID: bundleID, appAppleID: appAppleID, environment: environment)
            if let nested = notification.data?.signedTransactionInfo {
                do throws(AppStoreVerificationError) {
                    notification.transaction = try checkedTransaction(nested)
                } catch {
                    throw Self.nested("signedTransactionInfo", error)
                }
            }
            if let nested = notification.data?.signedRenewalInfo {
                do throws(AppStoreVerificationError) {
                    notification.renewalInfo = try checkedRenewalInfo(nested)
                } catch {
                    throw Self.nested("signedRenewalInfo", error)
                }
            }
            if let nested = notification.appData?.signedAppTransactionInfo {
                do throws(AppStoreVerificationError) {
                    notification.appTransaction = try checkedAppTransaction(nested)
                } catch {
                    throw Self.nested("signedAppTransactionInfo", error)
                }
            }
            return notification
        }
    }

    /// A verified transaction whose bundle ID and environment match.
    private func checkedTransaction(_ jws: String) throws(AppStoreVerificationError) -> JWSTransactionDecodedPayload {
        let transaction = try verifiedPayload(jws, as: JWSTransactionDecodedPayload.self)
        guard transaction.bundleId == configuration.bundleID else {
            throw AppStoreVerificationError(
                .invalidAppIdentifier, "transaction bundleId \(transaction.bundleId ?? "absent")")
        }
        try checkEnvironment(transaction.environment)
        do throws(AppStorePayloadError) {
            try AppStorePayloadLimits.check(transaction)
        } catch {
            throw AppStoreVerificationError(error)
        }
        return transaction
    }

    /// Verified renewal information whose environment matches (it carries no bundle ID).
    private func checkedRenewalInfo(_ jws: String) throws(AppStoreVerificationError) -> JWSRenewalInfoDecodedPayload {
        let renewalInfo = try verifiedPayload(jws, as: JWSRenewalInfoDecodedPayload.self)
        try checkEnvironment(renewalInfo.environment)
        do throws(AppStorePayloadError) {
            try AppStorePayloadLimits.check(renewalInfo)
        } catch {
            throw AppStoreVerificationError(error)
        }
        return renewalInfo
    }

    /// Checks the bundle ID, in production the app Apple ID, then the environment, in Apple's
    /// order: an identifier mismatch wins over an environment mismatch.
    private func checkIdentifiers(
        bundleID: String?, appAppleID: Int64?, environment: AppStoreEnvironment?
    ) throws(AppStoreVerificationError) {
        guard bundleID == configuration.bundleID else {
            throw AppStoreVerificationError(.invalidAppIdentifier, "bundleId \(bundleID ?? "absent")")
        }
        if configuration.environment == .production, appAppleID != configuration.appAppleID {
            throw AppStoreVerificationError(
                .invalidAppIdentifier, "appAppleId \(appAppleID.map(String.init) ?? "absent")")
        }
        try checkEnvironment(environment)
    }

    /// Checks a payload's environment is the configured one.
    private func checkEnvironment(_ environment: AppStoreEnvironment?) throws(AppStoreVerificationError) {
        guard environment == configuration.environment else {
            throw AppStoreVerificationError(
                .invalidEnvironment,
                "payload environment \(environment?.rawValue ?? "absent"), expected \(configuration.environment)")
        }
    }

    /// The bundle ID, app Apple ID and environment a notification is about, from `data`, else
    /// `appData`, else `summary`, else `externalPurchaseToken`, as Apple reads them.
    private static func identifiers(
        of notification: ResponseBodyV2DecodedPayload
    ) -> (String?, Int64?, AppStoreEnvironment?) {
        if let data = notification.data { return (data.bundleId, data.appAppleId, data.environment) }
        if let app = notification.appData { return (app.bundleId, app.appAppleId, app.environment) }
        if let summary = notification.summary { return (summary.bundleId, summary.appAppleId, summary.environment) }
        if let token = notification.externalPurchaseToken {
            return (token.bundleId, token.appAppleId, token.environment)
        }
        return (nil, nil, nil)
    }

    /// A nested payload's error with the nested field named in its detail.
    private static func nested(_ field: String, _ error: AppStoreVerificationError) -> AppStoreVerificationError {
        AppStoreVerificationError(error.status, "\(field): \(error.detail)", payloadError: error.payloadError)
    }
}
