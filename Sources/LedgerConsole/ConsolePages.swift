/// The console's small fixed pages: sign-in and the search page.
enum ConsolePages {
    /// The sign-in form, with the reason the last attempt failed.
    static func signIn(error: String?) -> (title: String, html: String) {
        let message = error.map { "<p id=\"error\" class=\"error\">\(ConsoleHTML.escape($0))</p>" } ?? ""
        return (
            "Sign in",
            """
            <h1>Sign in</h1>\(message)
            <form id="login" method="post" action="/console/login">
            <label for="token">Operator token</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required>
            <button id="login-submit" type="submit">Sign in</button></form>
            <p class="hint">The operator token is the one <code>ledger serve --console-token-env</code> names, not the game's bearer token.</p>
            """
        )
    }

    /// The search page, shown after sign-in.
    static func home(flash: String?) -> (title: String, html: String) {
        (
            "Search",
            """
            \(flashHTML(flash))<h1>Find a purchase or a player</h1>
            <p>Search by a player ID, or by any ID of a purchase: a transaction ID, an App Store
            <code>originalTransactionId</code> or <code>webOrderLineItemId</code>, a Google Play purchase
            token or order ID (<code>GPA.…</code>, from the player's receipt email).</p>
            """
        )
    }

    /// The result of the last action, once.
    static func flashHTML(_ flash: String?) -> String {
        flash.map { "<p id=\"flash\" role=\"status\">\(ConsoleHTML.escape($0))</p>" } ?? ""
    }
}
