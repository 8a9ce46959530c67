import Foundation
import FulfillmentLedger
import LedgerHTTP

/// The console's responses, each with the headers that keep its pages to themselves: a
/// Content-Security-Policy allowing only the console's own stylesheet and script, no framing,
/// no sniffing, no referrer to other sites and no caching of what support staff saw.
enum ConsoleResponse {
    /// The policy: nothing from elsewhere, no inline script, forms only to the console.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// Headers on every console response. The referrer policy is `same-origin`, not
    /// `no-referrer`: under `no-referrer` a browser sends `Origin: null` on the console's own form
    /// posts, which `ConsoleForm.isSameOrigin` then refuses as another origin.
    static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"), ("Referrer-Policy", "same-origin"), ("Cache-Control", "no-store"),
    ]

    /// A page: `body` inside the console's layout.
    static func page(
        _ status: Int, _ body: (title: String, html: String), signedIn: Bool = true, csrfToken: String? = nil,
        headers: [(name: String, value: String)] = []
    ) -> LedgerHTTPResponse {
        let html = ConsoleHTML.page(title: body.title, body: body.html, signedIn: signedIn, csrfToken: csrfToken)
        return LedgerHTTPResponse(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8")] + securityHeaders + headers,
            body: Data(html.utf8))
    }

    /// A page written with `page(_:_:…)` when signed in.
    static func page(_ status: Int, _ body: (title: String, html: String), csrfToken: String) -> LedgerHTTPResponse {
        page(status, body, signedIn: true, csrfToken: csrfToken)
    }

    /// A static file of the console.
    static func asset(_ text: String, contentType: String) -> LedgerHTTPResponse {
        LedgerHTTPResponse(
            status: 200, headers: [("Content-Type", contentType), ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-cache")],
            body: Data(text.utf8))
    }

    /// 303 to `location` (Post/Redirect/Get), optionally setting a cookie.
    static func redirect(_ location: String, cookie: String? = nil) -> LedgerHTTPResponse {
        var headers: [(name: String, value: String)] = [("Location", location)] + securityHeaders
        if let cookie { headers.append(("Set-Cookie", cookie)) }
        return LedgerHTTPResponse(status: 303, headers: headers)
    }

    /// 403 with the reason.
    static func forbidden(_ reason: String) -> LedgerHTTPResponse {
        page(403, ("Refused", "<h1>Refused</h1><p id=\"error\">\(ConsoleHTML.escape(reason))</p>"), signedIn: false)
    }

    /// 404 for a console path that names nothing.
    static func notFound(_ csrfToken: String) -> LedgerHTTPResponse {
        page(404, ("Not found", "<h1>Not found</h1><p id=\"not-found\">The console has no such page.</p>"), csrfToken: csrfToken)
    }

    /// 405: the console's pages take GET, its actions POST.
    static func methodNotAllowed() -> LedgerHTTPResponse {
        LedgerHTTPResponse(
            status: 405, headers: [("Allow", "GET, POST"), ("Content-Type", "text/plain; charset=utf-8")] + securityHeaders,
            body: Data("the console's pages take GET and its actions POST\n".utf8))
    }

    /// A page for a ledger failure (the store could not be read): the error's code and message.
    static func failure(_ error: LedgerError, csrfToken: String) -> LedgerHTTPResponse {
        let body = LedgerErrorBody(error)
        return page(
            500,
            ("Error", "<h1>The ledger could not answer</h1><p id=\"error\"><code>\(ConsoleHTML.escape(body.error.name))</code> \(ConsoleHTML.escape(body.error.message))</p>"),
            csrfToken: csrfToken)
    }
}
