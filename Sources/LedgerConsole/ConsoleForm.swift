import Foundation
import LedgerHTTP

/// A posted `application/x-www-form-urlencoded` form, bounded, and the checks that it came
/// from a console page rather than from another site.
struct ConsoleForm {
    private let fields: [String: String]

    /// The form of `request`; nil when the body is too large, has too many fields, names one
    /// twice, or is not a form.
    init?(_ request: LedgerHTTPRequest) {
        guard request.body.count <= LedgerConsole.formByteCountMax,
            let body = String(data: request.body, encoding: .utf8),
            request.header("Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        else { return nil }
        // The body has the query's syntax; the request type decodes it the same way.
        let items = LedgerHTTPRequest(method: "POST", target: "/?" + body).queryItems
        guard items.count <= LedgerConsole.formFieldCountMax else { return nil }
        var fields: [String: String] = [:]
        for (name, value) in items {
            guard fields.updateValue(value, forKey: name) == nil else { return nil }
        }
        self.fields = fields
    }

    /// The field `name`, if posted.
    func value(_ name: String) -> String? { fields[name] }

    /// Whether the form carries the session's anti-forgery token and comes from this origin.
    func isFromThisConsole(_ request: LedgerHTTPRequest, csrfToken: String) -> Bool {
        guard Self.isSameOrigin(request), let posted = fields["csrf"] else { return false }
        return LedgerHTTPHandler.constantTimeEqual(Array(posted.utf8), Array(csrfToken.utf8))
    }

    /// Whether the browser says the request comes from this origin: `Sec-Fetch-Site`, when
    /// sent, is `same-origin` (or `none`, typed by the operator), and `Origin`, when sent, names
    /// the host the request was sent to. A browser sends at least one of them on a POST.
    static func isSameOrigin(_ request: LedgerHTTPRequest) -> Bool {
        if let site = request.header("Sec-Fetch-Site")?.lowercased(), site != "same-origin", site != "none" { return false }
        guard let origin = request.header("Origin") else { return true }
        guard let host = request.header("Host"), !host.isEmpty else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}
