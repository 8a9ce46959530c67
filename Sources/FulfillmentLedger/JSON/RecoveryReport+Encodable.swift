/// A `RecoveryReport` in JSON. Transactions are `{"store", "transactionID"}` objects, sorted,
/// never joined strings:
///
/// `{"clean": true, "finished": [key], "inFlightElsewhere": [key],
///   "stillPending": [{key…, "error": "…"}], "resubmitted": [{key…, "outcome": {FulfillmentOutcome}}],
///   "errors": [{key…, "error": {LedgerError}}], "sourceError": {LedgerError}?}`
extension RecoveryReport: Encodable {
    /// Encodes the report's shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(isClean, forKey: "clean")
        try container.encode(finishesSucceeded.sorted(), forKey: "finished")
        try container.encode(finishesInFlight.sorted(), forKey: "inFlightElsewhere")
        try container.encode(KeyedEntry.sorted(finishesFailed, as: "error"), forKey: "stillPending")
        try container.encode(KeyedEntry.sorted(resubmitted, as: "outcome"), forKey: "resubmitted")
        try container.encode(KeyedEntry.sorted(resubmitErrors, as: "error"), forKey: "errors")
        try container.encodeIfPresent(sourceError, forKey: "sourceError")
    }
}

/// One transaction of a report with its value: the key's fields and the value under `name`.
struct KeyedEntry<Value: Encodable>: Encodable {
    let key: TransactionKey
    let name: String
    let value: Value

    /// The entries of `values`, in key order.
    static func sorted(_ values: [TransactionKey: Value], as name: String) -> [KeyedEntry] {
        values.sorted { $0.key < $1.key }.map { KeyedEntry(key: $0.key, name: name, value: $0.value) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(key.store, forKey: "store")
        try container.encode(key.transactionID, forKey: "transactionID")
        try container.encode(value, forKey: LedgerJSONKey(name))
    }
}
