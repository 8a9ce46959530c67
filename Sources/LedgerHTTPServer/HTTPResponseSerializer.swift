#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import LedgerHTTP

/// Writes a response as HTTP/1.1 bytes, adding the framing itself: `Content-Length` (none for
/// 204 and 304), `Connection` when it says something, and `Date` unless the handler gave one.
/// The handler's own `Content-Length`, `Transfer-Encoding` and `Connection` fields are dropped,
/// as are fields that are not a token name and a value without CR, LF or NUL.
enum HTTPResponseSerializer {
    /// The interim answer to `Expect: 100-continue`.
    static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    /// The fields only the server writes.
    private static let framingFields: Set = ["content-length", "transfer-encoding", "connection"]
    /// The reason phrases written; another status gets "Status".
    private static let reasons: [Int: String] = [
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently", 302: "Found",
        303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        415: "Unsupported Media Type", 417: "Expectation Failed", 422: "Unprocessable Content", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]

    /// The bytes of `response`; without the body when `omittingBody` (an answer to HEAD), with
    /// `Connection: <connection>` when given. A status outside 200...999 is written as 500.
    static func bytes(for response: LedgerHTTPResponse, omittingBody: Bool, connection: String?) -> [UInt8] {
        let status = (200...999).contains(response.status) ? response.status : 500
        let bodyAllowed = status != 204 && status != 304
        var head = "HTTP/1.1 \(status) \(reasons[status] ?? "Status")\r\n"
        for field in response.headers where isWritable(field) { head += "\(field.name): \(field.value)\r\n" }
        if response.header("Date") == nil { head += "Date: \(dateField())\r\n" }
        if bodyAllowed { head += "Content-Length: \(response.body.count)\r\n" }
        if let connection { head += "Connection: \(connection)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if bodyAllowed, !omittingBody { bytes.append(contentsOf: response.body) }
        return bytes
    }

    /// Whether the handler's field may be written as it is.
    private static func isWritable(_ field: (name: String, value: String)) -> Bool {
        !field.name.isEmpty && !framingFields.contains(field.name.lowercased())
            && field.name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x3A }
            && !field.value.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
    }

    /// The current time as an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func dateField() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var text = [Int8](repeating: 0, count: 64)
        let count = strftime(&text, text.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: text[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
