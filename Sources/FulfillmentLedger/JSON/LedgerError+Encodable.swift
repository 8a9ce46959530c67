/// A `LedgerError` in JSON: `{"code": 1007, "codeName": "ledger.storage", "message": "…"}`.
/// The code and its name are stable (Docs/ErrorCodes.md); the message is for people.
extension LedgerError: Encodable {
    /// Encodes the stable code, its name and the message.
    public func encode(to encoder: any Encoder) throws {
        try LedgerErrorBody(self).encode(to: encoder)
    }
}

/// The JSON body of a `LedgerError`, for a client that reads one back: the error itself keeps
/// engine details a client cannot rebuild, so it decodes into this.
public struct LedgerErrorBody: Hashable, Sendable, Codable {
    /// The stable numeric code (Docs/ErrorCodes.md).
    public var code: Int
    /// The stable code name, such as `ledger.storage`.
    public var codeName: String
    /// A human-readable description.
    public var message: String

    /// The body of `error`.
    public init(_ error: LedgerError) {
        self.init(code: error.code, codeName: error.codeName, message: error.description)
    }

    /// Creates a body.
    public init(code: Int, codeName: String, message: String) {
        self.code = code
        self.codeName = codeName
        self.message = message
    }
}
