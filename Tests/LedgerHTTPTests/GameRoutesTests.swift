import Foundation
import FulfillmentLedger
import LedgerHTTP
import Testing

/// The game server's operations over HTTP, with the library's semantics: eligibility before
/// payment, spends and grants once by operation ID, refunds once by event ID, Reset Game, a
/// player's history in pages and their subscriptions.
@Suite struct GameRoutesTests {
    static func body(_ json: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: json) }

    @Test func eligibilityAnswersBeforePaymentWithTheLimitAndItsRemainder() async throws {
        let fixture = try LedgerHTTPFixture()
        let first = try await fixture.send("GET", "/players/p1/eligibility?product=starter_bundle")
        #expect(first.status == 200 && first.outcomeName == "eligible")
        _ = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1", "test.starter_bundle"))
        let after = try await fixture.send("GET", "/players/p1/eligibility?product=starter_bundle&quantity=1")
        #expect(after.outcomeName == "limitReached")
        #expect(try after.object()["remaining"] as? Int == 0 && after.object()["count"] as? Int == 1)
        #expect(try await fixture.send("GET", "/players/p1/eligibility?product=nope").outcomeName == "unknownProduct")
        let tooMany = try await fixture.send("GET", "/players/p1/eligibility?product=remove_ads&quantity=2")
        #expect(tooMany.outcomeName == "invalidQuantity")
        for target in ["/players/p1/eligibility", "/players/p1/eligibility?product=gems_small&quantity=two",
                       "/players/p1/eligibility?product=gems_small&product=gems_large", "/players/p1/eligibility?sku=x"] {
            let refused = try await fixture.send("GET", target)
            #expect(refused.status == 400 && refused.errorCode == "http.invalidQuery", "\(target)")
        }
    }

    @Test func spendsAndGrantsApplyOnceByOperationID() async throws {
        let fixture = try LedgerHTTPFixture()
        let grant: [String: Any] = [
            "operationID": "quest-1", "playerID": "p1", "direction": "grant", "asset": "currency", "assetID": "gems", "amount": 100,
        ]
        let applied = try await fixture.send("POST", "/operations", body: try Self.body(grant))
        #expect(applied.status == 200 && applied.outcomeName == "applied", "\(String(decoding: applied.body, as: UTF8.self))")
        let again = try await fixture.send("POST", "/operations", body: try Self.body(grant))
        #expect(again.status == 200 && again.outcomeName == "alreadyApplied")
        var changed = grant
        changed["amount"] = 200
        let conflict = try await fixture.send("POST", "/operations", body: try Self.body(changed))
        #expect(conflict.status == 409)
        #expect(try conflict.object()["reason"] as? String == "conflictOperation")
        let spend: [String: Any] = [
            "operationID": "shop-1", "playerID": "p1", "direction": "spend", "asset": "currency", "assetID": "gems", "amount": 500,
        ]
        let short = try await fixture.send("POST", "/operations", body: try Self.body(spend))
        #expect(short.status == 409)
        #expect(try short.object()["reason"] as? String == "insufficientFunds")
        var misspelt = spend
        misspelt["amuont"] = 1
        let refused = try await fixture.send("POST", "/operations", body: try Self.body(misspelt))
        #expect(refused.status == 400 && refused.error?["path"] as? String == "$.amuont")
        #expect(try await fixture.ledger.player("p1").balances == ["gems": 100])
    }

    @Test func aRefundAppliesOnceByItsEventIDAndAConflictIs409() async throws {
        let fixture = try LedgerHTTPFixture()
        _ = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1"))
        let refund: [String: Any] = [
            "eventID": "r-1", "store": "test", "transactionID": "t1", "kind": "fullRefund", "eventDate": "2026-02-01T00:00:00Z",
        ]
        let recorded = try await fixture.send("POST", "/revocations", body: try Self.body(refund))
        #expect(recorded.status == 200 && recorded.outcomeName == "recorded", "\(String(decoding: recorded.body, as: UTF8.self))")
        #expect(try await fixture.ledger.player("p1").balances["gems", default: 0] == 0, "\(String(decoding: recorded.body, as: UTF8.self))")
        #expect(try await fixture.send("POST", "/revocations", body: try Self.body(refund)).outcomeName == "alreadyRecorded")
        var other = refund
        other["transactionID"] = "t2"
        let conflict = try await fixture.send("POST", "/revocations", body: try Self.body(other))
        #expect(conflict.status == 409)
        #expect(try conflict.object()["reason"] as? String == "conflictEvent")
        #expect(try await fixture.ledger.player("p1").balances["gems", default: 0] == 0, "taken back once")
    }

    @Test func aDateOutOfRangeIsRefusedNotCarriedIntoTheNextHour() async throws {
        let fixture = try LedgerHTTPFixture()
        _ = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1"))
        for date in ["2026-02-01T12:99:00Z", "2026-02-30T00:00:00Z", "2026-02-01T00:00:00"] {
            let refund: [String: Any] = [
                "eventID": "r-\(date)", "store": "test", "transactionID": "t1", "kind": "fullRefund", "eventDate": date,
            ]
            let refused = try await fixture.send("POST", "/revocations", body: try Self.body(refund))
            #expect(refused.status == 400 && refused.errorCode == "input.invalid", "\(date)")
            #expect(refused.error?["path"] as? String == "$.eventDate", "\(date)")
        }
        #expect(try await fixture.ledger.player("p1").balances["gems", default: 0] == 100, "nothing taken back")
        let at = try await fixture.send("GET", "/players/p1/subscriptions?at=2026-02-01T25:00:00Z")
        #expect(at.status == 400 && at.errorCode == "http.invalidQuery")
    }

    @Test func historyPagesAndResetAndSubscriptions() async throws {
        let fixture = try LedgerHTTPFixture()
        for id in ["t1", "t2", "t3"] {
            _ = try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase(id))
        }
        let first = try await fixture.send("GET", "/players/p1/history?limit=2")
        #expect(first.status == 200)
        let page = try first.object()
        #expect((page["events"] as? [Any])?.count == 2 && page["hasMore"] as? Bool == true)
        let next = try #require(page["next"] as? Int)
        let rest = try await fixture.send("GET", "/players/p1/history?after=\(next)&limit=1000").object()
        #expect((rest["events"] as? [Any])?.count == 1 && rest["hasMore"] as? Bool == false)
        #expect(try await fixture.send("GET", "/players/p1/history?limit=0").errorCode == "argument.invalid")

        let reset = try await fixture.send("POST", "/players/p1/reset")
        #expect(reset.status == 200)
        #expect(try reset.object()["reset"] as? String == "p1")
        let afterReset = try await fixture.ledger.player("p1").balances
        #expect(afterReset["gems", default: 0] == 0, "\(afterReset)")
        #expect(try await fixture.send("POST", "/purchases", json: LedgerHTTPFixture.testPurchase("t1")).outcomeName == "alreadyFulfilled")

        let subscriptions = try await fixture.send("GET", "/players/p1/subscriptions")
        #expect(subscriptions.status == 200)
        #expect(try (subscriptions.object()["subscriptions"] as? [Any])?.isEmpty == true)
        #expect(try await fixture.send("GET", "/players/p1/subscriptions?at=yesterday").errorCode == "http.invalidQuery")
        #expect(try await fixture.send("GET", "/players/p1/reset").status == 405)
    }

    @Test func everyGameRouteNeedsTheBearerToken() async throws {
        let fixture = try LedgerHTTPFixture(bearerToken: "s3cret")
        let routes: [(String, String)] = [
            ("POST", "/operations"), ("POST", "/revocations"), ("GET", "/players/p1/eligibility?product=gems_small"),
            ("GET", "/players/p1/subscriptions"), ("GET", "/players/p1/history"), ("POST", "/players/p1/reset"),
        ]
        for (method, target) in routes {
            let refused = try await fixture.send(method, target)
            #expect(refused.status == 401 && refused.errorCode == "http.unauthorized", "\(method) \(target)")
        }
    }

    /// RFC 9110: HEAD is GET without the body (a POST route answers 405), and the
    /// authentication scheme is case-insensitive, so "bearer" works as "Bearer" does.
    @Test func headIsAGetAndTheBearerSchemeIgnoresCase() async throws {
        let fixture = try LedgerHTTPFixture(bearerToken: "s3cret")
        for scheme in ["Bearer", "bearer", "BEARER"] {
            let read = try await fixture.send("HEAD", "/players/p1", headers: [("Authorization", "\(scheme) s3cret")])
            #expect(read.status == 200, "\(scheme)")
        }
        let post = try await fixture.send("HEAD", "/purchases", headers: [("Authorization", "Bearer s3cret")])
        #expect(post.status == 405 && post.header("Allow") == "POST")
        #expect(try await fixture.send("GET", "/players/p1", headers: [("Authorization", "Basic s3cret")]).status == 401)
    }

    /// A restore reconciles the store's list once: missing purchases granted, a repeat grants
    /// nothing, an authoritative list revokes a non-consumable it lacks; a bad element is refused
    /// with its path in the list, and nothing changes.
    @Test func aRestoreGrantsWhatIsMissingOnceAndAnAuthoritativeListRevokes() async throws {
        let fixture = try LedgerHTTPFixture()
        let list: [String: Any] = [
            "store": "test",
            "purchases": [
                ["transactionID": "r1", "productID": "test.gems_small"],
                ["transactionID": "r2", "productID": "test.remove_ads", "playerID": "p1"],
            ],
        ]
        let restored = try await fixture.send("POST", "/players/p1/restore", body: try Self.body(list))
        #expect(restored.status == 200, "\(String(decoding: restored.body, as: UTF8.self))")
        let outcomes = try #require(try restored.object()["outcomes"] as? [[String: Any]])
        #expect(outcomes.compactMap { ($0["outcome"] as? [String: Any])?["outcome"] as? String } == ["granted", "granted"])
        let again = try await fixture.send("POST", "/players/p1/restore", body: try Self.body(list)).object()
        #expect((again["outcomes"] as? [[String: Any]])?.compactMap { ($0["outcome"] as? [String: Any])?["outcome"] as? String }
            == ["alreadyFulfilled", "alreadyFulfilled"])
        #expect(try await fixture.ledger.player("p1").balances["gems"] == 100)

        fixture.clock.advance(seconds: 60)
        let complete: [String: Any] = ["store": "test", "purchases": [] as [Any], "authoritative": true]
        let revoked = try await fixture.send("POST", "/players/p1/restore", body: try Self.body(complete)).object()
        #expect((revoked["revoked"] as? [[String: Any]])?.map { $0["transactionID"] as? String } == ["r2"])

        let refusals: [([String: Any], String)] = [
            (["store": "test", "purchases": [["transactionID": "r3", "productID": "test.gems_small", "quantyty": 2]]],
             "$.purchases[0].quantyty"),
            (["store": "test", "purchases": [["transactionID": "r3", "productID": "test.gems_small", "playerID": "p2"]]],
             "$.purchases[0].playerID"),
            (["store": "test", "purchases": [] as [Any], "complete": true], "$.complete"),
            (["purchases": [] as [Any]], "$.store"),
        ]
        for (body, path) in refusals {
            let refused = try await fixture.send("POST", "/players/p1/restore", body: try Self.body(body))
            #expect(refused.status == 400 && refused.error?["path"] as? String == path, "\(String(decoding: refused.body, as: UTF8.self))")
        }
        #expect(try await fixture.ledger.player("p1").balances["gems"] == 100, "nothing changed")
    }
}
