import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerConsole
import LedgerHTTP

/// A console over an in-memory ledger holding the support runbook's seven cases, and a way to
/// send it requests as a browser would: with the session cookie, `Host` and `Origin`.
struct ConsoleFixture {
    static let token = "operator-token-for-tests-0001"
    static let host = "127.0.0.1:8080"
    static let catalogPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ProductCatalog.json").path

    let ledger: Ledger
    let console: LedgerConsole
    let testStore: TestStore
    let cases: [SupportCaseFixture.Case]

    init() async throws {
        let clock = ManualClock(start: Date())
        let testStore = TestStore(clock: clock)
        let faults = ScriptedFaultInjector()
        let ledger = try Ledger(
            catalog: try CatalogLoader.load(path: Self.catalogPath), store: InMemoryLedgerStore(),
            verifier: testStore.verifier, finisher: testStore, source: testStore, clock: clock, faults: faults,
            configuration: .sandbox)
        cases = try await SupportCaseFixture.write(into: ledger, testStore: testStore, faults: faults).cases
        self.ledger = ledger
        self.testStore = testStore
        console = LedgerConsole(ledger: ledger, operatorToken: Self.token)
    }

    /// A response's body as text.
    static func text(_ response: LedgerHTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// Sends one request; a form is encoded as a browser posts it.
    func send(
        _ method: String, _ target: String, cookie: String? = nil, form: [(String, String)]? = nil,
        origin: String? = "http://\(ConsoleFixture.host)", extraHeaders: [(name: String, value: String)] = []
    ) async -> LedgerHTTPResponse {
        var headers: [(name: String, value: String)] = [("Host", Self.host)]
        if let cookie { headers.append(("Cookie", "other=1; ledger_console=\(cookie)")) }
        var body = Data()
        if let form {
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
            if let origin { headers.append(("Origin", origin)) }
            let encoded = form.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
            body = Data(encoded.utf8)
        }
        return await console.handle(LedgerHTTPRequest(method: method, target: target, headers: headers + extraHeaders, body: body))
    }

    /// Signs in; returns the session cookie's value.
    func signIn() async throws -> String {
        let response = await send("POST", "/console/login", form: [("token", Self.token)])
        guard response.status == 303, let cookie = response.header("Set-Cookie"),
            let value = cookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last
        else { throw ConsoleFixtureError.signInFailed(response.status) }
        return String(value)
    }

    /// The anti-forgery token of a page.
    static func csrfToken(_ page: LedgerHTTPResponse) -> String? {
        let text = text(page)
        guard let range = text.range(of: "name=\"csrf\" value=\"") else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    /// The console path of a player's page.
    static func playerPath(_ playerID: String) -> String {
        "/console/players/" + (playerID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }
}

enum ConsoleFixtureError: Error { case signInFailed(Int) }
