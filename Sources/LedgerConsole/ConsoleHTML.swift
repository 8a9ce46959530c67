import Foundation

/// Builds the console's HTML: every value shown passes through `escape`, since player IDs,
/// store IDs and reasons are chosen by whoever sent the purchase.
enum ConsoleHTML {
    /// `text` safe in element content and in a quoted attribute value: `& < > " '` become
    /// character references, so nothing in it can open a tag, end an attribute or start a
    /// script.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// `text` as one path segment or query value: every byte but the unreserved ones of RFC
    /// 3986 is percent-encoded, so a `/`, `?` or `#` in a player ID stays inside its segment.
    static func percentEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The console path of a player's page.
    static func playerPath(_ playerID: String) -> String { "/console/players/\(percentEncode(playerID))" }

    /// A link to a player's page, with class `player-link`.
    static func playerLink(_ playerID: String) -> String {
        "<a class=\"player-link\" href=\"\(escape(playerPath(playerID)))\">\(escape(playerID))</a>"
    }

    /// A time as ISO 8601 UTC text inside `<time>`, which the page's script titles in local time.
    static func time(_ date: Date) -> String {
        let text = date.formatted(.iso8601)
        return "<time datetime=\"\(text)\">\(text)</time>"
    }

    /// A table: its id, header cells, and rows already rendered (`<tr…>…</tr>`); an empty one
    /// says so in a row of its own.
    static func table(id: String, header: [String], rows: [String], empty: String) -> String {
        var html = "<table id=\"\(id)\"><thead><tr>"
        for name in header { html += "<th>\(escape(name))</th>" }
        html += "</tr></thead><tbody>"
        if rows.isEmpty {
            html += "<tr class=\"empty\"><td colspan=\"\(header.count)\">\(escape(empty))</td></tr>"
        } else {
            html += rows.joined()
        }
        return html + "</tbody></table>"
    }

    /// A table cell holding `text`, escaped, with an optional class.
    static func cell(_ text: String, class name: String? = nil) -> String {
        let attribute = name.map { " class=\"\($0)\"" } ?? ""
        return "<td\(attribute)>\(escape(text))</td>"
    }

    /// A whole page: the shared head (stylesheet and script from the console itself), a header
    /// with the search form when `signedIn`, and `body`.
    static func page(title: String, body: String, signedIn: Bool, csrfToken: String? = nil) -> String {
        var header = "<header><a class=\"home\" href=\"/console\">Ledger console</a>"
        if signedIn {
            header += """
                <form id="search" method="get" action="/console/search">\
                <input id="q" name="q" type="search" placeholder="player ID or any store ID" required maxlength="4096">\
                <button id="search-submit" type="submit">Search</button></form>
                """
            if let csrfToken {
                header += """
                    <form id="logout" method="post" action="/console/logout">\
                    <input type="hidden" name="csrf" value="\(escape(csrfToken))">\
                    <button type="submit">Sign out</button></form>
                    """
            }
        }
        header += "</header>"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title)) · ledger console</title>
            <link rel="stylesheet" href="/console/console.css">
            <script src="/console/console.js" defer></script>
            </head><body>\(header)<main>\(body)</main></body></html>
            """
    }
}
