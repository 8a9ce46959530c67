import FulfillmentLedger

/// The sample game's catalog: `ProductCatalog.json` at the package root, built in so the demo,
/// the simulation and the commands that default to it run from any folder, with no file to find.
///
/// `SampleCatalogTests` checks that `json` is byte-identical to the file. After changing the file,
/// paste its text between the delimiters below again (the line before the closing delimiter stays
/// empty: it keeps the file's final newline).
public enum SampleCatalog {
    /// The name of the file it stands for.
    public static let fileName = "ProductCatalog.json"

    /// The file's exact text, so its version hash is the file's.
    public static let json = #"""
{
  "$schema": "Docs/ProductCatalog.schema.json",
  "schemaVersion": 1,
  "currencies": [
    { "id": "gems", "name": "Gems", "description": "Premium currency, bought with real money." },
    { "id": "coins", "name": "Coins", "description": "Soft currency, earned by defending the street." }
  ],
  "items": [
    { "id": "frost_tower", "name": "Frost Tower", "description": "Slows every creep in range." },
    { "id": "revive_token", "name": "Revive Token", "description": "Restores the base once per wave." },
    { "id": "xp_booster", "name": "XP Booster", "description": "Doubles tower XP for one hour." }
  ],
  "entitlements": [
    {
      "id": "remove_ads",
      "name": "Remove Ads",
      "description": "No interstitial or banner ads, forever.",
      "removesAds": true,
      "unknownPolicy": "failOpen"
    },
    {
      "id": "vip_club",
      "name": "VIP Club",
      "description": "A daily bonus chest, while the subscription lasts."
    },
    {
      "id": "vip_plus",
      "name": "VIP Club Plus",
      "description": "A second daily chest and the golden tower skin, while the Plus subscription lasts."
    }
  ],
  "products": [
    {
      "id": "gems_small",
      "name": "Pouch of Gems",
      "kind": "consumable",
      "storeProductIDs": {
        "appStore": "com.kibblestreet.td.gems.small",
        "playStore": "gems_small",
        "test": "test.gems_small"
      },
      "rewards": { "currencies": [{ "id": "gems", "amount": 100 }] }
    },
    {
      "id": "gems_large",
      "name": "Chest of Gems",
      "kind": "consumable",
      "storeProductIDs": {
        "appStore": "com.kibblestreet.td.gems.large",
        "playStore": "gems_large",
        "test": "test.gems_large"
      },
      "rewards": { "currencies": [{ "id": "gems", "amount": 1200 }] }
    },
    {
      "id": "coins_pack",
      "name": "Sack of Coins",
      "kind": "consumable",
      "storeProductIDs": {
        "appStore": "com.kibblestreet.td.coins",
        "playStore": "coins_pack",
        "test": "test.coins_pack"
      },
      "rewards": { "currencies": [{ "id": "coins", "amount": 5000 }] }
    },
    {
      "id": "starter_bundle",
      "name": "Street Defender Starter Bundle",
      "kind": "consumable",
      "storeProductIDs": {
        "appStore": "com.kibblestreet.td.bundle.starter",
        "playStore": "starter_bundle",
        "test": "test.starter_bundle"
      },
      "rewards": {
        "currencies": [{ "id": "gems", "amount": 500 }, { "id": "coins", "amount": 10000 }],
        "items": [{ "id": "frost_tower", "quantity": 1 }, { "id": "revive_token", "quantity": 3 }]
      },
      "limit": { "count": 1, "per": "lifetime" }
    },
    {
      "id": "weekly_offer",
      "name": "Weekly Siege Offer",
      "kind": "consumable",
      "storeProductIDs": {
        "appStore": "com.kibblestreet.td.offer.weekly",
        "playStore": "weekly_offer",
        "test": "test.weekly_offer"
      },
      "rewards": {
        "currencies": [{ "id": "gems", "amount": 300 }],
        "items": [{ "id": "xp_booster", "quantity": 2 }]
      },
      "limit": { "count": 1, "per": "week" }
    },
    {
      "id": "remove_ads",
      "name": "Remove Ads",
      "kind": "nonConsumable",
      "storeProductIDs": {
        "appStore": "com.kibblestreet.td.remove_ads",
        "playStore": "remove_ads",
        "test": "test.remove_ads"
      },
      "rewards": { "entitlements": ["remove_ads"] }
    },
    {
      "id": "founders_pack",
      "name": "Founder's Pack",
      "kind": "nonConsumable",
      "storeProductIDs": {
        "appStore": "com.kibblestreet.td.founders_pack",
        "playStore": "founders_pack",
        "test": "test.founders_pack"
      },
      "rewards": { "currencies": [{ "id": "gems", "amount": 1000 }], "entitlements": ["remove_ads"] }
    },
    {
      "id": "vip_monthly",
      "name": "VIP Club, monthly",
      "kind": "autoRenewable",
      "storeProductIDs": { "appStore": "com.kibblestreet.td.vip.monthly", "playStore": "vip_monthly" },
      "subscriptionGroup": "vip_club",
      "rewards": { "entitlements": ["vip_club"] },
      "periodRewards": { "currencies": [{ "id": "gems", "amount": 300 }] }
    },
    {
      "id": "vip_yearly",
      "name": "VIP Club, yearly",
      "kind": "autoRenewable",
      "storeProductIDs": { "appStore": "com.kibblestreet.td.vip.yearly" },
      "subscriptionGroup": "vip_club",
      "rewards": { "entitlements": ["vip_club"] },
      "periodRewards": { "currencies": [{ "id": "gems", "amount": 3600 }] }
    },
    {
      "id": "vip_plus_monthly",
      "name": "VIP Club Plus, monthly",
      "kind": "autoRenewable",
      "storeProductIDs": { "appStore": "com.kibblestreet.td.vip.plus.monthly" },
      "subscriptionGroup": "vip_club",
      "rewards": { "entitlements": ["vip_club", "vip_plus"] },
      "periodRewards": { "currencies": [{ "id": "gems", "amount": 500 }] }
    }
  ]
}

"""#

    /// The sample catalog, validated like any file.
    public static func load() throws(LedgerError) -> ProductCatalog {
        try CatalogLoader.parse(Array(json.utf8))
    }
}
