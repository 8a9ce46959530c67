import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SteamAdapter
import Testing

/// Values out of Steam's ranges, refused at the edge with a reason, nothing sent or granted.
@Suite struct SteamHostileInputTests {
    static func decodeOrder(_ json: String) -> SteamOrder? { try? JSONDecoder().decode(SteamOrder.self, from: Data(json.utf8)) }
    static let base = #"{"orderid":"42","transid":"9","steamid":"76561197960287930","status":"Succeeded","time":"2026-11-30T10:00:00Z","items":[ITEMS]}"#
    static func order(items: String, orderID: String = #""42""#) -> String {
        base.replacingOccurrences(of: "ITEMS", with: items).replacingOccurrences(of: #""orderid":"42""#, with: #""orderid":\#(orderID)"#)
    }

    @Test(arguments: [
        #"{"itemid":4294967296,"qty":1,"amount":1}"#, #"{"itemid":-1,"qty":1,"amount":1}"#, #"{"itemid":"01","qty":1,"amount":1}"#,
        #"{"itemid":1,"qty":-3,"amount":1}"#, #"{"itemid":1.5,"qty":1,"amount":1}"#, #"{"qty":1,"amount":1}"#,
    ])
    func anItemOutOfRangeIsNotAnOrder(item: String) {
        #expect(Self.decodeOrder(Self.order(items: item)) == nil, "\(item)")
    }

    @Test(arguments: [#""18446744073709551616""#, #""-1""#, #"" 42""#, #""042""#, #""""#, "null", #""4e2""#])
    func anOrderIDOutOfRangeIsNotAnOrder(orderID: String) {
        #expect(Self.decodeOrder(Self.order(items: #"{"itemid":1,"qty":1,"amount":1}"#, orderID: orderID)) == nil, "\(orderID)")
    }

    @Test func sixtyFourBitNumbersReadAsStringsOrNumbers() throws {
        let order = try #require(Self.decodeOrder(Self.order(items: #"{"itemid":"1001","qty":"2","amount":198}"#, orderID: "18446744073709551615")))
        #expect(order.orderID == UInt64.max && order.items.first?.itemID == 1001 && order.items.first?.quantity == 2)
        #expect(Self.decodeOrder(Self.base.replacingOccurrences(of: "2026-11-30T10:00:00Z", with: "yesterday").replacingOccurrences(of: "ITEMS", with: "")) == nil)
    }

    @Test(arguments: ["42", "42/", "/1001", "0/1001", "42/0", "42/4294967296", "42/1001/1", "042/1001", "42/+1", "x/y", "42:1001"])
    func aKeyThatIsNotOrderSlashItemIsRefused(key: String) {
        #expect(SteamOrderVerifier.parse(key) == nil, "\(key)")
    }

    @Test func theVerifierRefusesWhatSteamDoesNotConfirm() {
        let verifier = SteamOrderVerifier(api: UnreachableSteam(), environment: .sandbox)
        let twice = SteamOrder(
            orderID: 42, transactionID: 9, steamID: 7, status: .succeeded, time: Date(timeIntervalSince1970: 1_796_000_000),
            items: [SteamOrderItem(itemID: 1, quantity: 1, amount: 1), SteamOrderItem(itemID: 1, quantity: 2, amount: 2)])
        guard case .invalid(let reason) = verifier.facts(twice, itemID: 1) else {
            Issue.record("an item listed twice was verified")
            return
        }
        #expect(reason.contains("twice"))
        var huge = twice
        huge.items = [SteamOrderItem(itemID: 1, quantity: 40_000, amount: 1)]
        guard case .invalid = verifier.facts(huge, itemID: 1) else {
            Issue.record("a quantity over 16 bits was verified")
            return
        }
        #expect(SteamOrderVerifier.state(.approved) == .pending && SteamOrderVerifier.state(.initialized) == .pending)
        #expect(SteamOrderVerifier.state(.failed) == .cancelled && SteamOrderVerifier.state(.chargedback) == .purchased)
        #expect(SteamOrderVerifier.state("Frozen") == PurchaseState(rawValue: "steamStatus:Frozen"))
    }

    @Test func aRequestSteamWouldRefuseIsNeverSent() async throws {
        let good = SteamOrderRequest(orderID: 1, steamID: 2, language: "en", currency: "USD", lines: [.init(itemID: 1001, quantity: 1, amount: 99, description: "Gems")])
        #expect(good.validate() == nil)
        var cases: [(String, SteamOrderRequest)] = []
        func with(_ name: String, _ change: (inout SteamOrderRequest) -> Void) {
            var request = good
            change(&request)
            cases.append((name, request))
        }
        with("order 0") { $0.orderID = 0 }
        with("steam 0") { $0.steamID = 0 }
        with("language") { $0.language = "english" }
        with("currency") { $0.currency = "usd" }
        with("web without IP") { $0.userSession = .web }
        with("no lines") { $0.lines = [] }
        with("too many lines") { request in request.lines = (1...101).map { .init(itemID: UInt32($0), quantity: 1, amount: 1, description: "x") } }
        with("item 0") { $0.lines[0].itemID = 0 }
        with("quantity 0") { $0.lines[0].quantity = 0 }
        with("quantity over 16 bits") { $0.lines[0].quantity = 32_768 }
        with("negative amount") { $0.lines[0].amount = -1 }
        with("empty description") { $0.lines[0].description = "" }
        with("long description") { $0.lines[0].description = String(repeating: "é", count: 129) }
        with("long category") { $0.lines[0].category = String(repeating: "c", count: 65) }
        with("item twice") { $0.lines.append($0.lines[0]) }
        let setup = try SteamTestSetup()
        for (name, request) in cases {
            #expect(request.validate() != nil, "\(name)")
            await #expect(throws: LedgerError.self, "\(name)") { _ = try await setup.processor.start(request) }
        }
        // An item the catalog does not map: refused before Steam is asked.
        var unmapped = good
        unmapped.lines[0].itemID = 999
        await #expect(throws: LedgerError.self) { _ = try await setup.processor.start(unmapped) }
        #expect(setup.steam.requests.isEmpty, "nothing was sent to Steam")
        await #expect(throws: LedgerError.self) { _ = try await setup.processor.authorize(orderID: 0, authorized: true) }
    }
}

/// A Steam no test should reach.
struct UnreachableSteam: SteamMicroTxnAPI {
    func initTxn(_ request: SteamOrderRequest) async throws(SteamAPIError) -> SteamAnswer<SteamStartedTransaction> { throw .transport("unreachable") }
    func finalizeTxn(orderID: UInt64) async throws(SteamAPIError) -> SteamAnswer<UInt64> { throw .transport("unreachable") }
    func queryTxn(orderID: UInt64) async throws(SteamAPIError) -> SteamAnswer<SteamOrder> { throw .transport("unreachable") }
    func report(since: Date, maxResults: Int) async throws(SteamAPIError) -> SteamAnswer<[SteamOrder]> { throw .transport("unreachable") }
}
