import Foundation

/// An `OperationOutcome` in JSON, one flat object whose `outcome` names the case:
///
/// - `applied` / `alreadyApplied`: `record` (the stored `OperationRecord`: the operation, the
///   balance after it and when it was applied);
/// - `rejected`: `reason` (an `OperationRejectionReason` raw value), `reasonCode` and `message`.
extension OperationOutcome: Encodable {
    /// `applied`, `alreadyApplied` or `rejected`.
    public var name: String {
        switch self {
        case .applied: "applied"
        case .alreadyApplied: "alreadyApplied"
        case .rejected: "rejected"
        }
    }

    /// Encodes the flat form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .applied(let record), .alreadyApplied(let record): try container.encode(record, forKey: "record")
        case .rejected(let reason, let message):
            try container.encode(reason.rawValue, forKey: "reason")
            try container.encode(reason.code, forKey: "reasonCode")
            try container.encode(message, forKey: "message")
        }
    }
}
