import Foundation

/// Catalog texts with auto-renewable subscriptions: small ones for the loader's rules, and copies
/// of the sample `ProductCatalog.json` that `CatalogSchemaTests` also runs through the JSON Schema.
enum SubscriptionCatalogFixtures {
    /// A monthly battle pass with period rewards, with its fields in `fields` (default: all of them).
    static func battlePass(
        id: String = "battle_pass_monthly", storeID: String = "t.bp.monthly", group: String? = #""battle_pass""#,
        rewards: String = #"{ "entitlements": ["battle_pass"] }"#,
        periodRewards: String? = #"{ "currencies": [{ "id": "gems", "amount": 500 }], "items": [{ "id": "bp_token", "quantity": 1 }] }"#,
        extra: String = ""
    ) -> String {
        var fields = [#""id": "\#(id)""#, #""kind": "autoRenewable""#, #""storeProductIDs": { "test": "\#(storeID)" }"#]
        if let group { fields.append(#""subscriptionGroup": \#(group)"#) }
        fields.append(#""rewards": \#(rewards)"#)
        if let periodRewards { fields.append(#""periodRewards": \#(periodRewards)"#) }
        if !extra.isEmpty { fields.append(extra) }
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    /// A catalog declaring gems, coins, bp_token, battle_pass and remove_ads, with `products`.
    static func catalog(_ products: String...) -> String {
        """
        {
          "schemaVersion": 1,
          "currencies": [{ "id": "gems" }, { "id": "coins" }],
          "items": [{ "id": "bp_token" }],
          "entitlements": [{ "id": "battle_pass" }, { "id": "remove_ads" }],
          "products": [\(products.joined(separator: ",\n"))]
        }
        """
    }

    /// A monthly battle pass with period rewards, as the sample catalog's first product.
    static let battlePassInSample = """
        {
              "id": "battle_pass_monthly",
              "name": "Monthly Battle Pass",
              "kind": "autoRenewable",
              "storeProductIDs": { "appStore": "com.kibblestreet.td.bp.monthly", "playStore": "bp_monthly" },
              "subscriptionGroup": "battle_pass",
              "rewards": { "entitlements": ["battle_pass"] },
              "periodRewards": { "currencies": [{ "id": "gems", "amount": 500 }], "items": [{ "id": "revive_token", "quantity": 1 }] },
              "refundPolicy": "clawback",
              "familySharing": "entitlementsOnly"
            }
        """

    /// The sample catalog with the entitlement battle_pass declared and `products` first in its products.
    static func sample(with products: String...) -> String {
        let sample = (try? String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)) ?? ""
        return sample
            .replacingOccurrences(of: "\"entitlements\": [\n", with: "\"entitlements\": [\n    { \"id\": \"battle_pass\" },\n")
            .replacingOccurrences(of: "\"products\": [\n", with: "\"products\": [\n    " + products.joined(separator: ",\n    ") + ",\n")
    }

    /// The sample catalog with the battle pass.
    static let sampleWithSubscription = sample(with: battlePassInSample)

    private static func replacing(_ old: String, _ new: String) -> String {
        sampleWithSubscription.replacingOccurrences(of: old, with: new)
    }

    /// Subscription catalogs both the loader and the schema accept.
    static let validSchemaFixtures: [String: String] = [
        "subscription": sampleWithSubscription,
        "subscriptionMinimal": sample(
            with: #"{ "id": "vip", "kind": "autoRenewable", "storeProductIDs": { "test": "test.vip" }, "subscriptionGroup": "vip", "rewards": { "entitlements": ["battle_pass"] } }"#),
        "subscriptionTiers": sample(
            with: battlePassInSample,
            #"{ "id": "battle_pass_yearly", "kind": "autoRenewable", "storeProductIDs": { "test": "test.bp_yearly" }, "subscriptionGroup": "battle_pass", "rewards": { "entitlements": ["battle_pass"] }, "refundPolicy": "floor", "familySharing": "allRewards" }"#),
    ]

    /// Subscription catalogs that break one rule the schema can express.
    static let invalidSchemaFixtures: [String: String] = [
        "subscriptionWithoutGroup": replacing(#""subscriptionGroup": "battle_pass","#, ""),
        "subscriptionGroupNotAnID": replacing(#""subscriptionGroup": "battle_pass""#, #""subscriptionGroup": "battle pass!""#),
        "subscriptionGroupOnConsumable": replacing(
            #""kind": "consumable","#, #""kind": "consumable", "subscriptionGroup": "packs","#),
        "subscriptionGroupOnNonConsumable": replacing(
            #""kind": "nonConsumable","#, #""kind": "nonConsumable", "subscriptionGroup": "packs","#),
        "periodRewardsOnConsumable": replacing(
            #""kind": "consumable","#, #""kind": "consumable", "periodRewards": { "currencies": [{ "id": "gems", "amount": 1 }] },"#),
        "periodRewardsOnNonConsumable": replacing(
            #""kind": "nonConsumable","#,
            #""kind": "nonConsumable", "periodRewards": { "currencies": [{ "id": "gems", "amount": 1 }] },"#),
        "subscriptionRewardsWithCurrency": replacing(
            #""rewards": { "entitlements": ["battle_pass"] }"#,
            #""rewards": { "entitlements": ["battle_pass"], "currencies": [{ "id": "gems", "amount": 500 }] }"#),
        "subscriptionRewardsWithoutEntitlement": replacing(
            #""rewards": { "entitlements": ["battle_pass"] }"#, #""rewards": { "items": [{ "id": "revive_token", "quantity": 1 }] }"#),
        "periodRewardsWithEntitlement": replacing(#""periodRewards": { "#, #""periodRewards": { "entitlements": ["battle_pass"], "#),
        "emptyPeriodRewards": replacing(
            #""periodRewards": { "currencies": [{ "id": "gems", "amount": 500 }], "items": [{ "id": "revive_token", "quantity": 1 }] }"#,
            #""periodRewards": {}"#),
        "zeroPeriodAmount": replacing(#""amount": 500 }], "items""#, #""amount": 0 }], "items""#),
        "subscriptionWithLimit": replacing(
            #""refundPolicy": "clawback","#, #""refundPolicy": "clawback", "limit": { "count": 1, "per": "lifetime" },"#),
        "unknownSubscriptionRefundPolicy": replacing(#""refundPolicy": "clawback","#, #""refundPolicy": "keep","#),
    ]
}
