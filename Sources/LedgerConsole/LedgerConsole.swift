import Foundation
import FulfillmentLedger
import LedgerHTTP

/// The operator console: small server-rendered pages under `/console` for support staff who
/// must answer "I paid and got nothing" (Docs/Support.md). Search by player or any store ID,
/// a player's timeline, and one action, "retry finish", which tells the store to finish a
/// granted purchase and changes no balance.
///
/// It sits behind an operator token of its own (never the game's bearer token): signing in
/// with it opens a session in an HttpOnly, SameSite=Strict cookie. Every form carries the
/// session's anti-forgery token and a POST from another origin is refused. Every value shown
/// is escaped, and the pages load no script but the console's own file
/// (`Content-Security-Policy: script-src 'self'`).
public struct LedgerConsole: Sendable {
    /// The ledger the pages read, and the one action acts on.
    public let ledger: Ledger
    /// The token an operator signs in with.
    let operatorToken: String
    let sessions = ConsoleSessions()

    /// The path prefix the console serves; `handles(_:)` tells which requests are its.
    public static let pathPrefix = "/console"
    /// Largest form body read, in bytes (a token, an anti-forgery token and a key).
    static let formByteCountMax = 8 * 1024
    /// Most fields a form may carry.
    static let formFieldCountMax = 8
    /// The session cookie's name.
    static let cookieName = "ledger_console"

    /// Creates the console. `operatorToken` must be at least 16 bytes: anyone holding it can
    /// read every player and retry finishes.
    public init(ledger: Ledger, operatorToken: String) {
        precondition(operatorToken.utf8.count >= Self.operatorTokenByteCountMin, "an operator token is at least 16 bytes")
        self.ledger = ledger
        self.operatorToken = operatorToken
    }

    /// Shortest operator token accepted, in bytes.
    public static let operatorTokenByteCountMin = 16

    /// Whether `request` is the console's: its path is `/console` or below it.
    public static func handles(_ request: LedgerHTTPRequest) -> Bool {
        let path = request.path
        return path == pathPrefix || path.hasPrefix(pathPrefix + "/")
    }

    /// Answers one console request.
    public func handle(_ request: LedgerHTTPRequest) async -> LedgerHTTPResponse {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).dropFirst().map(String.init)
        let method = request.method == "HEAD" ? "GET" : request.method
        switch (method, segments.first ?? "") {
        case ("GET", "console.css"): return ConsoleResponse.asset(ConsoleAssets.css, contentType: "text/css; charset=utf-8")
        case ("GET", "console.js"): return ConsoleResponse.asset(ConsoleAssets.javaScript, contentType: "text/javascript; charset=utf-8")
        case ("GET", "login"): return ConsoleResponse.page(200, ConsolePages.signIn(error: nil), signedIn: false)
        case ("POST", "login"): return signIn(request)
        default: break
        }
        guard let (sessionID, session) = currentSession(request) else {
            guard method == "GET" else { return ConsoleResponse.forbidden("sign in first") }
            return ConsoleResponse.redirect("/console/login")
        }
        let flash = sessions.takeFlash(sessionID)
        switch (method, segments.count, segments.first ?? "") {
        case ("GET", 0, _):
            return ConsoleResponse.page(200, ConsolePages.home(flash: flash), csrfToken: session.csrfToken)
        case ("GET", 1, "search"):
            return await ConsoleSearch(ledger: ledger).answer(request, csrfToken: session.csrfToken)
        case ("GET", 2, "players"):
            guard let playerID = segments[1].removingPercentEncoding else { return ConsoleResponse.notFound(session.csrfToken) }
            return await ConsolePlayerPage(ledger: ledger).answer(playerID, flash: flash, csrfToken: session.csrfToken)
        case ("POST", _, _):
            guard let form = ConsoleForm(request), form.isFromThisConsole(request, csrfToken: session.csrfToken) else {
                return ConsoleResponse.forbidden("the form did not come from this console (missing or wrong anti-forgery token, or another origin)")
            }
            return await post(segments, form: form, sessionID: sessionID)
        case ("GET", _, _):
            return ConsoleResponse.notFound(session.csrfToken)
        default:
            return ConsoleResponse.methodNotAllowed()
        }
    }

    /// The console's actions: sign out, and retry a pending finish.
    private func post(_ segments: [String], form: ConsoleForm, sessionID: String) async -> LedgerHTTPResponse {
        if segments == ["logout"] {
            sessions.close(sessionID)
            return ConsoleResponse.redirect("/console/login", cookie: "\(Self.cookieName)=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0")
        }
        guard segments.count == 3, segments[0] == "players", segments[2] == "retry-finish",
            let playerID = segments[1].removingPercentEncoding
        else {
            return ConsoleResponse.forbidden("no such action")
        }
        let message = await ConsoleFinishRetry(ledger: ledger).run(form.value("key"), playerID: playerID)
        sessions.setFlash(sessionID, message)
        return ConsoleResponse.redirect(ConsoleHTML.playerPath(playerID))
    }

    /// `POST /console/login`: the operator token, compared in constant time; a session on success.
    private func signIn(_ request: LedgerHTTPRequest) -> LedgerHTTPResponse {
        guard sessions.isSignInThrottled() == false else {
            return ConsoleResponse.page(
                429, ConsolePages.signIn(error: "too many failed sign-ins; wait a minute"), signedIn: false,
                headers: [("Retry-After", String(ConsoleSessions.signInFailureWindowSeconds))])
        }
        guard let form = ConsoleForm(request), ConsoleForm.isSameOrigin(request) else {
            return ConsoleResponse.forbidden("the sign-in form did not come from this console")
        }
        guard LedgerHTTPHandler.constantTimeEqual(Array((form.value("token") ?? "").utf8), Array(operatorToken.utf8)) else {
            sessions.recordSignInFailure()
            return ConsoleResponse.page(401, ConsolePages.signIn(error: "that is not the operator token"), signedIn: false)
        }
        let (id, _) = sessions.open()
        return ConsoleResponse.redirect(
            "/console", cookie: "\(Self.cookieName)=\(id); Path=/console; HttpOnly; SameSite=Strict; Max-Age=\(ConsoleSessions.lifetimeSeconds)")
    }

    /// The session the request's cookie names, if it is live.
    private func currentSession(_ request: LedgerHTTPRequest) -> (String, ConsoleSessions.Session)? {
        guard let cookies = request.header("Cookie") else { return nil }
        for pair in cookies.split(separator: ";").prefix(Self.formFieldCountMax * 4) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == Self.cookieName else { continue }
            let id = String(parts[1].trimmingCharacters(in: .whitespaces))
            if let session = sessions.session(id) { return (id, session) }
        }
        return nil
    }
}
