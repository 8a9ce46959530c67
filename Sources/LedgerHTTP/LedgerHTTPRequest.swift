import Foundation

/// One HTTP request as the handlers see it, whatever server received it: a method, a path
/// with its query, header fields and the whole body. A server adapter builds one per request;
/// the handlers never touch a socket.
public struct LedgerHTTPRequest: Sendable, Hashable {
    /// The method, upper case as sent (`GET`, `POST`).
    public var method: String
    /// The request target: the path and, after `?`, the query (`/changes?after=10`).
    public var target: String
    /// Header fields in the order received; names keep their case, look-ups ignore it.
    public var headers: [(name: String, value: String)]
    /// The body bytes (empty when there is none).
    public var body: Data

    /// Creates a request.
    public init(method: String, target: String, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The target's path, before any `?`. An absolute-form target (`http://host:8080/players/p1`,
    /// which RFC 9112 has a server accept) gives the path after its authority.
    public var path: Substring { originForm.prefix { $0 != "?" } }

    /// The target in origin form: an absolute-form target without its scheme and authority.
    var originForm: Substring {
        for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
            let afterScheme = target.dropFirst(scheme.count)
            guard let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            return afterScheme[slash...].first == "?" ? Substring("/" + afterScheme[slash...]) : afterScheme[slash...]
        }
        return Substring(target)
    }

    /// The query items after `?`, percent-decoded, in order; an item without `=` has an empty value.
    public var queryItems: [(name: String, value: String)] {
        let target = originForm
        guard let mark = target.firstIndex(of: "?") else { return [] }
        return target[target.index(after: mark)...].split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The first value of the header `name`, compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Requests are equal when method, target, headers (in order) and body are.
    public static func == (lhs: LedgerHTTPRequest, rhs: LedgerHTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Hashes method, target, headers and body.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(target)
        for field in headers {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
        hasher.combine(body)
    }
}
