import FulfillmentLedger

/// `ledger catalog explain PRODUCT`: what one purchase grants.
enum CatalogExplainCommand {
    static let command = Command(
        words: ["catalog", "explain"],
        summary: "show what one purchase of a product grants, its limits and store IDs",
        positionals: "PRODUCT",
        description: """
            PRODUCT is a catalog product ID, or a store product ID on any store. Prints what
            one purchase grants (for a subscription: its group, the entitlements kept while
            subscribed and what each paid period grants), the purchase limit, the refund
            policy and which store product IDs map to the product (with a Google Play
            purchase option, its playPurchaseOption). Catalog default:
            ProductCatalog.json in this folder, else the sample catalog built into the tool
            (said on stderr).

            exit codes: 0 ok, 65 invalid catalog or unknown product, 66 catalog missing,
              64 usage
            """,
        options: [CommonOptions.catalog.defaulting("ProductCatalog.json, else the built-in sample"), CommonOptions.json],
        run: { arguments, io in
            let productID: String
            do throws(Arguments.UsageError) {
                try arguments.expectPositionals(max: 1)
                guard let first = arguments.positionals.first else {
                    throw Arguments.UsageError(message: "PRODUCT is required")
                }
                productID = first
            } catch {
                return LedgerCommandLine.usageError(error.message, io: io, command: "catalog explain")
            }
            let catalog: ProductCatalog
            let catalogChoice = CatalogChoice.currentFolderOrSample(arguments, io: io, command: "catalog explain")
            do throws(LedgerError) {
                catalog = try catalogChoice.load()
            } catch {
                return LedgerCommandLine.report(error, io: io, command: "catalog explain", catalogPath: catalogChoice.path)
            }
            let byStoreID = PlatformStore.known.lazy.compactMap { catalog.product(store: $0, storeProductID: productID) }.first
            guard let product = catalog.product(id: productID) ?? byStoreID else {
                let known = catalog.products.map(\.id).joined(separator: ", ")
                io.printError("ledger catalog explain: no product \"\(productID)\"; products: \(known)")
                return .dataError
            }
            let explanation = ProductExplanation(product: product, catalog: catalog)
            if arguments.flag(CommonOptions.json) {
                io.printJSON(explanation)
            } else {
                for line in explanation.lines { io.print(line) }
            }
            return .ok
        })
}
