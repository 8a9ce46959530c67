import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTPClient
import SteamAdapter
import SteamSimulator
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `SteamWebAPIClient` on the wire: the interface, method versions, form and query fields, the
/// envelope, Steam's failures as values, retries (never for InitTxn) and typed errors.
@Suite struct SteamWebAPIClientTests {
    /// A transport answering every request with one canned response, recording what it was sent.
    final class Canned: HTTPTransport, Sendable {
        let response: Mutex<HTTPResponse>
        let sent = Mutex<[URLRequest]>([])

        init(status: Int = 200, _ body: String) { response = Mutex(HTTPResponse(statusCode: status, body: Data(body.utf8))) }

        func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse {
            sent.withLock { $0.append(request) }
            return response.withLock { $0 }
        }
    }

    static let noSleep: HTTPRetrySleep = { _ in }

    static func client(_ transport: any HTTPTransport, sandbox: Bool = false) throws -> SteamWebAPIClient {
        try #require(
            SteamWebAPIClient(
                key: "KEY", appID: 480, sandbox: sandbox, transport: transport, retryPolicy: HTTPRetryPolicy(retryCountMax: 2),
                sleep: noSleep))
    }

    @Test func initTxnPostsEveryLineAsSteamsIndexedFormFields() async throws {
        let canned = Canned(#"{"response":{"result":"OK","params":{"orderid":"42","transid":"9000000001"}}}"#)
        let request = SteamOrderRequest(
            orderID: 42, steamID: 76_561_197_960_287_930, language: "en", currency: "USD",
            lines: [.init(itemID: 1001, quantity: 3, amount: 297, description: "Pouch of Gems & more", category: "gems")])
        let answer = try await Self.client(canned).initTxn(request)
        #expect(answer == .ok(SteamStartedTransaction(orderID: 42, transactionID: 9_000_000_001, steamURL: nil)))
        let sent = try #require(canned.sent.withLock { $0.first })
        #expect(sent.httpMethod == "POST" && sent.url?.absoluteString == "https://partner.steam-api.com/ISteamMicroTxn/InitTxn/v3/")
        let body = String(decoding: sent.httpBody ?? Data(), as: UTF8.self)
        for field in [
            "key=KEY", "appid=480", "orderid=42", "steamid=76561197960287930", "itemcount=1", "language=en", "currency=USD",
            "usersession=client", "itemid%5B0%5D=1001", "qty%5B0%5D=3", "amount%5B0%5D=297",
            "description%5B0%5D=Pouch%20of%20Gems%20%26%20more", "category%5B0%5D=gems",
        ] {
            #expect(body.contains(field), "\(field) in \(body)")
        }
    }

    @Test func theSandboxInterfaceAndTheQueryTxnQuery() async throws {
        let canned = Canned(
            #"{"response":{"result":"OK","params":{"orderid":"42","transid":"9000000001","steamid":"76561197960287930","status":"Succeeded","currency":"USD","time":"2026-11-30T10:00:00Z","country":"US","usstate":"WA","items":[{"itemid":1001,"qty":3,"amount":297,"vat":0,"itemstatus":"Succeeded"}]}}}"#)
        guard case .ok(let order) = try await Self.client(canned, sandbox: true).queryTxn(orderID: 42) else {
            Issue.record("not OK")
            return
        }
        #expect(order.status == .succeeded && order.items == [SteamOrderItem(itemID: 1001, quantity: 3, amount: 297, vat: 0, status: .succeeded)])
        #expect(order.time == Date(timeIntervalSince1970: 1_796_032_800))
        let url = try #require(canned.sent.withLock { $0.first?.url })
        #expect(url.absoluteString.hasPrefix("https://partner.steam-api.com/ISteamMicroTxnSandbox/QueryTxn/v3/?"))
        #expect(url.query == "key=KEY&appid=480&orderid=42")
    }

    @Test func steamsFailureIsAValueAndHTTPFailuresAreTypedErrors() async throws {
        let refused = Canned(#"{"response":{"result":"Failure","error":{"errorcode":100,"errordesc":"Insufficient funds"}}}"#)
        #expect(try await Self.client(refused).finalizeTxn(orderID: 42) == .failure(SteamFailure(code: 100, detail: "Insufficient funds")))
        let cases: [(Canned, Int)] = [
            (Canned(status: 403, "Forbidden"), 11101), (Canned(status: 400, "Bad Request"), 11102),
            (Canned(status: 503, "busy"), 11103), (Canned("not json"), 11105),
            (Canned(#"{"response":{"result":"Maybe"}}"#), 11105),
            (Canned(#"{"response":{"result":"OK","params":{"orderid":"43","transid":"1"}}}"#), 11105),
        ]
        for (canned, code) in cases {
            let client = try Self.client(canned)
            do throws(SteamAPIError) {
                _ = try await client.finalizeTxn(orderID: 42)
                Issue.record("no error for \(code)")
            } catch {
                #expect(error.code == code)
                #expect(error.isRetryable == (code == 11103))
            }
        }
    }

    @Test func initTxnIsSentOnceAndTheOtherCallsAreRetried() async throws {
        let busy = Canned(status: 503, "busy")
        let client = try Self.client(busy)
        await #expect(throws: SteamAPIError.self) {
            _ = try await client.initTxn(SteamOrderRequest(orderID: 1, steamID: 2, language: "en", currency: "USD", lines: [.init(itemID: 1, quantity: 1, amount: 1, description: "x")]))
        }
        #expect(busy.sent.withLock { $0.count } == 1, "a lost InitTxn is abandoned, never sent again")
        await #expect(throws: SteamAPIError.self) { _ = try await client.queryTxn(orderID: 1) }
        #expect(busy.sent.withLock { $0.count } == 4, "QueryTxn: the first try and two retries")
    }

    @Test func getReportAsksForGameSalesFromATimeInWholeSeconds() async throws {
        let canned = Canned(#"{"response":{"result":"OK","params":{"count":0,"orders":[]}}}"#)
        let answer = try await Self.client(canned).report(since: Date(timeIntervalSince1970: 1_796_032_800.75), maxResults: 500)
        #expect(answer == .ok([]))
        let url = try #require(canned.sent.withLock { $0.first?.url })
        #expect(url.absoluteString.hasPrefix("https://partner.steam-api.com/ISteamMicroTxn/GetReport/v5/?"))
        #expect(url.query == "key=KEY&appid=480&type=GAMESALES&time=2026-11-30T10%3A00%3A00Z&maxresults=500")
        await #expect(throws: SteamAPIError.self) { _ = try await Self.client(canned).report(since: Date(), maxResults: 50_001) }
        #expect(canned.sent.withLock { $0.count } == 1, "an out-of-range maxresults is not sent")
    }

    @Test func aClientNeedsAKeyAndAnAppID() {
        #expect(SteamWebAPIClient(key: "", appID: 480, sandbox: true) == nil)
        #expect(SteamWebAPIClient(key: "has space", appID: 480, sandbox: true) == nil)
        #expect(SteamWebAPIClient(key: "KEY", appID: 0, sandbox: true) == nil)
    }

    @Test func theSimulatorRefusesAWrongKeyAndAnswersOnItsOwnInterface() async throws {
        let steam = SteamSimulator(sandbox: true)
        let wrongKey = try #require(SteamWebAPIClient(key: "WRONG", appID: steam.appID, sandbox: true, transport: steam, sleep: Self.noSleep))
        await #expect(throws: SteamAPIError.unauthorized(statusCode: 403, detail: "no message")) { _ = try await wrongKey.queryTxn(orderID: 1) }
        let live = try #require(SteamWebAPIClient(key: steam.key, appID: steam.appID, sandbox: false, transport: steam, sleep: Self.noSleep))
        await #expect(throws: SteamAPIError.self) { _ = try await live.queryTxn(orderID: 1) }
    }
}
