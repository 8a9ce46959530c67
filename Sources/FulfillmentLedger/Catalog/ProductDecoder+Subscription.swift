/// The fields and rules of auto-renewable subscriptions: `subscriptionGroup`, `periodRewards`,
/// rewards that hold entitlements only, and no purchase limit.
extension ProductDecoder {
    /// A product's subscription fields as read, and whether they are valid for its kind.
    struct SubscriptionFields {
        /// The subscription group of an autoRenewable product; nil for other kinds.
        var group: String?
        /// The rewards granted once per paid period; nil when absent or for other kinds.
        var periodRewards: Rewards?
        /// Whether every subscription rule holds (each broken one is reported).
        var valid: Bool
    }

    /// Reads `subscriptionGroup` and `periodRewards` and checks the subscription rules of a
    /// product of `kind` (nil when the kind itself is invalid: then only the fields' own values
    /// are checked). `rewards` are the product's rewards as decoded, nil when invalid.
    static func subscriptionFields(
        _ object: JSONObject, kind: ProductKind?, rewards: Rewards?, at path: String, reader: inout CatalogReader
    ) -> SubscriptionFields {
        var fields = SubscriptionFields(group: nil, periodRewards: nil, valid: true)
        let isSubscription = kind == .autoRenewable
        let otherKind = isSubscription ? nil : kind?.rawValue
        if let value = object["subscriptionGroup"] {
            fields.group = reader.identifier(value, at: "\(path).subscriptionGroup")
            if fields.group == nil { fields.valid = false }
            if let otherKind {
                reader.report(
                    "\(path).subscriptionGroup",
                    "subscriptionGroup applies to autoRenewable subscriptions only; a \(otherKind) belongs to no group",
                    at: value)
                fields.valid = false
            }
        } else if isSubscription,
            !object.members.contains(where: { EditDistance.isTypo($0.key, of: "subscriptionGroup") })
        {
            // A misspelt key is already reported as unknown, with "did you mean": once is enough.
            reader.report(
                "\(path).subscriptionGroup",
                "an autoRenewable product must name its subscriptionGroup: the store's subscription group it is sold in",
                at: object["kind"])
            fields.valid = false
        }
        if let value = object["periodRewards"] {
            fields.periodRewards = periodRewards(value, at: "\(path).periodRewards", reader: &reader)
            if fields.periodRewards == nil { fields.valid = false }
            if let otherKind {
                reader.report(
                    "\(path).periodRewards",
                    "periodRewards applies to autoRenewable subscriptions only; a \(otherKind) grants everything under rewards",
                    at: value)
                fields.valid = false
            }
        }
        guard isSubscription else { return fields }
        if let value = object["limit"] {
            reader.report(
                "\(path).limit",
                "limit does not apply to an autoRenewable subscription: the store sells one subscription per group at a time",
                at: value)
            fields.valid = false
        }
        if !subscriptionRewardsValid(object["rewards"], rewards: rewards, at: "\(path).rewards", reader: &reader) {
            fields.valid = false
        }
        return fields
    }

    /// Checks that an autoRenewable product's rewards hold entitlements, and only entitlements.
    private static func subscriptionRewardsValid(
        _ value: JSONValue?, rewards: Rewards?, at path: String, reader: inout CatalogReader
    ) -> Bool {
        guard case .object(let object, _)? = value else { return true }
        var valid = true
        for key in ["currencies", "items"] {
            guard let list = object[key] else { continue }
            reader.report(
                "\(path).\(key)",
                "an autoRenewable product's rewards hold only entitlements, kept active while subscribed; grant \(key) once per paid period under periodRewards",
                at: list)
            valid = false
        }
        if let rewards, !rewards.lines.contains(where: { $0.kind == .entitlement }) {
            reader.report(
                "\(path).entitlements",
                "an autoRenewable product must grant at least one entitlement; it is what stays active while subscribed",
                at: value)
            valid = false
        }
        return valid
    }

    /// The rewards granted once per paid period: currencies and items, never entitlements.
    private static func periodRewards(_ value: JSONValue, at path: String, reader: inout CatalogReader) -> Rewards? {
        let decoded = rewards(
            value, at: path, reader: &reader,
            emptyMessage: "periodRewards are empty: grant at least one currency or item per paid period, or leave the field out")
        guard case .object(let object, _) = value, let list = object["entitlements"] else { return decoded }
        reader.report(
            "\(path).entitlements",
            "entitlements are not period rewards: list them under rewards, where they stay active while subscribed",
            at: list)
        return nil
    }
}
