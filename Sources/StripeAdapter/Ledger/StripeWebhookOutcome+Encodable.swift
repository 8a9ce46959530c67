import FulfillmentLedger

extension StripeWebhookOutcome: Encodable {
    /// The case's name, as `outcome` in JSON.
    public var name: String {
        switch self {
        case .unauthenticated: "unauthenticated"
        case .rejected: "rejected"
        case .duplicate: "duplicate"
        case .fulfilled: "fulfilled"
        case .unassigned: "unassigned"
        case .nothingToDo: "nothingToDo"
        case .revocations: "revocations"
        }
    }

    /// `{"outcome": name, …}` with the case's values: `error` (`code`, `name`, `message`) for a
    /// refusal, `message` for a rejection, `notification` for a duplicate, `sessionID` and
    /// `fulfillments` (one per line item), `type`, or `chargeID` and `revocations`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .unauthenticated(let refusal):
            try container.encode(RefusalJSON(code: refusal.code, name: refusal.name, message: refusal.description), forKey: "error")
        case .rejected(let message): try container.encode(message, forKey: "message")
        case .duplicate(let record): try container.encode(record, forKey: "notification")
        case .fulfilled(let sessionID, let outcomes):
            try container.encode(sessionID, forKey: "sessionID")
            try container.encode(outcomes, forKey: "fulfillments")
        case .unassigned(let sessionID): try container.encode(sessionID, forKey: "sessionID")
        case .nothingToDo(let type): try container.encode(type, forKey: "type")
        case .revocations(let chargeID, let outcomes):
            try container.encode(chargeID, forKey: "chargeID")
            try container.encode(outcomes, forKey: "revocations")
        }
    }
}

/// A refusal as JSON: its stable code and name, and the reason in words.
private struct RefusalJSON: Encodable {
    var code: Int
    var name: String
    var message: String
}
