import Foundation

/// One HTTP response from a handler: the status, header fields and the whole body. A server
/// adapter writes it out and adds only framing (`Content-Length`, `Connection`).
public struct LedgerHTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields in order.
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `text` as UTF-8, with `Content-Type` `contentType`.
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8")
        -> LedgerHTTPResponse
    {
        LedgerHTTPResponse(status: status, headers: [("Content-Type", contentType)], body: Data(text.utf8))
    }

    /// The first value of the header `name`, compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Responses are equal when status, headers (in order) and body are.
    public static func == (lhs: LedgerHTTPResponse, rhs: LedgerHTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Hashes status, headers and body.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        for field in headers {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
        hasher.combine(body)
    }
}
