import AppStoreAdapter
import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import TestStoreAdapter

/// The body a game server posts to `/purchases` for a purchase its client reported:
///
/// - App Store: `{"store": "appStore", "playerID": …, "signedTransaction": "<JWS>"}`, the
///   `jwsRepresentation` StoreKit 2 gives the client; or by ID alone, `{"store": "appStore",
///   "playerID": …, "transactionID": …, "storeProductID": …}` (Unity IAP, StoreKit 1), which
///   only a ledger verifying App Store purchases through the App Store Server API
///   (`AppStoreServerTransactionVerifier`) can grant; a `signedTransaction` sent with it must
///   agree with Apple's answer;
/// - Google Play: `{"store": "playStore", "playerID": …, "purchaseToken": …,
///   "storeProductID": …, "quantity": 1}`, from the client's `Purchase`;
/// - the test store: a `ledger fulfill` document (`{"store": "test", "transactionID", "productID",
///   "playerID", …}`), for development ledgers that route it.
struct PurchaseSubmissionBody: Decodable {
    let store: PlatformStore
    let playerID: String
    let signedTransaction: String?
    let transactionID: String?
    let purchaseToken: String?
    let storeProductID: String?
    let quantity: Int?

    /// The submission the body describes, or why it describes none.
    static func submission(from body: Data) -> Result<TransactionSubmission, LedgerHTTPErrorBody> {
        let decoder = LedgerJSON.decoder()
        let parsed: PurchaseSubmissionBody
        do {
            parsed = try decoder.decode(PurchaseSubmissionBody.self, from: body)
        } catch {
            return .failure(invalid("expected {\"store\", \"playerID\", …}: \(error)"))
        }
        switch parsed.store {
        case .appStore:
            if let transactionID = parsed.transactionID {
                guard !transactionID.isEmpty, let product = parsed.storeProductID, !product.isEmpty else {
                    return .failure(invalid("an App Store purchase by ID needs transactionID and storeProductID"))
                }
                return .success(
                    AppStoreServerTransactionVerifier.submission(
                        transactionID: transactionID, storeProductID: product, playerID: parsed.playerID,
                        quantity: parsed.quantity ?? 1, jws: parsed.signedTransaction ?? ""))
            }
            guard let jws = parsed.signedTransaction, !jws.isEmpty else {
                return .failure(
                    invalid("an App Store purchase needs signedTransaction (the transaction's JWS) or transactionID"))
            }
            guard let submission = AppStoreTransactionVerifier.submission(jws: jws, playerID: parsed.playerID) else {
                return .failure(invalid("signedTransaction is not a readable signed transaction"))
            }
            return .success(submission)
        case .playStore:
            guard let token = parsed.purchaseToken, let product = parsed.storeProductID, !token.isEmpty, !product.isEmpty
            else {
                return .failure(invalid("a Google Play purchase needs purchaseToken and storeProductID"))
            }
            return .success(
                PlayPurchaseVerifier.submission(
                    token: token, storeProductID: product, playerID: parsed.playerID, quantity: parsed.quantity ?? 1))
        case .test:
            do {
                return .success(try decoder.decode(TestStoreTransaction.self, from: body).submission())
            } catch {
                return .failure(invalid("not a test-store transaction: \(error)"))
            }
        default:
            return .failure(invalid("store \(parsed.store.rawValue) is not one of appStore, playStore, test"))
        }
    }

    static func invalid(_ message: String) -> LedgerHTTPErrorBody {
        LedgerHTTPErrorBody(error: "http.invalidBody", message: message)
    }
}
