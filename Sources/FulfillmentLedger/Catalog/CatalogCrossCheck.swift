/// Checks that need the whole catalog: duplicate IDs, unknown references and store
/// product IDs mapped to two products. Works on the JSON so it can point at the exact value.
enum CatalogCrossCheck {
    static func run(root: JSONValue, catalog: ProductCatalog?, reader: inout CatalogReader) {
        guard case .object(let object, _) = root else { return }
        var declared: [String: Set<String>] = [:]
        for key in ["currencies", "items", "entitlements", "products"] {
            declared[key] = duplicateCheck(object[key], at: "$.\(key)", reader: &reader)
        }
        guard case .array(let products, _)? = object["products"] else { return }
        var storeIDOwners: [String: (index: Int, productID: String)] = [:]
        for (index, product) in products.enumerated() {
            guard case .object(let productObject, _) = product else { continue }
            let path = "$.products[\(index)]"
            let productID = stringValue(productObject["id"]) ?? "#\(index)"
            for key in ["rewards", "periodRewards"] {
                referenceCheck(productObject[key], at: "\(path).\(key)", declared: declared, reader: &reader)
            }
            guard case .object(let storeIDs, _)? = productObject["storeProductIDs"] else { continue }
            let option = playPurchaseOption(productObject["playPurchaseOption"])
            for member in storeIDs.members {
                guard let storeProductID = stringValue(member.value) else { continue }
                // A Play mapping qualified by a purchase option (and offer) is its own mapping.
                let qualifier = member.key == PlatformStore.playStore.rawValue ? option : nil
                let ownerKey = "\(member.key)\u{0}\(storeProductID)" + (qualifier.map { "\u{0}\($0)" } ?? "")
                if let owner = storeIDOwners[ownerKey] {
                    let what = "store product ID \"\(storeProductID)\"" + (qualifier.map { " (\($0))" } ?? "")
                    reader.report(
                        "\(path).storeProductIDs.\(member.key)",
                        "\(what) on \(member.key) is already mapped to product \"\(owner.productID)\" at $.products[\(owner.index)]; one store product can grant only one catalog product",
                        at: member.value)
                } else {
                    storeIDOwners[ownerKey] = (index, productID)
                }
            }
        }
    }

    /// Reports IDs declared twice in one list and returns the set of declared IDs.
    private static func duplicateCheck(_ value: JSONValue?, at path: String, reader: inout CatalogReader) -> Set<String> {
        guard case .array(let elements, _)? = value else { return [] }
        var seen: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            guard case .object(let object, _) = element, let id = stringValue(object["id"]) else { continue }
            if let first = seen[id] {
                reader.report(
                    "\(path)[\(index)].id", "duplicate ID \"\(id)\": already declared at \(path)[\(first)]",
                    at: object["id"])
            } else {
                seen[id] = index
            }
        }
        return Set(seen.keys)
    }

    private static func referenceCheck(
        _ rewards: JSONValue?, at path: String, declared: [String: Set<String>], reader: inout CatalogReader
    ) {
        guard case .object(let object, _)? = rewards else { return }
        for (key, noun) in [("currencies", "currency"), ("items", "item")] {
            guard case .array(let lines, _)? = object[key] else { continue }
            var seen: Set<String> = []
            for (index, line) in lines.enumerated() {
                guard case .object(let lineObject, _) = line, let id = stringValue(lineObject["id"]) else { continue }
                if !seen.insert(id).inserted {
                    reader.report(
                        "\(path).\(key)[\(index)].id", "\(noun) \"\(id)\" is listed twice; add the amounts into one line",
                        at: lineObject["id"])
                }
                if declared[key]?.contains(id) != true {
                    reader.report(
                        "\(path).\(key)[\(index)].id", "unknown \(noun) \"\(id)\": declare it under \"\(key)\" first",
                        at: lineObject["id"])
                }
            }
        }
        if case .array(let lines, _)? = object["entitlements"] {
            var seen: Set<String> = []
            for (index, line) in lines.enumerated() {
                guard let id = stringValue(line) else { continue }
                if declared["entitlements"]?.contains(id) != true {
                    reader.report(
                        "\(path).entitlements[\(index)]",
                        "unknown entitlement \"\(id)\": declare it under \"entitlements\" first", at: line)
                }
                if !seen.insert(id).inserted {
                    reader.report("\(path).entitlements[\(index)]", "entitlement \"\(id)\" is listed twice", at: line)
                }
            }
        }
    }

    /// The purchase option and offer a product's `playPurchaseOption` names, as text; nil when absent.
    private static func playPurchaseOption(_ value: JSONValue?) -> String? {
        guard case .object(let object, _)? = value, let optionID = stringValue(object["purchaseOptionID"]) else { return nil }
        return StorePurchaseOption(purchaseOptionID: optionID, offerID: stringValue(object["offerID"])).description
    }

    private static func stringValue(_ value: JSONValue?) -> String? {
        if case .string(let text, _)? = value { return text }
        return nil
    }
}
