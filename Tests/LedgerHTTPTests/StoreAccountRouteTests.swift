import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTP
import Testing

/// `POST /players/{playerID}/reconcile`, `GET /appstore/app-transactions/{transactionID}` and
/// `POST /appstore/transactions/{originalTransactionID}/app-account-token` against the
/// simulated stores' APIs.
@Suite struct StoreAccountRouteTests {
    static let gems = "com.kibblestreet.td.gems.small"
    static let gemsLarge = "com.kibblestreet.td.gems.large"
    static let account = "705000000000077"

    static func ids(_ list: Any?) -> [String] {
        (list as? [[String: Any]])?.compactMap { $0["transactionID"] as? String } ?? []
    }

    @Test func anAppStoreAccountIsReconciledByItsAppTransactionIDAndAnOfferCodeBoundToItsPlayer() async throws {
        let fixture = try LedgerHTTPFixture(appStoreServerAPI: true)
        let lost = try fixture.appStore.purchase(
            productID: Self.gems, appAccountToken: AppAccountToken.forPlayer("p1"), appTransactionID: Self.account)
        let redeemed = try fixture.appStore.purchase(productID: Self.gemsLarge, appTransactionID: Self.account)

        // The game learns the account from a transaction of it.
        let lookup = try await fixture.send("GET", "/appstore/app-transactions/\(lost.transactionID)")
        #expect(lookup.status == 200)
        let found = try lookup.object()
        #expect(found["found"] as? Bool == true)
        #expect((found["appTransaction"] as? [String: Any])?["appTransactionId"] as? String == Self.account)
        let missing = try await fixture.send("GET", "/appstore/app-transactions/999")
        let notFound = try missing.object()
        #expect(missing.status == 200 && notFound["found"] as? Bool == false)
        #expect(notFound["httpStatusCode"] as? Int == 404)

        let report = try await fixture.send(
            "POST", "/players/p1/reconcile", json: ["store": "appStore", "appTransactionID": Self.account])
        #expect(report.status == 200, "\(String(decoding: report.body, as: UTF8.self))")
        let body = try report.object()
        #expect(body["anchorTransactionID"] as? String == Self.account && body["isClean"] as? Bool == false)
        #expect(Self.ids(body["missingGrants"]) == [lost.transactionID] && Self.ids(body["unbound"]) == [redeemed.transactionID])
        #expect(try await fixture.ledger.player("p1").balances.isEmpty, "a report changes nothing")

        // Support binds the offer code to p1, then applies.
        let assigned = try await fixture.send(
            "POST", "/appstore/transactions/\(redeemed.transactionID)/app-account-token", json: ["playerID": "p1"])
        #expect(assigned.status == 200, "\(String(decoding: assigned.body, as: UTF8.self))")
        let assignment = try assigned.object()
        #expect(assignment["appAccountToken"] as? String == AppAccountToken.forPlayer("p1"))
        #expect((assignment["binding"] as? [String: Any])?["playerID"] as? String == "p1")
        #expect(fixture.appStoreAPI?.appAccountTokenRequests.map(\.originalTransactionID) == [redeemed.transactionID])

        let applied = try await fixture.send(
            "POST", "/players/p1/reconcile", json: ["store": "appStore", "appTransactionID": Self.account, "apply": true])
        let appliedBody = try applied.object()
        #expect(applied.status == 200 && appliedBody["didApply"] as? Bool == true)
        #expect(try await fixture.ledger.player("p1").balances == ["gems": 1_300])
        let clean = try await fixture.send("POST", "/players/p1/reconcile", json: ["store": "appStore"])
        let cleanBody = try clean.object()
        #expect(cleanBody["isClean"] as? Bool == true, "anchored on the newest record by default")
    }

    @Test func appleRefusingATokenIs422AndAnOutageIs503() async throws {
        let fixture = try LedgerHTTPFixture(appStoreServerAPI: true)
        let bought = try fixture.appStore.purchase(productID: Self.gems)
        fixture.appStoreAPI?.answerNext(
            HTTPResponse(
                statusCode: 400,
                body: Data(#"{"errorCode":4000187,"errorMessage":"Invalid request. The transaction ID is not an original transaction ID."}"#.utf8)))
        let refused = try await fixture.send(
            "POST", "/appstore/transactions/\(bought.transactionID)/app-account-token", json: ["playerID": "p1"])
        #expect(refused.status == 422 && refused.errorCode == "appStoreAPI.rejected", "\(String(decoding: refused.body, as: UTF8.self))")
        // An unknown anchor is the caller's mistake.
        let unknown = try await fixture.send("POST", "/players/p1/reconcile", json: ["store": "appStore", "transactionID": "42"])
        #expect(unknown.status == 400 && unknown.errorCode == "argument.invalid", "\(String(decoding: unknown.body, as: UTF8.self))")
        // Nothing to anchor on.
        let none = try await fixture.send("POST", "/players/p9/reconcile", json: ["store": "appStore"])
        #expect(none.status == 400)
    }

    @Test func aPlayPlayerIsReconciledWithGooglesOrders() async throws {
        let fixture = try LedgerHTTPFixture()
        let token = fixture.play.purchase(productID: "gems_small", quantity: 1, accountID: AppAccountToken.forPlayer("p1"))
        let granted = try await fixture.send(
            "POST", "/purchases", json: ["store": "playStore", "playerID": "p1", "purchaseToken": token, "storeProductID": "gems_small"])
        #expect(granted.status == 200)
        fixture.clock.advance(seconds: 60)
        fixture.play.void(token: token)
        let report = try await fixture.send("POST", "/players/p1/reconcile", json: ["store": "playStore"])
        #expect(report.status == 200, "\(String(decoding: report.body, as: UTF8.self))")
        let body = try report.object()
        #expect(body["ordersRead"] as? Int == 1 && (body["unappliedRefunds"] as? [Any])?.count == 1)
        let applied = try await fixture.send("POST", "/players/p1/reconcile", json: ["store": "playStore", "apply": true])
        let appliedBody = try applied.object()
        #expect(appliedBody["voidsRecorded"] as? Int == 1 && appliedBody["isClean"] as? Bool == true, "\(appliedBody)")
        #expect(try await fixture.ledger.player("p1").balances["gems", default: 0] == 0)
    }

    @Test func badBodiesAre400AndAStoreWithoutAnAPIIs404() async throws {
        let fixture = try LedgerHTTPFixture(playReconcile: false)
        for body in [
            #"{"store":"test"}"#, #"{"store":"playStore","transactionID":"1"}"#, #"{"store":"appStore","pageCountMax":0}"#,
            #"{"store":"appStore","transactionID":"1","appTransactionID":"2"}"#, #"{"store":"appStore","apply":"yes"}"#,
            #"{"store":"appStore","anchor":"1"}"#, #"{}"#, "[]",
        ] {
            let answer = try await fixture.send("POST", "/players/p1/reconcile", body: Data(body.utf8))
            #expect(answer.status == 400 && answer.errorCode == "input.invalid", "\(body): \(answer.status)")
        }
        for (method, target, json) in [
            ("POST", "/players/p1/reconcile", ["store": "appStore"]), ("POST", "/players/p1/reconcile", ["store": "playStore"]),
            ("POST", "/appstore/transactions/1/app-account-token", ["playerID": "p1"]),
        ] {
            let answer = try await fixture.send(method, target, json: json)
            #expect(answer.status == 404 && answer.errorCode == "http.notFound", "\(target)")
        }
        #expect(try await fixture.send("GET", "/appstore/app-transactions/1").status == 404)
        #expect(try await fixture.send("GET", "/players/p1/reconcile").status == 405)
        let secured = try LedgerHTTPFixture(bearerToken: "secret-token", appStoreServerAPI: true)
        #expect(try await secured.send("GET", "/appstore/app-transactions/1").status == 401)
        #expect(try await secured.send("POST", "/players/p1/reconcile", json: ["store": "appStore"]).status == 401)
    }
}
