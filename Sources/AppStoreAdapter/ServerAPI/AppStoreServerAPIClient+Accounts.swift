import Foundation

/// The customer's account: the app transaction that names it for good (`appTransactionId`), and
/// the `appAccountToken` a purchase made outside the app lacks.
extension AppStoreServerAPIClient {
    /// Get App Transaction Info: `GET /inApps/v1/transactions/appTransactions/{transactionId}`
    /// (API 1.17+), the signed app transaction of the customer of any of their transactions.
    /// Its `appTransactionId` stays the same for the Apple Account across redownloads, devices,
    /// refunds and storefronts. A 404 (no such transaction, or no app transaction for the
    /// customer, 4040019) is `.notFound`, a value.
    public func appTransactionInfo(transactionID: String) async throws(AppStoreServerAPIError) -> AppStoreAppTransactionLookup {
        let body: Data
        do {
            body = try await perform(
                .getAppTransactionInfo, method: "GET",
                path: "/inApps/v1/transactions/appTransactions/" + Self.segment(transactionID))
        } catch {
            if case .rejected(let response) = error, response.httpStatusCode == 404 { return .notFound(response) }
            throw error
        }
        let decoded = try decode(AppTransactionInfoWire.self, from: body, endpoint: .getAppTransactionInfo)
        guard let jws = decoded.signedAppTransactionInfo else {
            throw .invalidResponse("getAppTransactionInfo: no signedAppTransactionInfo")
        }
        switch verifier.verifyAppTransaction(jws) {
        case .failure(let error): throw .verification(error)
        case .success(let appTransaction):
            guard let id = appTransaction.appTransactionId, !id.isEmpty else {
                throw .invalidResponse("getAppTransactionInfo: the app transaction has no appTransactionId")
            }
            return .found(jws: jws, appTransaction: appTransaction)
        }
    }

    /// Set App Account Token: `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`
    /// (API 1.16+) with `{"appAccountToken": UUID}`. Binds a purchase made outside the app (an
    /// offer code redeemed in the App Store, say) to the game's account, or changes its token;
    /// Apple then reports the token on the purchase's transactions. `appAccountToken` must be a
    /// UUID (sent in lowercase), or nothing is sent (`configuration`). Apple refuses a transaction
    /// ID that is not the purchase's original (4000187) and a Family Sharing one (4000185).
    public func setAppAccountToken(
        originalTransactionID: String, appAccountToken: String
    ) async throws(AppStoreServerAPIError) {
        guard let token = AppAccountToken.canonical(appAccountToken) else {
            throw .configuration("setAppAccountToken: \(appAccountToken) is not a UUID")
        }
        let body: Data
        do {
            body = try JSONEncoder().encode(["appAccountToken": token])
        } catch {
            throw .configuration("setAppAccountToken: cannot encode the request: \(error)")
        }
        _ = try await perform(
            .setAppAccountToken, method: "PUT",
            path: "/inApps/v1/transactions/" + Self.segment(originalTransactionID) + "/appAccountToken", body: body)
    }
}

/// What Get App Transaction Info answered.
public enum AppStoreAppTransactionLookup: Hashable, Sendable {
    /// The customer's app transaction, verified, with the JWS as Apple signed it.
    case found(jws: String, appTransaction: AppTransaction)
    /// Apple knows no such transaction in this environment, or no app transaction for its
    /// customer (404: 4040010, 4040019).
    case notFound(AppStoreAPIErrorResponse)
}

extension AppStoreAppTransactionLookup: Encodable {
    private enum CodingKeys: String, CodingKey { case found, appTransaction, httpStatusCode, errorCode, errorMessage }

    /// `{"found": true, "appTransaction": {…}}` with the decoded payload, or `{"found": false,
    /// "httpStatusCode", "errorCode"?, "errorMessage"?}` with Apple's answer: the shape `ledger
    /// appstore app-transaction` prints and `GET /appstore/app-transactions/{id}` answers.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .found(_, let appTransaction):
            try container.encode(true, forKey: .found)
            try container.encode(appTransaction, forKey: .appTransaction)
        case .notFound(let answer):
            try container.encode(false, forKey: .found)
            try container.encode(answer.httpStatusCode, forKey: .httpStatusCode)
            try container.encodeIfPresent(answer.errorCode?.rawValue, forKey: .errorCode)
            try container.encodeIfPresent(answer.errorMessage, forKey: .errorMessage)
        }
    }
}

/// `AppTransactionInfoResponse`.
private struct AppTransactionInfoWire: Decodable {
    var signedAppTransactionInfo: String?
}
