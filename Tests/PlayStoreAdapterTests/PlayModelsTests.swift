import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import Testing

/// The Play Developer API models decode Google's JSON and keep unknown values.
@Suite struct PlayModelsTests {
    @Test func productPurchaseDecodesGooglesJSON() throws {
        let json = """
            {"kind":"androidpublisher#productPurchase","purchaseTimeMillis":"1767571200123","purchaseState":0,
             "consumptionState":0,"orderId":"GPA.3301-1234-5678-90123","purchaseType":0,"acknowledgementState":1,
             "obfuscatedExternalAccountId":"acct-1","regionCode":"US","quantity":3,"refundableQuantity":2,
             "futureField":{"x":1}}
            """
        let purchase = try JSONDecoder().decode(ProductPurchase.self, from: Data(json.utf8))
        #expect(purchase.purchaseState == ProductPurchase.State.purchased.rawValue)
        #expect(purchase.quantity == 3 && purchase.refundableQuantity == 2)
        #expect(purchase.purchaseDate == Date(ledgerMilliseconds: 1_767_571_200_123))
        #expect(purchase.purchaseType == 0 && purchase.obfuscatedExternalAccountId == "acct-1")
        let unknownState = try JSONDecoder().decode(ProductPurchase.self, from: Data(#"{"purchaseState":7}"#.utf8))
        #expect(unknownState.purchaseState == 7 && ProductPurchase.State(rawValue: 7) == nil)
    }

    @Test func voidedPurchasesPageDecodes() throws {
        let json = """
            {"voidedPurchases":[{"purchaseToken":"tok","orderId":"GPA.1","voidedTimeMillis":"1767571200000",
              "voidedSource":0,"voidedReason":1,"voidedQuantity":1}],"tokenPagination":{"nextPageToken":"p2"}}
            """
        struct Wire: Decodable {
            struct Pagination: Decodable { var nextPageToken: String? }
            var voidedPurchases: [VoidedPurchase]
            var tokenPagination: Pagination?
        }
        let wire = try JSONDecoder().decode(Wire.self, from: Data(json.utf8))
        #expect(wire.voidedPurchases.first?.voidedDate == Date(ledgerMilliseconds: 1_767_571_200_000))
        #expect(wire.tokenPagination?.nextPageToken == "p2")
    }

    @Test func errorsSayWhetherToRetry() {
        #expect(PlayAPIError.retryable("503").isRetryable)
        #expect(!PlayAPIError.invalidToken("gone").isRetryable && !PlayAPIError.notFound("x").isRetryable)
    }
}
