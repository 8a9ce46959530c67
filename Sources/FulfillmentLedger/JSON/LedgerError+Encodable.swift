/// A `LedgerError` in JSON: the members of the one error body (`LedgerErrorBody.Detail`),
/// `{"code": 1007, "name": "ledger.storage", "message": "…", "retryable": true,
/// "outcomeUnknown": false}`. The code and its name are stable (Docs/ErrorCodes.md); the message
/// is for people. A client reads one back as `LedgerErrorBody.Detail`.
extension LedgerError: Encodable {
    /// Encodes the stable code, its name, the message and what a retry may do.
    public func encode(to encoder: any Encoder) throws {
        try LedgerErrorBody(self).error.encode(to: encoder)
    }
}
