import Foundation
import FulfillmentLedger
import LedgerHTTP
import Testing

@testable import LedgerConsole

/// The console's guards: the operator token, sessions, anti-forgery tokens, origins, escaping
/// and the headers that keep its pages to themselves.
@Suite struct ConsoleSecurityTests {
    @Test func signingInNeedsTheOperatorTokenAndOpensAStrictHttpOnlySession() async throws {
        let fixture = try await ConsoleFixture()
        let anonymous = await fixture.send("GET", "/console")
        #expect(anonymous.status == 303 && anonymous.header("Location") == "/console/login")
        #expect(await fixture.send("GET", "/console/players/case-refunded").status == 303)
        let wrong = await fixture.send("POST", "/console/login", form: [("token", "not-the-operator-token")])
        #expect(wrong.status == 401)
        #expect(ConsoleFixture.text(wrong).contains("id=\"error\""))
        #expect(wrong.header("Set-Cookie") == nil)
        let right = await fixture.send("POST", "/console/login", form: [("token", ConsoleFixture.token)])
        #expect(right.status == 303)
        let cookie = try #require(right.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/console"))
        let home = await fixture.send("GET", "/console", cookie: try await fixture.signIn())
        #expect(home.status == 200)
        #expect(ConsoleFixture.text(home).contains("id=\"search\""))
        #expect(home.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(home.header("X-Frame-Options") == "DENY" && home.header("Cache-Control") == "no-store")
        // A made-up session is no session.
        #expect(await fixture.send("GET", "/console", cookie: String(repeating: "a", count: 64)).status == 303)
    }

    @Test func aSignInFromAnotherSiteIsRefused() async throws {
        let fixture = try await ConsoleFixture()
        let forged = await fixture.send("POST", "/console/login", form: [("token", ConsoleFixture.token)], origin: "https://evil.example")
        #expect(forged.status == 403 && forged.header("Set-Cookie") == nil)
    }

    @Test func failedSignInsAreThrottled() async throws {
        let fixture = try await ConsoleFixture()
        for _ in 0..<ConsoleSessions.signInFailureCountMax {
            #expect(await fixture.send("POST", "/console/login", form: [("token", "guess")]).status == 401)
        }
        // Past the limit even the right token waits, so the token cannot be guessed at speed.
        let throttled = await fixture.send("POST", "/console/login", form: [("token", ConsoleFixture.token)])
        #expect(throttled.status == 429 && throttled.header("Retry-After") == "60")
    }

    @Test func aRetryWithoutTheSessionsTokenOrFromAnotherOriginIsRefusedAndChangesNothing() async throws {
        let fixture = try await ConsoleFixture()
        let cookie = try await fixture.signIn()
        let unfinished = fixture.cases[0]
        let path = ConsoleFixture.playerPath(unfinished.playerID)
        let page = await fixture.send("GET", path, cookie: cookie)
        let csrf = try #require(ConsoleFixture.csrfToken(page))
        let key = "test:\(unfinished.transactionID)"
        let refusals: [LedgerHTTPResponse] = [
            await fixture.send("POST", path + "/retry-finish", cookie: cookie, form: [("key", key)]),
            await fixture.send("POST", path + "/retry-finish", cookie: cookie, form: [("csrf", String(csrf.reversed())), ("key", key)]),
            await fixture.send(
                "POST", path + "/retry-finish", cookie: cookie, form: [("csrf", csrf), ("key", key)], origin: "http://evil.example"),
            await fixture.send(
                "POST", path + "/retry-finish", cookie: cookie, form: [("csrf", csrf), ("key", key)], origin: nil,
                extraHeaders: [("Sec-Fetch-Site", "cross-site")]),
            await fixture.send("POST", path + "/retry-finish", form: [("csrf", csrf), ("key", key)]),
            await fixture.send("POST", path + "/retry-finish", cookie: cookie, form: [("csrf", csrf), ("key", key), ("key", key)]),
        ]
        for refusal in refusals { #expect(refusal.status == 403) }
        #expect(!fixture.testStore.isFinished(unfinished.transactionID))
        let record = try #require(try await fixture.ledger.purchaseRecord(TransactionKey(store: .test, transactionID: unfinished.transactionID)))
        #expect(record.0.finishedAt == nil)
    }

    @Test func attackerChosenPlayerIDsAreShownAsText() async throws {
        let fixture = try await ConsoleFixture()
        let hostile = "<script>alert(1)</script>\"'&<img src=x onerror=alert(2)>"
        _ = try await fixture.ledger.fulfill(fixture.testStore.purchase(storeProductID: "test.gems_mega", playerID: hostile))
        let cookie = try await fixture.signIn()
        let page = await fixture.send("GET", ConsoleFixture.playerPath(hostile), cookie: cookie)
        #expect(page.status == 200)
        let html = ConsoleFixture.text(page)
        #expect(!html.contains("<script>alert") && !html.contains("<img src=x"))
        #expect(html.contains("<h1 id=\"player-id\">&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;&lt;img src=x onerror=alert(2)&gt;</h1>"))
        let search = await fixture.send("GET", "/console/search?q=" + ConsoleFixture.formEncode(hostile), cookie: cookie)
        #expect(!ConsoleFixture.text(search).contains("<script>alert"))
        #expect(ConsoleFixture.text(search).contains("class=\"player-link\""))
        // The page's only script is the console's own file, which the policy allows alone.
        #expect(html.components(separatedBy: "<script").count == 2 && html.contains("<script src=\"/console/console.js\" defer></script>"))
        let script = await fixture.send("GET", "/console/console.js")
        #expect(script.status == 200 && !ConsoleFixture.text(script).contains("innerHTML"))
    }

    @Test func escapingCoversEveryCharacterThatEndsTextOrAnAttribute() {
        #expect(ConsoleHTML.escape("a<b>c&d\"e'f") == "a&lt;b&gt;c&amp;d&quot;e&#39;f")
        #expect(ConsoleHTML.escape("plain ID 123 é") == "plain ID 123 é")
        #expect(ConsoleHTML.percentEncode("a/b?c#d e") == "a%2Fb%3Fc%23d%20e")
    }

    @Test func sessionsAreBoundedAndSigningOutEndsOne() async throws {
        let sessions = ConsoleSessions()
        let first = sessions.open()
        for _ in 0..<ConsoleSessions.sessionCountMax { _ = sessions.open() }
        #expect(sessions.session(first.id) == nil)
        let fixture = try await ConsoleFixture()
        let cookie = try await fixture.signIn()
        let home = await fixture.send("GET", "/console", cookie: cookie)
        let csrf = try #require(ConsoleFixture.csrfToken(home))
        let out = await fixture.send("POST", "/console/logout", cookie: cookie, form: [("csrf", csrf)])
        #expect(out.status == 303 && out.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(await fixture.send("GET", "/console", cookie: cookie).status == 303)
    }
}
