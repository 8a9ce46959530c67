import FulfillmentLedger

/// What `SteamOrderProcessor` did with one order. Steam's refusals and a player the game does
/// not know are values; only infrastructure failures throw.
public enum SteamOrderOutcome: Sendable, Hashable {
    /// InitTxn created the order; the player now authorises it in the overlay (or at
    /// `steamURL`). Each item's pipeline outcome is the pending attempt the ledger recorded.
    case started(SteamStartedTransaction, outcomes: [FulfillmentOutcome])
    /// Steam refused InitTxn or FinalizeTxn (no funds, not approved, too late): nothing was charged
    /// by this call. After a refused FinalizeTxn, `outcomes` records each item as Steam now holds it.
    case refused(SteamFailure, outcomes: [FulfillmentOutcome])
    /// The order's items went through the pipeline as Steam holds the order now: granted once it
    /// is charged (`Succeeded`), else recorded as pending or cancelled.
    case submitted(orderID: UInt64, status: SteamOrderStatus, outcomes: [FulfillmentOutcome])
    /// Steam's buyer is no player the game knows (`playerResolver` gave none): nothing granted.
    case unassigned(orderID: UInt64, steamID: UInt64)

    /// The case's name, as `outcome` in JSON.
    public var name: String {
        switch self {
        case .started: "started"
        case .refused: "refused"
        case .submitted: "submitted"
        case .unassigned: "unassigned"
        }
    }

    /// Each item's pipeline outcome, in the order's order.
    public var outcomes: [FulfillmentOutcome] {
        switch self {
        case .started(_, let outcomes), .refused(_, let outcomes), .submitted(_, _, let outcomes): outcomes
        case .unassigned: []
        }
    }
}

extension SteamOrderOutcome: Encodable {
    /// `{"outcome": name, …}`: `transaction` (`orderID`, `transactionID`, `steamURL`) when started,
    /// `error` (`code`, `message`) when refused, `orderID` and `status` when submitted,
    /// `orderID` and `steamID` when unassigned, and `fulfillments`, one per item.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .started(let started, _):
            try container.encode(String(started.orderID), forKey: "orderID")
            try container.encode(String(started.transactionID), forKey: "transactionID")
            try container.encodeIfPresent(started.steamURL, forKey: "steamURL")
        case .refused(let failure, _):
            try container.encode(FailureJSON(code: failure.code, message: failure.detail), forKey: "error")
        case .submitted(let orderID, let status, _):
            try container.encode(String(orderID), forKey: "orderID")
            try container.encode(status, forKey: "status")
        case .unassigned(let orderID, let steamID):
            try container.encode(String(orderID), forKey: "orderID")
            try container.encode(String(steamID), forKey: "steamID")
        }
        try container.encode(outcomes, forKey: "fulfillments")
    }
}

/// Steam's failure as JSON.
private struct FailureJSON: Encodable {
    var code: Int
    var message: String
}
