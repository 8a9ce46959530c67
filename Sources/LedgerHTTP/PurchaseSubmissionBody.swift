import AppStoreAdapter
import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import TestStoreAdapter

/// The body a game server posts to `/purchases` for a purchase its client reported, read by the
/// project's one strict decoding path (`StrictJSON`): no duplicate key, no trailing comma, no
/// field the body's store does not define (`"quantyty": 2` is refused, not ignored), each problem
/// answered with its JSON path, line and column.
///
/// - App Store: `{"store": "appStore", "playerID": …, "signedTransaction": "<JWS>"}`, the
///   `jwsRepresentation` StoreKit 2 gives the client; or by ID alone, `{"store": "appStore",
///   "playerID": …, "transactionID": …, "storeProductID": …}` (Unity IAP, StoreKit 1), which
///   only a ledger verifying App Store purchases through the App Store Server API
///   (`AppStoreServerTransactionVerifier`) can grant; a `signedTransaction` sent with it must
///   agree with Apple's answer; `quantity` optional;
/// - Google Play: `{"store": "playStore", "playerID": …, "purchaseToken": …,
///   "storeProductID": …, "quantity": 1}`, from the client's `Purchase`;
/// - the test store: a `ledger fulfill` document (`{"store": "test", "transactionID", "productID",
///   "playerID", …}`), for development ledgers that route it.
enum PurchaseSubmissionBody {
    /// What the body must be, for the error's message.
    static let expected = "a purchase: {\"store\": \"appStore\" | \"playStore\" | \"test\", \"playerID\", …}"

    /// An App Store purchase's fields.
    struct AppStore: Decodable {
        let store: PlatformStore
        let playerID: String?
        let signedTransaction: String?
        let transactionID: String?
        let storeProductID: String?
        let quantity: Int?
    }

    /// A Google Play purchase's fields.
    struct PlayStore: Decodable {
        let store: PlatformStore
        let playerID: String?
        let purchaseToken: String
        let storeProductID: String
        let quantity: Int?
    }

    /// The submission the body describes, or the error body saying why it describes none.
    static func submission(from body: Data) -> Result<TransactionSubmission, LedgerErrorBody> {
        do throws(StrictJSONError) {
            return submission(from: try StrictJSON.parse(body), playerID: nil)
        } catch {
            return .failure(error.body(expected: expected))
        }
    }

    /// The submission of the parsed body `root`. With `playerID` (a restore's, from its path), the
    /// body may leave its `playerID` out, and one it names must be the same.
    static func submission(from root: JSONValue, playerID pathPlayerID: String?) -> Result<TransactionSubmission, LedgerErrorBody> {
        do throws(StrictJSONError) {
            guard case .object(var object, let position) = root else {
                return .failure(invalid("$", "expected an object", root.position))
            }
            guard case .string(let store, _)? = object["store"] else {
                return .failure(invalid("$.store", "missing: one of \"appStore\", \"playStore\", \"test\"", position))
            }
            let named: String?
            switch object["playerID"] {
            case .string(let text, _)?: named = text
            case nil: named = nil
            case let other?: return .failure(invalid("$.playerID", "expected a string", other.position))
            }
            if let pathPlayerID, let named, named != pathPlayerID {
                return .failure(invalid("$.playerID", "names another player than the path", position))
            }
            guard let playerID = named ?? pathPlayerID else {
                return .failure(invalid("$.playerID", "missing: the player the purchase is for", position))
            }
            if named == nil {
                // A restore's purchase may leave the player to its path; the test store's document needs it.
                object.members.append(.init(key: "playerID", keyPosition: position, value: .string(playerID, position)))
            }
            let completed = JSONValue.object(object, position)
            switch PlatformStore(rawValue: store) {
            case .appStore: return appStore(try StrictJSON.decode(AppStore.self, root: completed), playerID: playerID, at: position)
            case .playStore:
                let parsed = try StrictJSON.decode(PlayStore.self, root: completed)
                guard !parsed.purchaseToken.isEmpty, !parsed.storeProductID.isEmpty else {
                    return .failure(invalid("$", "a Google Play purchase needs purchaseToken and storeProductID", position))
                }
                return .success(
                    PlayPurchaseVerifier.submission(
                        token: parsed.purchaseToken, storeProductID: parsed.storeProductID, playerID: playerID,
                        quantity: parsed.quantity ?? 1))
            case .test: return .success(try StrictJSON.decode(TestStoreTransaction.self, root: completed).submission())
            default:
                let place = object.members.first { $0.key == "store" }?.value.position ?? position
                return .failure(invalid("$.store", "\"\(store)\" is not one of \"appStore\", \"playStore\", \"test\"", place))
            }
        } catch {
            return .failure(error.body(expected: expected))
        }
    }

    /// An App Store body's submission: by its signed transaction, or by ID alone.
    private static func appStore(
        _ parsed: AppStore, playerID: String, at position: JSONPosition
    ) -> Result<TransactionSubmission, LedgerErrorBody> {
        if let transactionID = parsed.transactionID {
            guard !transactionID.isEmpty, let product = parsed.storeProductID, !product.isEmpty else {
                return .failure(invalid("$", "an App Store purchase by ID needs transactionID and storeProductID", position))
            }
            return .success(
                AppStoreServerTransactionVerifier.submission(
                    transactionID: transactionID, storeProductID: product, playerID: playerID,
                    quantity: parsed.quantity ?? 1, jws: parsed.signedTransaction ?? ""))
        }
        guard let jws = parsed.signedTransaction, !jws.isEmpty else {
            return .failure(
                invalid("$.signedTransaction", "an App Store purchase needs signedTransaction (the transaction's JWS) or transactionID", position))
        }
        guard let submission = AppStoreTransactionVerifier.submission(jws: jws, playerID: playerID) else {
            return .failure(invalid("$.signedTransaction", "not a readable signed transaction", position))
        }
        return .success(submission)
    }

    /// The body of one problem at `path`.
    static func invalid(_ path: String, _ message: String, _ position: JSONPosition) -> LedgerErrorBody {
        LedgerErrorBody.invalidInput(
            "not \(expected)", problems: [.init(path: path, message: message, line: position.line, column: position.column)])
    }
}
