import Foundation
import FulfillmentLedger
import LedgerHTTP
import Testing

@testable import LedgerConsole

/// What the console shows for each of the runbook's seven cases, and its one action.
@Suite struct ConsolePageTests {
    @Test func eachOfTheSevenCasesIsFoundBySearchAndOnItsPlayersPageWithItsReason() async throws {
        let fixture = try await ConsoleFixture()
        let cookie = try await fixture.signIn()
        #expect(fixture.cases.count == 7)
        for supportCase in fixture.cases {
            let search = await fixture.send("GET", "/console/search?q=\(supportCase.transactionID)", cookie: cookie)
            #expect(search.status == 200, "\(supportCase.name)")
            let results = ConsoleFixture.text(search)
            #expect(results.contains("id=\"lookup-steps\""), "\(supportCase.name)")
            #expect(results.contains(supportCase.expected), "\(supportCase.name)")
            #expect(results.contains(ConsoleHTML.playerPath(supportCase.playerID)), "\(supportCase.name)")
            let page = await fixture.send("GET", ConsoleFixture.playerPath(supportCase.playerID), cookie: cookie)
            #expect(page.status == 200, "\(supportCase.name)")
            let html = ConsoleFixture.text(page)
            #expect(html.contains(supportCase.expected), "\(supportCase.name)")
            #expect(html.contains("<h1 id=\"player-id\">\(supportCase.playerID)</h1>"))
        }
        let pages = await fixture.send("GET", ConsoleFixture.playerPath(fixture.cases[0].playerID), cookie: cookie)
        #expect(ConsoleFixture.text(pages).contains("class=\"pending-finish\" data-key=\"test:\(fixture.cases[0].transactionID)\""))
        let refunded = ConsoleFixture.text(await fixture.send("GET", ConsoleFixture.playerPath(fixture.cases[4].playerID), cookie: cookie))
        #expect(refunded.contains("<tr class=\"refund\">"))
        #expect(refunded.contains("customer support refund"))
    }

    @Test func retryFinishTellsTheStoreAndChangesNoBalance() async throws {
        let fixture = try await ConsoleFixture()
        let cookie = try await fixture.signIn()
        let unfinished = fixture.cases[0]
        let before = try await fixture.ledger.player(unfinished.playerID)
        let path = ConsoleFixture.playerPath(unfinished.playerID)
        let csrf = try #require(ConsoleFixture.csrfToken(await fixture.send("GET", path, cookie: cookie)))
        let posted = await fixture.send(
            "POST", path + "/retry-finish", cookie: cookie, form: [("csrf", csrf), ("key", "test:\(unfinished.transactionID)")])
        #expect(posted.status == 303 && posted.header("Location") == ConsoleHTML.playerPath(unfinished.playerID))
        #expect(fixture.testStore.isFinished(unfinished.transactionID))
        let page = ConsoleFixture.text(await fixture.send("GET", path, cookie: cookie))
        #expect(page.contains("<p id=\"flash\" role=\"status\">finished test/\(unfinished.transactionID)"))
        #expect(page.contains("<td class=\"status\">finished "))
        #expect(page.contains("nothing owed: every purchase was finished"))
        #expect(page.contains("finished when an operator retried the finish"))
        // The flash shows once.
        #expect(!ConsoleFixture.text(await fixture.send("GET", path, cookie: cookie)).contains("id=\"flash\""))
        let after = try await fixture.ledger.player(unfinished.playerID)
        #expect(after.balances == before.balances && after.inventory == before.inventory && after.entitlements == before.entitlements)
        // Again: already finished, nothing sent.
        _ = await fixture.send("POST", path + "/retry-finish", cookie: cookie, form: [("csrf", csrf), ("key", "test:\(unfinished.transactionID)")])
        #expect(fixture.testStore.finishCallCount(unfinished.transactionID) == 2)
        #expect(ConsoleFixture.text(await fixture.send("GET", path, cookie: cookie)).contains("already finished"))
    }

    @Test func aRetryOnAnotherPlayersPageDoesNotActOnThePurchase() async throws {
        let fixture = try await ConsoleFixture()
        let cookie = try await fixture.signIn()
        let unfinished = fixture.cases[0]
        let otherPath = ConsoleFixture.playerPath(fixture.cases[4].playerID)
        let csrf = try #require(ConsoleFixture.csrfToken(await fixture.send("GET", otherPath, cookie: cookie)))
        let posted = await fixture.send(
            "POST", otherPath + "/retry-finish", cookie: cookie, form: [("csrf", csrf), ("key", "test:\(unfinished.transactionID)")])
        #expect(posted.status == 303)
        #expect(!fixture.testStore.isFinished(unfinished.transactionID))
        #expect(ConsoleFixture.text(await fixture.send("GET", otherPath, cookie: cookie)).contains("not found:"))
    }

    @Test func theBalanceChartDrawsEachChangeWithWhatItWas() async throws {
        let fixture = try await ConsoleFixture()
        let cookie = try await fixture.signIn()
        let refunded = ConsoleFixture.text(await fixture.send("GET", ConsoleFixture.playerPath(fixture.cases[4].playerID), cookie: cookie))
        #expect(refunded.contains("<figure id=\"balance-chart\"><svg"))
        #expect(refunded.contains("data-currency=\"gems\""))
        // The grant, the refund and now: three dots, each saying what it was.
        #expect(refunded.components(separatedBy: "<circle").count == 4)
        #expect(refunded.contains("<title>gems 100 after purchase test/\(fixture.cases[4].transactionID)"))
        #expect(refunded.contains("<title>gems 0 after refund refund-\(fixture.cases[4].transactionID)"))
        // A player whose balances never moved has no chart, and says so.
        let rejected = ConsoleFixture.text(await fixture.send("GET", ConsoleFixture.playerPath(fixture.cases[1].playerID), cookie: cookie))
        #expect(rejected.contains("No currency balance has changed."))
    }

    @Test func theChartShowsDebtBelowAZeroLineAndEscapesWhatItNames() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let history = BalanceHistory(
            currencies: [
                "gems": [
                    .init(at: start, balance: 100, cause: "purchase test/<b>"),
                    .init(at: start.addingTimeInterval(60), balance: -50, cause: "refund r1"),
                ],
                "<coins>": [.init(at: start, balance: 5, cause: "grant op-1")],
            ], isComplete: false)
        let html = ConsoleBalanceChart.html(history)
        #expect(html.contains("class=\"zero\""))
        #expect(html.contains("&lt;coins&gt;") && !html.contains("<coins>") && !html.contains("<b>"))
        #expect(html.contains("Older changes are not drawn"))
    }

    @Test func unknownPlayersAndUnknownIDsSaySo() async throws {
        let fixture = try await ConsoleFixture()
        let cookie = try await fixture.signIn()
        let unknown = await fixture.send("GET", ConsoleFixture.playerPath("nobody-here"), cookie: cookie)
        #expect(unknown.status == 404 && ConsoleFixture.text(unknown).contains("id=\"not-found\""))
        let nothing = await fixture.send("GET", "/console/search?q=GPA.0000-0000", cookie: cookie)
        #expect(nothing.status == 200 && ConsoleFixture.text(nothing).contains("id=\"nothing-found\""))
        let tooLong = await fixture.send("GET", "/console/search?q=" + String(repeating: "x", count: 4_097), cookie: cookie)
        #expect(tooLong.status == 400)
        #expect(await fixture.send("GET", "/console/nowhere", cookie: cookie).status == 404)
        #expect(await fixture.send("DELETE", "/console", cookie: cookie).status == 405)
        // A player found by name also links to the page.
        let byName = ConsoleFixture.text(await fixture.send("GET", "/console/search?q=case-refunded", cookie: cookie))
        #expect(byName.contains("class=\"player-match\""))
    }

    @Test func consolePathsAreTheConsolesAlone() {
        #expect(LedgerConsole.handles(LedgerHTTPRequest(method: "GET", target: "/console")))
        #expect(LedgerConsole.handles(LedgerHTTPRequest(method: "GET", target: "/console/players/p?x=1")))
        #expect(!LedgerConsole.handles(LedgerHTTPRequest(method: "GET", target: "/consoles")))
        #expect(!LedgerConsole.handles(LedgerHTTPRequest(method: "GET", target: "/players/p")))
    }
}
