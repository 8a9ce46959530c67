import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Get App Transaction Info and Set App Account Token, against the simulated API: the customer's
/// stable `appTransactionId`, and a purchase made outside the app bound to a player afterwards.
@Suite struct AppStoreAccountAPITests {
    static let removeAds = "com.kibblestreet.td.remove_ads"

    @Test("every transaction of a customer answers the same verified appTransactionId; an unknown one is notFound")
    func appTransactionIsTheCustomersAnchor() async throws {
        let fixture = try ServerAPIFixture()
        let client = try fixture.client(fixture.simulatedAPI())
        let token = AppAccountToken.forPlayer("p1")
        let first = try fixture.simulator.purchase(productID: "com.kibblestreet.td.gems.small", appAccountToken: token)
        let second = try fixture.simulator.purchase(productID: Self.removeAds, appAccountToken: token, type: .nonConsumable)
        let other = try fixture.simulator.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p2"))
        var ids: [String] = []
        for transactionID in [first.transactionID, second.transactionID, other.transactionID] {
            guard case .found(let jws, let appTransaction) = try await client.appTransactionInfo(transactionID: transactionID)
            else {
                Issue.record("expected the app transaction of \(transactionID)")
                return
            }
            #expect(!jws.isEmpty && appTransaction.bundleId == ServerAPIFixture.bundleID)
            ids.append(try #require(appTransaction.appTransactionId))
        }
        #expect(ids[0] == ids[1], "one customer, one account")
        #expect(ids[0] != ids[2], "another customer, another account")
        guard case .notFound(let answer) = try await client.appTransactionInfo(transactionID: "999999") else {
            Issue.record("an unknown transaction is notFound")
            return
        }
        #expect(answer.httpStatusCode == 404 && answer.errorCode == .transactionIDNotFound)
    }

    @Test("Set App Account Token binds an out-of-app purchase: the purchase, its restores and Get Transaction Info name the player")
    func setTokenBindsThePurchase() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        let client = try fixture.client(api)
        // An offer code redeemed in the App Store: no token.
        let redeemed = try fixture.simulator.purchase(productID: Self.removeAds, type: .nonConsumable)
        let token = AppAccountToken.forPlayer("p4")
        try await client.setAppAccountToken(originalTransactionID: redeemed.transactionID, appAccountToken: token.uppercased())
        #expect(api.appAccountTokenRequests.map(\.token) == [token], "sent in canonical lowercase")
        #expect(fixture.simulator.transaction(redeemed.transactionID)?.appAccountToken == token)
        let restored = try fixture.simulator.restore(transactionID: redeemed.transactionID)
        #expect(restored.payload.appAccountToken == token, "later deliveries name the player")
        guard case .found(let signed) = try await client.transactionInfo(transactionID: redeemed.transactionID) else {
            Issue.record("expected the transaction")
            return
        }
        #expect(signed.transaction.appAccountToken == token)
    }

    @Test("Set App Account Token refuses a non-original ID, a Family Sharing copy and a non-UUID, changing nothing")
    func setTokenRefusals() async throws {
        let fixture = try ServerAPIFixture()
        let api = fixture.simulatedAPI()
        let client = try fixture.client(api)
        let bought = try fixture.simulator.purchase(
            productID: Self.removeAds, appAccountToken: AppAccountToken.forPlayer("p1"), type: .nonConsumable)
        let restored = try fixture.simulator.restore(transactionID: bought.transactionID)
        let shared = try fixture.simulator.shareWithFamily(transactionID: bought.transactionID, appAccountToken: nil)
        let token = AppAccountToken.forPlayer("p9")
        for (transactionID, code) in [
            (restored.transactionID, AppStoreAPIErrorCode.transactionIDNotOriginalTransactionID),
            (shared.transactionID, .familyTransactionNotSupported),
        ] {
            await #expect {
                try await client.setAppAccountToken(originalTransactionID: transactionID, appAccountToken: token)
            } throws: { error in
                guard case .rejected(let answer) = error as? AppStoreServerAPIError else { return false }
                return answer.httpStatusCode == 400 && answer.errorCode == code
            }
        }
        await #expect {
            try await client.setAppAccountToken(originalTransactionID: bought.transactionID, appAccountToken: "p9")
        } throws: { error in
            guard case .configuration = error as? AppStoreServerAPIError else { return false }
            return true
        }
        #expect(api.appAccountTokenRequests.isEmpty)
        #expect(fixture.simulator.transaction(bought.transactionID)?.appAccountToken == AppAccountToken.forPlayer("p1"))
        #expect(fixture.simulator.transaction(shared.transactionID)?.appAccountToken == nil)
        #expect(AppStoreAPIErrorCode.invalidAppAccountTokenUUID.rawValue == 4_000_183)
        #expect(AppStoreAPIErrorCode.appTransactionDoesNotExist.rawValue == 4_040_019)
    }
}
