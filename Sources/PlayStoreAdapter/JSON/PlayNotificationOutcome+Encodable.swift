import FulfillmentLedger

/// A `PlayNotificationOutcome` in JSON, one object whose `outcome` names the case:
///
/// - `unauthenticated`: `error` (`reason`, `code`, `detail`) and `httpStatus` (401 or 403);
/// - `rejected`: `error` (`reason`, `code`, `detail`);
/// - `alreadyProcessed`, `unresolved`, `unconfirmed`, `logged`: `notification` (the record);
/// - `fulfillment`: `fulfillment` (a `FulfillmentOutcome`);
/// - `revocation`: `revocation` (a `RevocationOutcome`) and `refundCheck` when one was made;
/// - `subscription`: `period` (a `FulfillmentOutcome`) when a paid period was fulfilled, `note`,
///   `subscription` (the chain) and `update` (`applied`, `stale`, `unchanged`, `unknownChain`);
/// - `refundReview`: `review` (a `PlayRefundReviewOutcome`) and `notification` (the record).
extension PlayNotificationOutcome: Encodable {
    /// The case's name, as `outcome` in JSON.
    public var name: String {
        switch self {
        case .unauthenticated: "unauthenticated"
        case .rejected: "rejected"
        case .alreadyProcessed: "alreadyProcessed"
        case .fulfillment: "fulfillment"
        case .unresolved: "unresolved"
        case .revocation: "revocation"
        case .subscription: "subscription"
        case .unconfirmed: "unconfirmed"
        case .logged: "logged"
        case .refundReview: "refundReview"
        }
    }

    /// Encodes the object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .unauthenticated(let failure):
            try container.encode(
                PlayErrorJSON(reason: failure.reason.rawValue, code: failure.reason.code, detail: failure.detail),
                forKey: "error")
            try container.encode(failure.httpStatus, forKey: "httpStatus")
        case .rejected(let rejection):
            try container.encode(
                PlayErrorJSON(reason: rejection.reason.rawValue, code: rejection.reason.code, detail: rejection.detail),
                forKey: "error")
        case .alreadyProcessed(let record), .unresolved(let record), .unconfirmed(let record), .logged(let record):
            try container.encode(record, forKey: "notification")
        case .fulfillment(let outcome):
            try container.encode(outcome, forKey: "fulfillment")
        case .revocation(let outcome, let check):
            try container.encode(outcome, forKey: "revocation")
            try container.encodeIfPresent(check, forKey: "refundCheck")
        case .subscription(let effect):
            try effect.encodeFields(into: &container)
        case .refundReview(let review, let record):
            try container.encode(review, forKey: "review")
            try container.encode(record, forKey: "notification")
        }
    }
}

/// A `PlayRefundCheck` in JSON: `{"state": "agrees", "refundedQuantity": 1}`,
/// `{"state": "ledgerBehind" | "ledgerAhead", "ledgerRefunded", "googleRefunded"}` or
/// `{"state": "unavailable", "detail"}`.
extension PlayRefundCheck: Encodable {
    /// Encodes the state and its figures.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        switch self {
        case .agrees(let refunded):
            try container.encode("agrees", forKey: "state")
            try container.encode(refunded, forKey: "refundedQuantity")
        case .ledgerBehind(let ledger, let google), .ledgerAhead(let ledger, let google):
            if case .ledgerBehind = self {
                try container.encode("ledgerBehind", forKey: "state")
            } else {
                try container.encode("ledgerAhead", forKey: "state")
            }
            try container.encode(ledger, forKey: "ledgerRefunded")
            try container.encode(google, forKey: "googleRefunded")
        case .unavailable(let detail):
            try container.encode("unavailable", forKey: "state")
            try container.encode(detail, forKey: "detail")
        }
    }
}

/// A refusal's reason, stable code and detail.
struct PlayErrorJSON: Encodable {
    let reason: String
    let code: Int
    let detail: String
}
