import Foundation
import LedgerHTTP

/// An answer the server gives itself, never reaching the handler: a status, a stable error
/// code and a short message, sent as `{"error":"<code>","message":"<message>"}` before the
/// connection is closed.
struct HTTPRejection: Error, Hashable {
    /// The status code.
    let status: Int
    /// The stable code clients may match on.
    let code: String
    /// What was wrong, for people.
    let message: String

    /// 400: the request breaks HTTP/1.1 syntax or framing rules.
    static func malformed(_ message: String) -> HTTPRejection {
        HTTPRejection(status: 400, code: "malformed_request", message: message)
    }

    /// 408: the request did not arrive whole within the read timeout.
    static let timeout = HTTPRejection(
        status: 408, code: "request_timeout", message: "the request did not arrive within the read timeout")

    /// 413: the body is larger than `limit` bytes.
    static func bodyTooLarge(limit: Int) -> HTTPRejection {
        HTTPRejection(status: 413, code: "body_too_large", message: "the request body exceeds \(limit) bytes")
    }

    /// 417: an `Expect` other than `100-continue`.
    static let expectationFailed = HTTPRejection(
        status: 417, code: "expectation_failed", message: "only Expect: 100-continue is supported")

    /// 431: the head, or its field count, or the chunked trailers, pass their limit.
    static func headerTooLarge(_ message: String) -> HTTPRejection {
        HTTPRejection(status: 431, code: "header_too_large", message: message)
    }

    /// 501: a transfer coding other than `chunked` alone.
    static let unsupportedTransferCoding = HTTPRejection(
        status: 501, code: "unsupported_transfer_coding", message: "only Transfer-Encoding: chunked is supported")

    /// 505: a well-formed version other than HTTP/1.0 and HTTP/1.1.
    static let versionNotSupported = HTTPRejection(
        status: 505, code: "http_version_not_supported", message: "only HTTP/1.0 and HTTP/1.1 are supported")

    /// 503: the server is at its connection limit.
    static let busy = HTTPRejection(
        status: 503, code: "server_busy", message: "the server is at its connection limit; retry later")

    /// The answer as a response, its body the JSON object.
    var response: LedgerHTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(["error": code, "message": message])) ?? Data()
        return LedgerHTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
    }
}
