import FulfillmentLedger

/// The counting reads behind `ledger catalog diff --db`: sales per product and store product,
/// owners and holders per asset.
enum CountCases {
    static let entries = [
        ConformanceEntry(
            "saleCountsByStoreProduct",
            "sales are counted per catalog product and store product, sorted, up to the limit",
            saleCountsByStoreProduct),
        ConformanceEntry(
            "ownerCounts", "owners count players per entitlement, holders players with a positive balance or stack",
            ownerCounts),
    ]

    static func saleCountsByStoreProduct(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let sold: [(String, String, PlatformStore, String)] = [
            ("t1", "gems_small", .test, "test.gems_small"), ("t2", "gems_small", .test, "test.gems_small"),
            ("a1", "gems_small", .appStore, "com.example.gems"), ("t3", "coins", .test, "test.coins"),
            ("t4", "gems_small_old", .test, "test.gems_small"),
        ]
        try await store.write { writer throws(LedgerError) in
            for (id, product, shop, storeProductID) in sold {
                try writer.insertTransaction(
                    ContractRows.record(id, player: "p\(id)", productID: product, store: shop, storeProductID: storeProductID))
            }
        }
        let (all, limited) = try await store.read { reader throws(LedgerError) in
            (try reader.saleCountsByStoreProduct(limit: 100), try reader.saleCountsByStoreProduct(limit: 2))
        }
        let testGems = StoreProductKey(store: .test, storeProductID: "test.gems_small")
        context.checkEqual(
            all,
            [
                StoreProductSaleCount(
                    productID: "coins", storeProduct: StoreProductKey(store: .test, storeProductID: "test.coins"), count: 1),
                StoreProductSaleCount(
                    productID: "gems_small", storeProduct: StoreProductKey(store: .appStore, storeProductID: "com.example.gems"),
                    count: 1),
                StoreProductSaleCount(productID: "gems_small", storeProduct: testGems, count: 2),
                StoreProductSaleCount(productID: "gems_small_old", storeProduct: testGems, count: 1),
            ], "the sales per catalog and store product")
        context.checkEqual(limited, Array(all.prefix(2)), "the sales, limit 2")

        let counts = try await store.read { reader throws(LedgerError) in try CatalogLedgerCounts.read(from: reader) }
        guard let counts else {
            context.record("the catalog counts were cut short on five records")
            return
        }
        context.checkEqual(
            counts.salesByProduct, ["coins": 1, "gems_small": 3, "gems_small_old": 1], "the catalog counts' sales by product")
        context.checkEqual(counts.salesByStoreProduct[testGems], 3, "the catalog counts' sales of test.gems_small")
    }

    static func ownerCounts(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        try await store.write { writer throws(LedgerError) in
            try writer.insertTransaction(ContractRows.record("t1"))
            for player in ["p1", "p2", "p3"] {
                _ = try writer.grantEntitlement(ContractRows.payment("remove_ads", "t1"), playerID: player)
            }
            _ = try writer.grantEntitlement(ContractRows.payment("vip", "t1"), playerID: "p1")
            _ = try writer.addToBalance(playerID: "p1", currencyID: "gems", delta: 10)
            _ = try writer.addToBalance(playerID: "p2", currencyID: "gems", delta: -5)  // in debt: holds none
            _ = try writer.addToBalance(playerID: "p3", currencyID: "gems", delta: 1)
            _ = try writer.addToBalance(playerID: "p3", currencyID: "coins", delta: 0)
            _ = try writer.addToInventory(playerID: "p1", itemID: "frost_tower", delta: 2)
            _ = try writer.addToInventory(playerID: "p2", itemID: "frost_tower", delta: 1)
            _ = try writer.addToInventory(playerID: "p2", itemID: "frost_tower", delta: -1)  // spent: holds none
        }
        let counts = try await store.read { reader throws(LedgerError) in
            (
                try reader.ownerCounts(of: .entitlement, limit: 100), try reader.ownerCounts(of: .currency, limit: 100),
                try reader.ownerCounts(of: .item, limit: 100), try reader.ownerCounts(of: .entitlement, limit: 1)
            )
        }
        context.checkEqual(counts.0, ["remove_ads": 3, "vip": 1], "the owners per entitlement")
        context.checkEqual(counts.1, ["gems": 2], "the holders per currency")
        context.checkEqual(counts.2, ["frost_tower": 1], "the holders per item")
        context.checkEqual(counts.3, ["remove_ads": 3], "the owners per entitlement, limit 1 (sorted by ID, then cut)")
    }
}
