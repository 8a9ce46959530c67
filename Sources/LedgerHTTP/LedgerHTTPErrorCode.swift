import Foundation
import FulfillmentLedger

/// The HTTP edge's own errors, each with its stable code and name (Docs/ErrorCodes.md, "HTTP
/// errors"), answered in the one error body every edge shares (`LedgerErrorBody`). The handler
/// answers the 900x codes; `LedgerHTTPServer` answers the 910x codes itself, before a request
/// reaches a handler.
public enum LedgerHTTPErrorCode: Int, CaseIterable, Hashable, Sendable {
    /// 404: no route, or a route this server is not configured for.
    case notFound = 9001
    /// 405: the route takes another method (`Allow` names it).
    case methodNotAllowed = 9002
    /// 401: the bearer token is missing or wrong.
    case unauthorized = 9003
    /// 413: the body is larger than the limit.
    case bodyTooLarge = 9004
    /// 400: a query parameter is unknown or not a whole number.
    case invalidQuery = 9006
    /// 400: the request breaks HTTP/1.1 syntax or framing rules.
    case malformedRequest = 9101
    /// 408: the request did not arrive whole within the read timeout.
    case requestTimeout = 9102
    /// 417: an `Expect` other than `100-continue`.
    case expectationFailed = 9103
    /// 431: the head, its field count or the chunked trailers pass their limit.
    case headerTooLarge = 9104
    /// 501: a transfer coding other than `chunked` alone.
    case unsupportedTransferCoding = 9105
    /// 505: a well-formed version other than HTTP/1.0 and HTTP/1.1.
    case versionNotSupported = 9106
    /// 503: the server is at its connection limit; `Retry-After` says when to try again.
    case serverBusy = 9107

    /// The stable name, such as `http.notFound`.
    public var name: String {
        switch self {
        case .notFound: "http.notFound"
        case .methodNotAllowed: "http.methodNotAllowed"
        case .unauthorized: "http.unauthorized"
        case .bodyTooLarge: "http.bodyTooLarge"
        case .invalidQuery: "http.invalidQuery"
        case .malformedRequest: "http.malformedRequest"
        case .requestTimeout: "http.requestTimeout"
        case .expectationFailed: "http.expectationFailed"
        case .headerTooLarge: "http.headerTooLarge"
        case .unsupportedTransferCoding: "http.unsupportedTransferCoding"
        case .versionNotSupported: "http.versionNotSupported"
        case .serverBusy: "http.serverBusy"
        }
    }

    /// The status it is answered with.
    public var status: Int {
        switch self {
        case .notFound: 404
        case .methodNotAllowed: 405
        case .unauthorized: 401
        case .bodyTooLarge: 413
        case .invalidQuery, .malformedRequest: 400
        case .requestTimeout: 408
        case .expectationFailed: 417
        case .headerTooLarge: 431
        case .unsupportedTransferCoding: 501
        case .versionNotSupported: 505
        case .serverBusy: 503
        }
    }

    /// Whether the same request sent again may succeed: a timed-out request, a busy server.
    public var isRetryable: Bool { self == .requestTimeout || self == .serverBusy }
}

extension LedgerErrorBody {
    /// The body of one of the HTTP edge's own errors.
    public init(_ code: LedgerHTTPErrorCode, _ message: String) {
        self.init(code: code.rawValue, name: code.name, message: message, retryable: code.isRetryable)
    }

    /// The response carrying this body with `status`.
    func response(_ status: Int, headers: [(name: String, value: String)] = []) -> LedgerHTTPResponse {
        LedgerHTTPResponse.json(status, self, headers: headers)
    }
}

extension LedgerHTTPResponse {
    /// A response whose body is `value` in the ledger's JSON form.
    static func json<T: Encodable>(_ status: Int, _ value: T, headers: [(name: String, value: String)] = [])
        -> LedgerHTTPResponse
    {
        LedgerHTTPResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers, body: LedgerJSON.encode(value))
    }

    /// The answer to one of the HTTP edge's own errors: its status and body, and `Retry-After: 1`
    /// when it is retryable.
    public static func error(
        _ code: LedgerHTTPErrorCode, _ message: String, headers: [(name: String, value: String)] = []
    ) -> LedgerHTTPResponse {
        LedgerErrorBody(code, message).response(
            code.status, headers: headers + (code.isRetryable ? [("Retry-After", "1")] : []))
    }

    /// The answer to an input document the strict decoding path refused: 400 and its problems.
    static func invalidInput(_ body: LedgerErrorBody) -> LedgerHTTPResponse { body.response(400) }

    /// The answer to a thrown ledger error: its status and body, and `Retry-After` on a 503.
    static func failure(_ error: LedgerError) -> LedgerHTTPResponse {
        let status = LedgerHTTPStatus.error(error)
        return LedgerErrorBody(error).response(status, headers: status == 503 ? [("Retry-After", "1")] : [])
    }
}
