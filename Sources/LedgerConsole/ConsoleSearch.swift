import Foundation
import FulfillmentLedger
import LedgerHTTP

/// `GET /console/search?q=ID`: the player ID, if a player has it, and everything the ledger
/// holds under it as a store ID (`Ledger.lookup`), in words and in order.
struct ConsoleSearch {
    let ledger: Ledger

    /// Longest search text read, in bytes: the ledger's longest ID (a Play purchase token).
    static let queryByteCountMax = 4_096

    func answer(_ request: LedgerHTTPRequest, csrfToken: String) async -> LedgerHTTPResponse {
        let items = request.queryItems
        guard items.count == 1, items[0].name == "q" else {
            return ConsoleResponse.page(200, ConsolePages.home(flash: nil), csrfToken: csrfToken)
        }
        let query = items[0].value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty, query.utf8.count <= Self.queryByteCountMax,
            !query.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            return ConsoleResponse.page(
                400,
                ("Search", "<h1>Search</h1><p id=\"error\">Search by an ID of 1 to \(Self.queryByteCountMax) bytes, without control characters.</p>"),
                csrfToken: csrfToken)
        }
        do throws(LedgerError) {
            let isPlayer = try await ledger.isKnownPlayer(query)
            let report = try await ledger.lookup(query)
            return ConsoleResponse.page(200, ("Search: \(query)", Self.html(query, isPlayer: isPlayer, report)), csrfToken: csrfToken)
        } catch {
            return ConsoleResponse.failure(error, csrfToken: csrfToken)
        }
    }

    /// The results: a player link, the lookup's steps, its records and attempts.
    static func html(_ query: String, isPlayer: Bool, _ report: LookupReport) -> String {
        var html = "<h1>Search: <span id=\"query\">\(ConsoleHTML.escape(query))</span></h1><div id=\"results\">"
        guard isPlayer || report.found else {
            return html + """
                <p id="nothing-found">Nothing in the ledger has this ID: no player, purchase, attempt or refund.
                Check the ID with the player (a Play order ID starts with <code>GPA.</code>); a purchase the
                game server never submitted is not here.</p></div>
                """
        }
        if isPlayer { html += "<p class=\"player-match\">A player has this ID: \(ConsoleHTML.playerLink(query))</p>" }
        if report.found {
            let players = report.playerIDs.map(ConsoleHTML.playerLink).joined(separator: ", ")
            html += "<h2>What happened under this ID</h2><p class=\"players\">Players: \(players)</p><ol id=\"lookup-steps\">"
            for step in report.steps {
                html += "<li class=\"step\" data-source=\"\(step.source.rawValue)\">\(ConsoleHTML.time(step.at)) "
                html += "<span class=\"kind\">\(ConsoleHTML.escape(step.kind))</span> "
                html += "\(ConsoleHTML.escape(step.playerID)): \(ConsoleHTML.escape(step.text))</li>"
            }
            html += "</ol><h2>Purchases</h2>"
            html += ConsolePlayerPage.purchaseTable(id: "lookup-records", report.records, pending: report.pendingFinishes)
            html += "<h2>Attempts that granted nothing</h2>"
            html += ConsolePlayerPage.attemptTable(id: "lookup-attempts", report.attempts)
        }
        return html + "</div>"
    }
}
