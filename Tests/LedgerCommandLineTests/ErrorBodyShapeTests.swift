import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerCommandLine
import LedgerHTTP
import Testing

/// Every error a client can meet has one JSON shape, whichever edge answers it: the `ledger`
/// commands, the HTTP handlers and the HTTP server's own refusals all print
/// `{"error": {"code", "name", "message", "retryable", "outcomeUnknown", …}}` (`LedgerErrorBody`).
@Suite struct ErrorBodyShapeTests {
    /// The members the body's `error` may have beyond the five every body has.
    static let optionalMembers: Set = ["retryAfter", "detailCode", "path", "line", "column", "problems"]

    /// Expects `text` to be exactly one error body; returns its `error`.
    @discardableResult
    static func expectOneShape(_ text: String, _ origin: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: Any]
    {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(origin): not JSON: \(text)",
            sourceLocation: sourceLocation)
        // A command's body also carries the CLI's format version (Docs/Output.md); an HTTP body does not.
        #expect(Set(object.keys).subtracting([LedgerOutputFormat.versionKey]) == ["error"], "\(origin): \(text)", sourceLocation: sourceLocation)
        let error = try #require(object["error"] as? [String: Any], "\(origin): \(text)", sourceLocation: sourceLocation)
        #expect(error["code"] is Int && error["name"] is String && error["message"] is String, "\(origin)", sourceLocation: sourceLocation)
        #expect(error["retryable"] is Bool && error["outcomeUnknown"] is Bool, "\(origin): \(text)", sourceLocation: sourceLocation)
        let extra = Set(error.keys).subtracting(["code", "name", "message", "retryable", "outcomeUnknown"])
        #expect(extra.isSubset(of: optionalMembers), "\(origin): unexpected \(extra.sorted())", sourceLocation: sourceLocation)
        return error
    }

    @Test func everyCommandErrorHasTheOneShape() async throws {
        let scratch = try ScratchDirectory()
        let missing = await ledger(["doctor", "--db", scratch.path("missing.sqlite"), "--json"])
        #expect(try Self.expectOneShape(missing.output, "doctor on a missing ledger")["name"] as? String == "ledger.missing")

        let misspelt = await ledger(
            ["fulfill", "--db", scratch.path("a.sqlite"), "--catalog", repoCatalogPath],
            input: #"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1","quantyty":2}"#)
        let input = try Self.expectOneShape(misspelt.output, "fulfill with a misspelt field")
        #expect(input["name"] as? String == "input.invalid" && input["path"] as? String == "$.quantyty")

        let broken = try scratch.write(#"{"schemaVersion": 1, "currencies": [], "products": [{}]}"#, to: "broken.json")
        let catalog = await ledger(
            ["fulfill", "--db", scratch.path("b.sqlite"), "--catalog", broken],
            input: #"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1"}"#)
        let invalid = try Self.expectOneShape(catalog.output, "fulfill with an invalid catalog")
        #expect(invalid["name"] as? String == "catalog.invalid" && (invalid["problems"] as? [Any])?.isEmpty == false)

        let (_, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
        let unsigned = try scratch.write("not.a.jws", to: "bad.jws")
        let verify = await ledger(
            ["appstore", "verify", "--root", root, "--bundle-id", "b", "--environment", "Sandbox", unsigned])
        #expect(try (Self.expectOneShape(verify.output, "appstore verify")["name"] as? String)?.hasPrefix("appStore.") == true)

        let nul = await ledger(
            ["fulfill", "--db", scratch.path("c.sqlite"), "--catalog", repoCatalogPath],
            input: #"{"transactionID":"t1","productID":"test.gems_small","playerID":"victim\u0000x"}"#)
        #expect(try Self.expectOneShape(nul.output, "fulfill for a NUL player ID")["name"] as? String == "argument.invalid")
    }

    @Test func everyHTTPErrorHasTheOneShape() async throws {
        let testStore = TestStore()
        let ledger = try Ledger(
            catalog: try CatalogLoader.load(path: repoCatalogPath), store: InMemoryLedgerStore(), verifier: testStore.verifier,
            finisher: testStore, configuration: .sandbox)
        let handler = LedgerHTTPHandler(ledger: ledger, bearerToken: "secret", bodyByteCountMax: 100)
        let token = [(name: "Authorization", value: "Bearer secret")]
        let purchase = Data(#"{"store":"test","transactionID":"t1","productID":"test.gems_small","playerID":"p1"}"#.utf8)
        testStore.failNext(.verify)
        let requests: [(String, LedgerHTTPRequest, String)] = [
            ("404", LedgerHTTPRequest(method: "GET", target: "/nowhere", headers: [], body: Data()), "http.notFound"),
            ("405", LedgerHTTPRequest(method: "GET", target: "/purchases", headers: [], body: Data()), "http.methodNotAllowed"),
            ("401", LedgerHTTPRequest(method: "GET", target: "/players/p1", headers: [], body: Data()), "http.unauthorized"),
            ("413", LedgerHTTPRequest(method: "POST", target: "/purchases", headers: token, body: Data(repeating: 32, count: 101)), "http.bodyTooLarge"),
            ("400 query", LedgerHTTPRequest(method: "GET", target: "/changes?from=1", headers: token, body: Data()), "http.invalidQuery"),
            ("400 body", LedgerHTTPRequest(method: "POST", target: "/purchases", headers: token, body: Data("{}".utf8)), "input.invalid"),
            ("503", LedgerHTTPRequest(method: "POST", target: "/purchases", headers: token, body: purchase), "port.verifierUnavailable"),
        ]
        for (origin, request, name) in requests {
            let response = await handler.handle(request)
            let error = try Self.expectOneShape(String(decoding: response.body, as: UTF8.self), "HTTP \(origin)")
            #expect(error["name"] as? String == name, "HTTP \(origin)")
        }
    }

    @Test func theServersOwnRefusalHasTheOneShape() async throws {
        let scratch = try ScratchDirectory()
        let served = try ServeCommandTests.Served(db: scratch.path("ledger.sqlite"))
        let refused = try ServeCommandTests.tool(
            "curl", ["-s", "-H", "Expect: nothing-please", "--data-binary", "{}", "http://127.0.0.1:\(served.port)/purchases"])
        let error = try Self.expectOneShape(refused, "the server's 417")
        #expect(error["name"] as? String == "http.expectationFailed" && error["code"] as? Int == 9103)
        #expect(served.terminate().status == 0)
    }
}
