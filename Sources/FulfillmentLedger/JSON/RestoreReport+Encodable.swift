/// A `RestoreReport` in JSON. Transactions are `{"store", "transactionID"}` objects, sorted:
///
/// `{"playerID": "…", "outcomes": [{key…, "outcome": {FulfillmentOutcome}}], "transferred": [key],
///   "revoked": [key], "errors": [{key…, "error": {LedgerError}}], "revocationSkipped": "…"?,
///   "queryError": {LedgerError}?}`
extension RestoreReport: Encodable {
    /// Encodes the report's shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LedgerJSONKey.self)
        try container.encode(playerID, forKey: "playerID")
        try container.encode(KeyedEntry.sorted(outcomes, as: "outcome"), forKey: "outcomes")
        try container.encode(transferred.sorted(), forKey: "transferred")
        try container.encode(revoked.sorted(), forKey: "revoked")
        try container.encode(KeyedEntry.sorted(errors, as: "error"), forKey: "errors")
        try container.encodeIfPresent(revocationSkipped, forKey: "revocationSkipped")
        try container.encodeIfPresent(queryError, forKey: "queryError")
    }
}
