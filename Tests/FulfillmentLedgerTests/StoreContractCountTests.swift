import Foundation
import FulfillmentLedger
import Testing

/// The counting reads behind `ledger catalog diff --db` behave the same in the in-memory fake
/// and the SQLite store.
@Suite("Store contract: sale and owner counts")
struct StoreContractCountTests {
    /// A record of `transactionID` for `player`, fulfilled as `productID` under `storeProductID` on `store`.
    static func record(
        _ transactionID: String, player: String, productID: String, store: PlatformStore, storeProductID: String
    ) -> TransactionRecord {
        var record = ContractRows.record(transactionID, player: player)
        record.key = TransactionKey(store: store, transactionID: transactionID)
        record.productID = productID
        record.storeProductID = storeProductID
        return record
    }

    @Test("sales are counted per catalog product and store product, sorted, up to the limit", arguments: StoreKind.allCases)
    func saleCountsByStoreProduct(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        try await store.write { writer throws(LedgerError) in
            for (id, product, shop, storeProductID) in [
                ("t1", "gems_small", PlatformStore.test, "test.gems_small"), ("t2", "gems_small", .test, "test.gems_small"),
                ("a1", "gems_small", .appStore, "com.example.gems"), ("t3", "coins", .test, "test.coins"),
                ("t4", "gems_small_old", .test, "test.gems_small"),
            ] {
                try writer.insertTransaction(Self.record(id, player: "p\(id)", productID: product, store: shop, storeProductID: storeProductID))
            }
        }
        let (all, limited) = try await store.read { reader throws(LedgerError) in
            (try reader.saleCountsByStoreProduct(limit: 100), try reader.saleCountsByStoreProduct(limit: 2))
        }
        #expect(all == [
            StoreProductSaleCount(productID: "coins", storeProduct: StoreProductKey(store: .test, storeProductID: "test.coins"), count: 1),
            StoreProductSaleCount(productID: "gems_small", storeProduct: StoreProductKey(store: .appStore, storeProductID: "com.example.gems"), count: 1),
            StoreProductSaleCount(productID: "gems_small", storeProduct: StoreProductKey(store: .test, storeProductID: "test.gems_small"), count: 2),
            StoreProductSaleCount(productID: "gems_small_old", storeProduct: StoreProductKey(store: .test, storeProductID: "test.gems_small"), count: 1),
        ])
        #expect(limited == Array(all.prefix(2)))

        let counts = try await #require(try store.read { reader throws(LedgerError) in try CatalogLedgerCounts.read(from: reader) })
        #expect(counts.salesByProduct == ["coins": 1, "gems_small": 3, "gems_small_old": 1])
        #expect(counts.salesByStoreProduct[StoreProductKey(store: .test, storeProductID: "test.gems_small")] == 3)
    }

    @Test("owners count players per entitlement, holders players with a positive balance or stack", arguments: StoreKind.allCases)
    func ownerCounts(kind: StoreKind) async throws {
        let store = try await ContractStore(kind)
        try await store.write { writer throws(LedgerError) in
            try writer.insertTransaction(ContractRows.record("t1"))
            for player in ["p1", "p2", "p3"] {
                let grant = EntitlementRecord(entitlementID: "remove_ads", grantedAt: ContractRows.date(0), source: ContractRows.key("t1"))
                _ = try writer.grantEntitlement(grant, playerID: player)
            }
            _ = try writer.grantEntitlement(
                EntitlementRecord(entitlementID: "vip", grantedAt: ContractRows.date(0), source: ContractRows.key("t1")), playerID: "p1")
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
        #expect(counts.0 == ["remove_ads": 3, "vip": 1])
        #expect(counts.1 == ["gems": 2])
        #expect(counts.2 == ["frost_tower": 1])
        #expect(counts.3 == ["remove_ads": 3], "sorted by ID, then cut to the limit")
    }
}
