/// A `FulfillmentOutcome` in JSON, one flat object whose `outcome` names the case:
///
/// - `granted` / `alreadyFulfilled`: `record` (the ledger record), `granted` (what this call
///   granted: the record's grants, or `[]` for a duplicate), `finished`, `finishError` (when
///   the finish was tried and failed) and `finishInProgressElsewhere`;
/// - `rejected`: `reason` (a `RejectionReason` raw value), `reasonCode` and `message`.
extension FulfillmentOutcome: Codable {
    /// Encodes the flat form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(name, forKey: "outcome")
        switch self {
        case .granted(let receipt), .alreadyFulfilled(let receipt):
            if case .granted = self {
                try container.encode(receipt.record.grants, forKey: "granted")
            } else {
                try container.encode([GrantLine](), forKey: "granted")
            }
            try receipt.encode(to: encoder)
        case .rejected(let rejection):
            try rejection.encodeFlat(into: &container)
        }
    }

    /// Decodes the flat form; an unknown `outcome` is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LedgerJSONKey.self)
        let outcome = try container.decode(String.self, forKey: "outcome")
        switch outcome {
        case "granted": self = .granted(try FulfillmentReceipt(from: decoder))
        case "alreadyFulfilled": self = .alreadyFulfilled(try FulfillmentReceipt(from: decoder))
        case "rejected": self = .rejected(try Rejection(flatFrom: container))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: "outcome", in: container, debugDescription: "unknown fulfillment outcome \(outcome)")
        }
    }
}

/// A receipt's fields, written into the outcome's own object.
extension FulfillmentReceipt: Codable {
    /// Encodes `record`, `finished`, `finishError` and `finishInProgressElsewhere`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(record, forKey: "record")
        try container.encode(finished, forKey: "finished")
        try container.encodeIfPresent(finishError, forKey: "finishError")
        try container.encode(finishInProgressElsewhere, forKey: "finishInProgressElsewhere")
    }

    /// Decodes the fields; a finish left to another call that also has a result is refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: LedgerJSONKey.self)
        let record = try container.decode(TransactionRecord.self, forKey: "record")
        let finished = try container.decode(Bool.self, forKey: "finished")
        let finishError = try container.decodeIfPresent(String.self, forKey: "finishError")
        let elsewhere = try container.decodeIfPresent(Bool.self, forKey: "finishInProgressElsewhere") ?? false
        guard !(elsewhere && (finished || finishError != nil)) else {
            throw DecodingError.dataCorruptedError(
                forKey: "finishInProgressElsewhere", in: container,
                debugDescription: "a finish left to another call has no result here")
        }
        self.init(record: record, finished: finished, finishError: finishError, finishInProgressElsewhere: elsewhere)
    }
}

extension Rejection {
    /// Writes `reason`, `reasonCode` and `message` into an outcome's object.
    func encodeFlat(into container: inout KeyedEncodingContainer<LedgerJSONKey>) throws {
        try container.encode(reason.rawValue, forKey: "reason")
        try container.encode(reason.code, forKey: "reasonCode")
        try container.encode(message, forKey: "message")
    }

    /// Reads what `encodeFlat` wrote.
    init(flatFrom container: KeyedDecodingContainer<LedgerJSONKey>) throws {
        let name = try container.decode(String.self, forKey: "reason")
        guard let reason = RejectionReason(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: "reason", in: container, debugDescription: "unknown reason \(name)")
        }
        self.init(reason, try container.decode(String.self, forKey: "message"))
    }
}
