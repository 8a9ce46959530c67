import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import LedgerHTTP
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// The status table of Docs/Integration.md ("Status codes"), row by row, through the handler.
struct LedgerHTTPHandlerTests {
    // MARK: POST /purchases

    @Test("a purchase is 200 granted, its redelivery 200 alreadyFulfilled, and it grants once")
    func grantedThenAlreadyFulfilled() async throws {
        let fixture = try LedgerHTTPFixture()
        let first = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1"))
        #expect(first.status == 200 && first.outcomeName == "granted", "\(String(decoding: first.body, as: UTF8.self))")
        #expect(first.header("Content-Type") == "application/json")
        let again = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1"))
        #expect(again.status == 200 && again.outcomeName == "alreadyFulfilled")
        let decoded = try LedgerJSON.decoder().decode(FulfillmentOutcome.self, from: again.body)
        #expect(decoded.receipt?.finished == true)
        #expect(try await fixture.ledger.player("p1").balances == ["gems": 100])
    }

    @Test("a pending payment is 202, and 200 granted once it is paid")
    func pending() async throws {
        let fixture = try LedgerHTTPFixture()
        var body = LedgerHTTPFixture.testPurchase("t1")
        body["state"] = "pending"
        let pending = try await fixture.send("POST", "/purchases", json: body)
        #expect(try pending.status == 202 && (pending.object()["reason"] as? String) == "pending")
        body["state"] = "purchased"
        #expect(try await fixture.send("POST", "/purchases", json: body).status == 200)
    }

    @Test("a transaction already fulfilled for another player is 409; an unknown product 422; both change nothing")
    func conflictAndRejection() async throws {
        let fixture = try LedgerHTTPFixture()
        _ = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1"))
        let stolen = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1", player: "p2"))
        #expect(try stolen.status == 409 && (stolen.object()["reason"] as? String) == "ownedByAnotherPlayer")
        let unknown = try await fixture.send(
            "POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t2", "test.not_in_catalog"))
        #expect(try unknown.status == 422 && (unknown.object()["reason"] as? String) == "unknownProduct")
        #expect(try await fixture.ledger.player("p2").balances.isEmpty)
    }

    @Test("a body that names no purchase is 400 input.invalid and reaches no port")
    func invalidBodies() async throws {
        let fixture = try LedgerHTTPFixture()
        let bodies: [Data] = [
            Data("not json".utf8), Data(#"{"playerID":"p1"}"#.utf8), Data(#"{"store":"appStore","playerID":"p1"}"#.utf8),
            Data(#"{"store":"appStore","playerID":"p1","signedTransaction":"a.b.c"}"#.utf8),
            Data(#"{"store":"playStore","playerID":"p1","purchaseToken":"tok"}"#.utf8),
            Data(#"{"store":"epicGames","playerID":"p1"}"#.utf8),
        ]
        for body in bodies {
            let response = try await fixture.send("POST", "/purchases", body: body)
            #expect(response.status == 400 && response.errorCode == "input.invalid", "\(String(decoding: body, as: UTF8.self))")
        }
        #expect(fixture.testStore.finishCallCount("t1") == 0)
    }

    @Test("a verifier outage is 503 with Retry-After and the error's stable code; the retry then grants")
    func verifierOutage() async throws {
        let fixture = try LedgerHTTPFixture()
        fixture.testStore.failNext(.verify)
        let down = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1"))
        #expect(down.status == 503 && down.header("Retry-After") == "1")
        #expect(down.errorCode == "port.verifierUnavailable" && (down.error?["code"] as? Int) == 4001)
        #expect(down.error?["retryable"] as? Bool == true && down.error?["outcomeUnknown"] as? Bool == false)
        #expect(try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1")).status == 200)
    }

    @Test("a storage fault before the commit is 503 and grants nothing")
    func storageFault() async throws {
        let fixture = try LedgerHTTPFixture()
        fixture.faults.arm(.beforeCommit)
        let failed = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1"))
        #expect(failed.status == 503 && failed.errorCode == "fault.injected")
        #expect(try await fixture.ledger.player("p1").balances.isEmpty)
    }

    @Test("a signed App Store transaction and a Play purchase token each grant through /purchases")
    func storeSubmissions() async throws {
        let fixture = try LedgerHTTPFixture()
        let signed = try fixture.appStore.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p1"))
        let apple = try await fixture.send(
            "POST", "/purchases", json: ["store": "appStore", "playerID": "p1", "signedTransaction": signed.jws])
        #expect(apple.status == 200 && apple.outcomeName == "granted", "\(String(decoding: apple.body, as: UTF8.self))")
        // One binding for every store: the ledger maps a player to its App Store account token.
        let token = fixture.play.purchase(productID: "gems_small", quantity: 1, accountID: AppAccountToken.forPlayer("p1"))
        let google = try await fixture.send(
            "POST", "/purchases",
            json: ["store": "playStore", "playerID": "p1", "purchaseToken": token, "storeProductID": "gems_small"])
        #expect(google.status == 200 && google.outcomeName == "granted", "\(String(decoding: google.body, as: UTF8.self))")
        #expect(try await fixture.ledger.player("p1").balances == ["gems": 200])
    }

    @Test("an App Store purchase by transaction ID alone grants once through the App Store Server API; offline it is 422")
    func appStoreByTransactionID() async throws {
        let fixture = try LedgerHTTPFixture(appStoreServerAPI: true)
        let product = "com.kibblestreet.td.gems.small"
        let purchase = try fixture.appStore.purchase(productID: product, appAccountToken: AppAccountToken.forPlayer("p1"))
        let body = ["store": "appStore", "playerID": "p1", "transactionID": purchase.transactionID, "storeProductID": product]
        let first = try await fixture.send("POST", "/purchases", json: body)
        #expect(first.status == 200 && first.outcomeName == "granted", "\(String(decoding: first.body, as: UTF8.self))")
        let again = try await fixture.send("POST", "/purchases", json: body)
        #expect(again.status == 200 && again.outcomeName == "alreadyFulfilled")
        #expect(try await fixture.ledger.player("p1").balances == ["gems": 100])
        let withJWS = try await fixture.send("POST", "/purchases", json: body.merging(["signedTransaction": purchase.jws]) { $1 })
        #expect(withJWS.status == 200 && withJWS.outcomeName == "alreadyFulfilled")
        let noProduct = try await fixture.send(
            "POST", "/purchases", json: ["store": "appStore", "playerID": "p1", "transactionID": purchase.transactionID])
        #expect(noProduct.status == 400 && noProduct.errorCode == "input.invalid")

        let offline = try LedgerHTTPFixture()
        let refused = try await offline.send("POST", "/purchases", json: body)
        #expect(refused.status == 422 && refused.outcomeName == "rejected")
        #expect(try await offline.ledger.player("p1").balances == [:])
    }

    // MARK: Routing, limits and the bearer token

    @Test("an unknown route is 404, a wrong method 405 with Allow, an oversized body 413 unread")
    func routing() async throws {
        let fixture = try LedgerHTTPFixture(bodyByteCountMax: 1_024)
        #expect(try await fixture.send("GET", "/nothing").status == 404)
        let wrong = try await fixture.send("GET", "/purchases")
        #expect(wrong.status == 405 && wrong.header("Allow") == "POST" && wrong.errorCode == "http.methodNotAllowed")
        let large = try await fixture.send("POST", "/purchases", body: Data(count: 1_025))
        #expect(large.status == 413 && large.errorCode == "http.bodyTooLarge")
    }

    @Test("with a bearer token, game routes need it (401 otherwise); store routes and health do not")
    func bearerToken() async throws {
        let fixture = try LedgerHTTPFixture(bearerToken: "s3cret")
        let purchase = LedgerHTTPFixture.testPurchase("t1")
        for header in [[], [("Authorization", "Bearer wrong")], [("Authorization", "s3cret")]] {
            let refused = try await fixture.send("POST", "/purchases", json: purchase, headers: header)
            #expect(refused.status == 401 && refused.header("WWW-Authenticate") == "Bearer")
        }
        #expect(try await fixture.send("GET", "/players/p1").status == 401)
        #expect(try await fixture.ledger.player("p1").balances.isEmpty, "a refused request changes nothing")
        let allowed = try await fixture.send("POST", "/purchases", json: purchase, headers: [("authorization", "Bearer s3cret")])
        #expect(allowed.status == 200)
        #expect(try await fixture.send("GET", "/healthz").status == 200)
    }

    // MARK: Reads

    @Test("player and entitlement reads answer the snapshots, with a percent-encoded player ID")
    func reads() async throws {
        let fixture = try LedgerHTTPFixture()
        _ = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1", player: "p 1"))
        _ = try await fixture.send(
            "POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t2", "test.remove_ads", player: "p 1"))
        let player = try await fixture.send("GET", "/players/p%201")
        #expect(try player.status == 200 && (player.object()["balances"] as? [String: Int]) == ["gems": 100])
        let entitlements = try await fixture.send("GET", "/players/p%201/entitlements")
        let snapshot = try LedgerJSON.decoder().decode(EntitlementSnapshot.self, from: entitlements.body)
        #expect(entitlements.status == 200 && snapshot.statuses["remove_ads"] == .owned)
    }

    @Test("GET /changes pages the change feed after a cursor; a bad query is 400; with a token it needs one")
    func changes() async throws {
        let fixture = try LedgerHTTPFixture()
        for (index, player) in ["p1", "p2", "p3"].enumerated() {
            _ = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t\(index)", player: player))
        }
        let all = try await fixture.send("GET", "/changes")
        let page = try LedgerJSON.decoder().decode(LedgerChangePage.self, from: all.body)
        #expect(all.status == 200 && page.changes.map(\.playerID) == ["p1", "p2", "p3"])
        let first = try await fixture.send("GET", "/changes?limit=1")
        let firstPage = try LedgerJSON.decoder().decode(LedgerChangePage.self, from: first.body)
        #expect(firstPage.changes.map(\.playerID) == ["p1"])
        let rest = try await fixture.send("GET", "/changes?after=\(firstPage.next)&limit=10")
        #expect(try LedgerJSON.decoder().decode(LedgerChangePage.self, from: rest.body).changes.map(\.playerID) == ["p2", "p3"])
        let caughtUp = try await fixture.send("GET", "/changes?after=\(page.next)")
        #expect(try (caughtUp.object()["changes"] as? [Any])?.isEmpty == true && caughtUp.object()["next"] as? Int64 == page.next)
        for target in [
            "/changes?after=ten", "/changes?limit=0", "/changes?limit=1001", "/changes?after=-1", "/changes?from=3",
            "/changes?" + Array(repeating: "after=1", count: 9).joined(separator: "&"),
        ] {
            let refused = try await fixture.send("GET", target)
            #expect(refused.status == 400, "\(target)")
        }
        #expect(try await fixture.send("GET", "/changes?from=3").errorCode == "http.invalidQuery")
        #expect(try await fixture.send("POST", "/changes").status == 405)

        let guarded = try LedgerHTTPFixture(bearerToken: "s3cret")
        #expect(try await guarded.send("GET", "/changes").status == 401)
        let authorized = try await guarded.send("GET", "/changes", headers: [("Authorization", "Bearer s3cret")])
        #expect(authorized.status == 200)
    }

    // MARK: Health and metrics

    @Test("healthz and readyz are 200; metrics render the observations in Prometheus text")
    func healthAndMetrics() async throws {
        let fixture = try LedgerHTTPFixture()
        _ = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1"))
        #expect(try await fixture.send("GET", "/healthz").status == 200)
        #expect(try await fixture.send("GET", "/readyz").status == 200)
        let metrics = try await fixture.send("GET", "/metrics")
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(metrics.status == 200 && text.contains(#"ledger_observations_total{code="fulfillment.granted"} 1"#), "\(text)")
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
    }
}
