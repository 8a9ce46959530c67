import Foundation
import FulfillmentLedger

/// The body of every answer that is not an outcome: `{"error": "<stable code>", "message": …}`,
/// with `code`, the numeric code, for a thrown `LedgerError`. The string codes are listed in
/// Docs/Integration.md ("Status codes") and never change.
public struct LedgerHTTPErrorBody: Error, Hashable, Sendable, Codable {
    /// The stable code: a `LedgerError.codeName` (`ledger.storage`) or one of the handler's own
    /// (`http.notFound`, `http.methodNotAllowed`, `http.unauthorized`, `http.bodyTooLarge`,
    /// `http.invalidBody`, `http.unavailable`).
    public var error: String
    /// The numeric code of a `LedgerError`; nil for the handler's own codes.
    public var code: Int?
    /// A human-readable description.
    public var message: String

    /// Creates a body.
    public init(error: String, code: Int? = nil, message: String) {
        self.error = error
        self.code = code
        self.message = message
    }

    /// The body of a thrown ledger error.
    public init(_ error: LedgerError) {
        self.init(error: error.codeName, code: error.code, message: error.description)
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

    /// The answer to a thrown ledger error: its status and body, and `Retry-After` on a 503.
    static func failure(_ error: LedgerError) -> LedgerHTTPResponse {
        let status = LedgerHTTPStatus.error(error)
        return LedgerHTTPErrorBody(error).response(status, headers: status == 503 ? [("Retry-After", "1")] : [])
    }
}
