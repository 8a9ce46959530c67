import AppStoreAdapter
import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// The routes that ask a store's server API about a player's account: reconcile one player
/// with Apple's or Google's records, look up an App Store customer's app transaction, and set
/// the App Store account token of a purchase made outside the app.
extension LedgerHTTPHandler {
    /// `POST /players/{playerID}/reconcile`: `AppStoreReconciler` or `PlayReconciler`, by the
    /// body's store. 200 with the report (clean or not); 404 when the server has no API for
    /// that store.
    func reconcile(_ playerID: String, _ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        let request: ReconcileBody
        do throws(StrictJSONError) {
            request = try StrictJSON.decode(ReconcileBody.self, from: body)
        } catch {
            return .invalidInput(error.body(expected: ReconcileBody.expected))
        }
        let apply = request.apply ?? false
        // The body is judged whole before the server's configuration: a wrong body is 400 anywhere.
        switch request.store {
        case .appStore:
            if request.transactionID != nil, request.appTransactionID != nil {
                return Self.refused("$.appTransactionID", "give transactionID or appTransactionID, not both")
            }
            let pageCountMax = request.pageCountMax ?? AppStoreReconciler.pageCountMaxDefault
            guard (1...AppStoreServerAPIClient.pageCountMaxDefault).contains(pageCountMax) else {
                return Self.refused(
                    "$.pageCountMax", "\(pageCountMax) is out of range 1...\(AppStoreServerAPIClient.pageCountMaxDefault)")
            }
            guard let appStoreServerAPI else { return notConfigured("App Store reconcile (the App Store Server API)") }
            let reconciler = AppStoreReconciler(client: appStoreServerAPI, ledger: ledger, pageCountMax: pageCountMax)
            let report = try await reconciler.reconcile(
                playerID: playerID, anchorTransactionID: request.transactionID ?? request.appTransactionID, apply: apply)
            return .json(200, report)
        case .playStore:
            guard request.transactionID == nil, request.appTransactionID == nil, request.pageCountMax == nil else {
                return Self.refused("$", "transactionID, appTransactionID and pageCountMax are the App Store's only")
            }
            guard let playReconciler else { return notConfigured("Google Play reconcile (the Play Developer API)") }
            return .json(200, try await playReconciler.reconcile(playerID: playerID, apply: apply))
        default:
            return Self.refused("$.store", "reconcile takes appStore or playStore, not \(request.store)")
        }
    }

    /// `GET /appstore/app-transactions/{transactionID}`: Get App Transaction Info, verified.
    /// 200 `{"found": true, …}` or `{"found": false, …}` with Apple's answer.
    func appTransaction(_ transactionID: String) async -> LedgerHTTPResponse {
        guard let appStoreServerAPI else { return notConfigured("/appstore/app-transactions (the App Store Server API)") }
        do throws(AppStoreServerAPIError) {
            return .json(200, try await appStoreServerAPI.appTransactionInfo(transactionID: transactionID))
        } catch {
            return Self.failure(error)
        }
    }

    /// `POST /appstore/transactions/{originalTransactionID}/app-account-token`: records the
    /// player's account token (as `POST /players/{playerID}/account-token` does), then sets it on
    /// the purchase with Set App Account Token. 200 with the assignment; 422 when Apple refuses
    /// the purchase (not an original transaction ID, Family Sharing, unknown).
    func appAccountToken(_ originalTransactionID: String, _ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        guard let appStoreServerAPI else {
            return notConfigured("/appstore/transactions/{id}/app-account-token (the App Store Server API)")
        }
        struct Body: Decodable { let playerID: String }
        let decoded: Body
        do throws(StrictJSONError) {
            decoded = try StrictJSON.decode(Body.self, from: body)
        } catch {
            return .invalidInput(error.body(expected: "{\"playerID\": \"…\"}"))
        }
        // The ledger first: a token that names another player is refused before Apple is told.
        let binding = try await ledger.bindAccountToken(store: .appStore, playerID: decoded.playerID)
        do throws(AppStoreServerAPIError) {
            try await appStoreServerAPI.setAppAccountToken(
                originalTransactionID: originalTransactionID, appAccountToken: binding.token)
        } catch {
            return Self.failure(error)
        }
        return .json(
            200,
            AppStoreAccountTokenAssignment(
                originalTransactionID: originalTransactionID, appAccountToken: binding.token, playerID: decoded.playerID,
                binding: binding))
    }

    /// 400 `input.invalid` for a reconcile body that decodes but asks for what cannot be done.
    private static func refused(_ path: String, _ message: String) -> LedgerHTTPResponse {
        .invalidInput(LedgerErrorBody.invalidInput("not \(ReconcileBody.expected)", problems: [.init(path: path, message: message)]))
    }

    /// The answer to a failed App Store Server API call: 503 when a retry can succeed, 422 when
    /// Apple refused the request for good, 502 for an answer that does not verify, and 500 for
    /// the server's own key or configuration.
    static func failure(_ error: AppStoreServerAPIError) -> LedgerHTTPResponse {
        let body = LedgerErrorBody(error)
        switch error {
        case .rateLimited, .unavailable, .transport: return body.response(503, headers: [("Retry-After", "1")])
        case .rejected: return error.isRetryable ? body.response(503, headers: [("Retry-After", "1")]) : body.response(422)
        case .invalidResponse, .verification: return body.response(502)
        case .keyFile, .configuration, .unauthorized: return body.response(500)
        }
    }
}

/// The body of `POST /players/{playerID}/reconcile`.
struct ReconcileBody: Decodable {
    /// `appStore` or `playStore`.
    let store: PlatformStore
    /// With `--apply`'s meaning: grant and refund what the report lists.
    let apply: Bool?
    /// App Store: any transaction of the player's Apple Account.
    let transactionID: String?
    /// App Store: the account's `appTransactionId`.
    let appTransactionID: String?
    /// App Store: pages of each history read.
    let pageCountMax: Int?

    static let expected = "{\"store\": \"appStore\" | \"playStore\", \"apply\"?: bool, \"transactionID\"?, \"appTransactionID\"?, \"pageCountMax\"?}"
}
