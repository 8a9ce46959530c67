import Foundation
import LedgerHTTP

/// An answer the server gives itself, never reaching the handler: one of the HTTP edge's own
/// errors (`LedgerHTTPErrorCode`, 9101–9107) in the one error body every edge shares, sent
/// before the connection is closed.
package struct HTTPRejection: Error, Hashable {
    /// The stable code clients may match on; it sets the status.
    package let code: LedgerHTTPErrorCode
    /// What was wrong, for people.
    package let message: String

    /// The status code.
    package var status: Int { code.status }

    /// 400: the request breaks HTTP/1.1 syntax or framing rules.
    static func malformed(_ message: String) -> HTTPRejection {
        HTTPRejection(code: .malformedRequest, message: message)
    }

    /// 408: the request did not arrive whole within the read timeout.
    static let timeout = HTTPRejection(code: .requestTimeout, message: "the request did not arrive within the read timeout")

    /// 413: the body is larger than `limit` bytes.
    static func bodyTooLarge(limit: Int) -> HTTPRejection {
        HTTPRejection(code: .bodyTooLarge, message: "the request body exceeds \(limit) bytes")
    }

    /// 417: an `Expect` other than `100-continue`.
    static let expectationFailed = HTTPRejection(code: .expectationFailed, message: "only Expect: 100-continue is supported")

    /// 431: the head, or its field count, or the chunked trailers, pass their limit.
    static func headerTooLarge(_ message: String) -> HTTPRejection {
        HTTPRejection(code: .headerTooLarge, message: message)
    }

    /// 501: a transfer coding other than `chunked` alone.
    static let unsupportedTransferCoding = HTTPRejection(
        code: .unsupportedTransferCoding, message: "only Transfer-Encoding: chunked is supported")

    /// 505: a well-formed version other than HTTP/1.0 and HTTP/1.1.
    static let versionNotSupported = HTTPRejection(
        code: .versionNotSupported, message: "only HTTP/1.0 and HTTP/1.1 are supported")

    /// 503: the server is at its connection limit (with `Retry-After`).
    static let busy = HTTPRejection(code: .serverBusy, message: "the server is at its connection limit; retry later")

    /// The answer as a response, its body the one error body.
    var response: LedgerHTTPResponse { LedgerHTTPResponse.error(code, message) }
}
