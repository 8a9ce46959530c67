import Foundation
import FulfillmentLedger

/// The test store's transaction document: what its "signed" payload carries.
///
/// `verified` stands in for a signature. This is also the input format of `ledger fulfill`.
public struct TestStoreTransaction: Hashable, Sendable, Codable {
    /// The store; the test verifier vouches only for `test`.
    public var store: PlatformStore
    /// The transaction ID.
    public var transactionID: String
    /// The store product ID.
    public var storeProductID: String
    /// The player.
    public var playerID: String
    /// Units bought.
    public var quantity: Int
    /// `purchased`, `pending` or `cancelled`.
    public var state: PurchaseState
    /// Whether the "signature" is valid.
    public var verified: Bool
    /// The environment; the test store vouches only for non-production ones.
    public var environment: StoreEnvironment
    /// When it was bought.
    public var purchaseDate: Date
    /// When it was revoked, if it was.
    public var revocationDate: Date?
    /// The account the store binds it to (like `appAccountToken`), if any.
    public var accountBinding: String?
    /// The original purchase's ID (like `originalTransactionId`), when this document is a
    /// restored or second-device delivery of it; nil otherwise.
    public var originalTransactionID: String?

    /// Creates a document.
    public init(
        store: PlatformStore = .test, transactionID: String, storeProductID: String, playerID: String,
        quantity: Int = 1, state: PurchaseState = .purchased, verified: Bool = true,
        environment: StoreEnvironment = .sandbox, purchaseDate: Date, revocationDate: Date? = nil,
        accountBinding: String? = nil, originalTransactionID: String? = nil
    ) {
        self.store = store
        self.transactionID = transactionID
        self.storeProductID = storeProductID
        self.playerID = playerID
        self.quantity = quantity
        self.state = state
        self.verified = verified
        self.environment = environment
        self.purchaseDate = purchaseDate
        self.revocationDate = revocationDate
        self.accountBinding = accountBinding
        self.originalTransactionID = originalTransactionID
    }

    private enum CodingKeys: String, CodingKey {
        // `productID` on the wire, as in the CLI input format.
        case storeProductID = "productID"
        case store, transactionID, playerID, quantity, state, verified, environment, purchaseDate,
            revocationDate, accountBinding, originalTransactionID
    }

    /// Decodes with defaults: store `test`, quantity 1, state `purchased`, verified true,
    /// environment `sandbox`, purchase date now.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        store = try container.decodeIfPresent(PlatformStore.self, forKey: .store) ?? .test
        transactionID = try container.decode(String.self, forKey: .transactionID)
        storeProductID = try container.decode(String.self, forKey: .storeProductID)
        playerID = try container.decode(String.self, forKey: .playerID)
        quantity = try container.decodeIfPresent(Int.self, forKey: .quantity) ?? 1
        state = try container.decodeIfPresent(PurchaseState.self, forKey: .state) ?? .purchased
        verified = try container.decodeIfPresent(Bool.self, forKey: .verified) ?? true
        environment = try container.decodeIfPresent(StoreEnvironment.self, forKey: .environment) ?? .sandbox
        purchaseDate = try container.decodeIfPresent(Date.self, forKey: .purchaseDate) ?? Date()
        revocationDate = try container.decodeIfPresent(Date.self, forKey: .revocationDate)
        accountBinding = try container.decodeIfPresent(String.self, forKey: .accountBinding)
        originalTransactionID = try container.decodeIfPresent(String.self, forKey: .originalTransactionID)
    }

    /// The encoder every test-store payload uses: ISO 8601 dates with milliseconds, sorted keys.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(TestStoreTransaction.formatDate(date))
        }
        return encoder
    }

    /// The matching decoder: accepts RFC 3339 dates with or without fractional seconds (`LedgerJSON.parseDate`).
    public static func decoder() -> JSONDecoder { LedgerJSON.decoder() }

    /// Formats a date as ISO 8601 UTC with milliseconds.
    public static func formatDate(_ date: Date) -> String {
        date.ledgerISO8601
    }

    /// Parses an RFC 3339 date with or without fractional seconds (`LedgerJSON.parseDate`).
    public static func parseDate(_ text: String) -> Date? { LedgerJSON.parseDate(text) }

    /// The submission a client would send for this document; the payload is the document itself.
    public func submission() -> TransactionSubmission {
        let payload = (try? TestStoreTransaction.encoder().encode(self)).map { String(decoding: $0, as: UTF8.self) }
        return TransactionSubmission(
            store: store, transactionID: transactionID, storeProductID: storeProductID, playerID: playerID,
            quantity: quantity, payload: payload ?? "")
    }
}
