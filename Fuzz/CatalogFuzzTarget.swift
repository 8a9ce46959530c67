// libFuzzer target: arbitrary bytes as a product catalog. Build and run with Fuzz/build.sh.
//
// Beyond "never crash, never hang", it checks what a valid catalog promises: every store product ID
// maps back to its product, every reward is in range, the same bytes always give the same verdict,
// and the version hash is the bytes' SHA-256.
import Foundation
import FulfillmentLedger

/// The repository's ProductCatalog.json, embedded by build.sh as `fuzzCatalogJSON`.
let sampleCatalog: ProductCatalog = {
    do { return try CatalogLoader.parse(Array(fuzzCatalogJSON.utf8)) } catch { fail("\(error)") }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = CatalogLoader.check(bytes)
    guard let catalog = result.catalog else {
        check(!result.errors.isEmpty, "an invalid catalog must say why")
        if case .success = CatalogLoader.validate(bytes) { fail("check and validate disagree") }
        return 0
    }
    check(result.errors.isEmpty, "a valid catalog has no errors")
    check(catalog.schemaVersion == ProductCatalog.schemaVersionSupported)
    check(catalog.versionHash == SHA256.hexDigest(bytes))
    check(!catalog.products.isEmpty, "a valid catalog sells something")
    for product in catalog.products {
        check(catalog.product(id: product.id) == product, "product \(product.id) is not found by its ID")
        check(!product.storeProductIDs.isEmpty && !product.rewards.isEmpty)
        for (store, storeProductID) in product.storeProductIDs {
            check(PlatformStore.known.contains(store))
            check(
                catalog.product(store: store, storeProductID: storeProductID) == product,
                "\(store)/\(storeProductID) does not map back to \(product.id)")
        }
        for line in product.rewards.lines {
            switch line.kind {
            case .entitlement: check(line.quantity == 1 && catalog.hasEntitlement(line.id))
            case .currency: check(catalog.hasCurrency(line.id))
            case .item: check(catalog.hasItem(line.id))
            }
            check((1...CatalogLoader.Limits.rewardAmountMax).contains(line.quantity))
        }
        if product.kind == .nonConsumable {
            check(product.refundPolicy == nil && product.rewards.lines.contains { $0.kind == .entitlement })
        }
        _ = ProductExplanation(product: product, catalog: catalog)
    }
    // Deterministic: the same bytes give the same catalog (including the lint warnings).
    let again = CatalogLoader.check(bytes)
    check(again == result, "checking the same bytes twice gave different results")
    // Diffing a catalog against itself finds no change, and diffing against the sample never traps.
    check(CatalogDiff.compare(old: catalog, new: catalog, saleCounts: nil).changes.isEmpty)
    _ = CatalogDiff.compare(old: sampleCatalog, new: catalog, saleCounts: ["gems_small": 3])
    _ = CatalogDiff.compare(old: catalog, new: sampleCatalog, saleCounts: nil)
    return 0
}

/// Stops the run with a message (a plain `precondition` prints none in an -O build).
func check(_ condition: Bool, _ message: @autoclosure () -> String = "", file: StaticString = #file, line: UInt = #line) {
    if !condition { fatalError("fuzz invariant failed: \(message())", file: file, line: line) }
}

func fail(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("fuzz invariant failed: \(message)", file: file, line: line)
}
