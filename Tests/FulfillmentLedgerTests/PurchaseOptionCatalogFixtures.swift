import Foundation

/// Catalog texts with Google Play purchase options: copies of the sample `ProductCatalog.json`
/// with products mapping one purchase option (or offer) of `gems_small`.
enum PurchaseOptionCatalogFixtures {
    /// A consumable mapping `gems_small` bought through `option` (and `offer`), granting `amount` gems.
    static func optionProduct(
        id: String, option: String = "bundle-of-3", offer: String? = nil, amount: Int = 350, playID: String = "gems_small",
        kind: String = "consumable", stores: String? = nil
    ) -> String {
        let offerField = offer.map { #", "offerID": "\#($0)""# } ?? ""
        let storeIDs = stores ?? #"{ "playStore": "\#(playID)" }"#
        return """
            { "id": "\(id)", "kind": "\(kind)", "storeProductIDs": \(storeIDs),
              "playPurchaseOption": { "purchaseOptionID": "\(option)"\(offerField) },
              "rewards": { "currencies": [{ "id": "gems", "amount": \(amount) }] } }
            """
    }

    /// The sample catalog with `products` first in its products (the sample itself without any).
    static func sample(with products: String...) -> String {
        let sample = (try? String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)) ?? ""
        guard !products.isEmpty else { return sample }
        return sample.replacingOccurrences(
            of: "\"products\": [\n", with: "\"products\": [\n    " + products.joined(separator: ",\n    ") + ",\n")
    }

    /// The sample with a bundle option, an offer of it, and a rental option of `gems_small`.
    static let sampleWithOptions = sample(
        with: optionProduct(id: "gems_small_bundle"),
        optionProduct(id: "gems_small_bundle_sale", offer: "winter-sale", amount: 400),
        """
        { "id": "gems_small_rental", "kind": "consumable", "storeProductIDs": { "playStore": "gems_small" },
          "playPurchaseOption": { "purchaseOptionID": "rent" },
          "rewards": { "items": [{ "id": "xp_booster", "quantity": 1 }] } }
        """)

    /// Catalogs both the loader and the JSON Schema accept.
    static let validSchemaFixtures: [String: String] = [
        "playPurchaseOptions": sampleWithOptions,
        "playPurchaseOptionOnTwoStores": sample(
            with: optionProduct(
                id: "gems_small_bundle", stores: #"{ "playStore": "gems_small", "appStore": "com.kibblestreet.td.gems.bundle" }"#)),
    ]

    /// Catalogs the loader refuses and the schema catches too.
    static let invalidSchemaFixtures: [String: String] = [
        "playPurchaseOptionUppercase": sample(with: optionProduct(id: "gems_small_bundle", option: "Bundle")),
        "playPurchaseOptionTooLong": sample(
            with: optionProduct(id: "gems_small_bundle", option: String(repeating: "b", count: 64))),
        "playOfferLeadingHyphen": sample(with: optionProduct(id: "gems_small_bundle", offer: "-sale")),
        "playPurchaseOptionWithoutPlayStore": sample(
            with: optionProduct(id: "gems_small_bundle", stores: #"{ "test": "test.gems_small.bundle" }"#)),
        "playPurchaseOptionOnSubscription": sample(
            with: optionProduct(id: "vip_bundle", kind: "autoRenewable")
                .replacingOccurrences(of: #""kind": "autoRenewable","#, with: #""kind": "autoRenewable", "subscriptionGroup": "vip","#)
                .replacingOccurrences(of: #""currencies": [{ "id": "gems", "amount": 350 }]"#, with: #""entitlements": ["vip_club"]"#)),
        "playOfferWithoutPurchaseOption": sample(
            with: optionProduct(id: "gems_small_bundle").replacingOccurrences(
                of: #""purchaseOptionID": "bundle-of-3""#, with: #""offerID": "winter-sale""#)),
    ]

    /// The loader refuses it; the schema cannot see two products at once.
    static let purchaseOptionOnTwoProducts = sample(
        with: optionProduct(id: "gems_small_bundle"), optionProduct(id: "gems_small_bundle_again", amount: 360))
}
