import Foundation
import FulfillmentLedger
import TestStoreAdapter

/// A deterministic stream of test-store purchases for crash tests: a child process
/// fulfills it and is killed at a random moment; the parent replays the same stream.
public enum CrashWorkload {
    /// Most transactions one workload generates.
    public static let countMax = 100_000

    /// `count` purchased transactions over the catalog's test-store products, chosen by `seed`.
    public static func transactions(
        seed: UInt64, count: Int, catalog: ProductCatalog, playerCount: Int = 8,
        start: Date = Date(timeIntervalSince1970: 1_767_571_200)
    ) -> [TestStoreTransaction] {
        precondition(count >= 0 && count <= countMax && playerCount >= 1, "workload size out of range")
        var random = SplitMix64(seed: seed)
        let products = catalog.products.filter { $0.storeProductIDs[.test] != nil }
        guard !products.isEmpty else { return [] }
        return (0..<count).map { index in
            let product = random.pick(products)
            let quantity = product.kind == .consumable ? 1 + random.below(2) : 1
            return TestStoreTransaction(
                transactionID: "w\(seed)-\(index)", storeProductID: product.storeProductIDs[.test] ?? "",
                playerID: "crash-player-\(random.below(playerCount))", quantity: quantity,
                purchaseDate: start.addingTimeInterval(TimeInterval(index)))
        }
    }
}
