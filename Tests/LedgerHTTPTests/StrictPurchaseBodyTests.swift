import Foundation
import FulfillmentLedger
import LedgerHTTP
import Testing

/// `POST /purchases` reads its body through the one strict decoding path: a misspelt field, a
/// duplicate key, a trailing comma, a wrong type or a missing store is a 400 `input.invalid` with
/// the JSON path, line and column, and nothing reaches the ledger; an identifier with a control
/// character is refused by the core (400 `argument.invalid`) and lands on nobody.
@Suite struct StrictPurchaseBodyTests {
    /// A refused body, the path its error must name, and a name for the test log.
    struct Refused: Sendable, CustomTestStringConvertible {
        var name: String
        var body: String
        var path: String
        var testDescription: String { name }
    }

    static let refused: [Refused] = [
        Refused(
            name: "a misspelt quantity",
            body: #"{"store":"test","transactionID":"t1","productID":"test.gems_small","playerID":"p1","quantyty":2}"#,
            path: "$.quantyty"),
        Refused(
            name: "an unknown App Store field",
            body: #"{"store":"appStore","playerID":"p1","signedTransaction":"a.b.c","bonus":true}"#, path: "$.bonus"),
        Refused(
            name: "an unknown Play field",
            body: #"{"store":"playStore","playerID":"p1","purchaseToken":"t","storeProductID":"gems_small","orderId":"x"}"#,
            path: "$.orderId"),
        Refused(
            name: "a duplicate key",
            body: #"{"store":"test","transactionID":"t1","productID":"test.gems_small","playerID":"p1","playerID":"p2"}"#,
            path: "$"),
        Refused(
            name: "a trailing comma",
            body: #"{"store":"test","transactionID":"t1","productID":"test.gems_small","playerID":"p1",}"#, path: "$"),
        Refused(
            name: "a quantity as text",
            body: #"{"store":"playStore","playerID":"p1","purchaseToken":"t","storeProductID":"gems_small","quantity":"2"}"#,
            path: "$.quantity"),
        Refused(name: "no store", body: #"{"playerID":"p1","transactionID":"t1"}"#, path: "$.store"),
        Refused(name: "an unknown store", body: #"{"store":"epicGames","playerID":"p1"}"#, path: "$.store"),
        Refused(name: "not an object", body: #"["store","test"]"#, path: "$"),
    ]

    @Test(arguments: refused)
    func aBodyTheStrictPathRefusesIs400WithItsPathAndRecordsNothing(_ refused: Refused) async throws {
        let fixture = try LedgerHTTPFixture()
        let response = try await fixture.send("POST", "/purchases", body: Data(refused.body.utf8))
        #expect(response.status == 400)
        let error = try #require(response.error, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(error["name"] as? String == "input.invalid" && error["code"] as? Int == 3003)
        #expect(error["path"] as? String == refused.path, "\(error)")
        #expect(error["line"] as? Int == 1 && error["column"] is Int)
        #expect(error["retryable"] as? Bool == false && error["outcomeUnknown"] as? Bool == false)
        #expect((error["problems"] as? [[String: Any]])?.isEmpty == false)
        for player in ["p1", "p2"] {
            #expect(try await fixture.ledger.player(player).history.isEmpty, "nothing was recorded for \(player)")
        }
        #expect(try await fixture.ledger.changes(after: 0).changes.isEmpty)
    }

    @Test func aPlayerIDWithANULIsRefusedAndLandsOnNobody() async throws {
        let fixture = try LedgerHTTPFixture()
        let body = #"{"store":"test","transactionID":"t1","productID":"test.gems_small","playerID":"victim\u0000x"}"#
        let response = try await fixture.send("POST", "/purchases", body: Data(body.utf8))
        #expect(response.status == 400 && response.errorCode == "argument.invalid", "\(String(decoding: response.body, as: UTF8.self))")
        #expect(try await fixture.ledger.player("victim").history.isEmpty)
        #expect(try await fixture.ledger.changes(after: 0).changes.isEmpty)
    }

    @Test func theSameBodyWithoutItsMistakeIsGranted() async throws {
        let fixture = try LedgerHTTPFixture()
        let body = #"{"store":"test","transactionID":"t1","productID":"test.gems_small","playerID":"p1","quantity":2}"#
        let response = try await fixture.send("POST", "/purchases", body: Data(body.utf8))
        #expect(response.status == 200 && response.outcomeName == "granted")
        #expect(try await fixture.ledger.player("p1").balances["gems"] == 200)
    }
}
