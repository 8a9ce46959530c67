import Foundation

/// Reads `ProductCatalog.json`: strict decoding plus validation, reporting every problem.
public enum CatalogLoader {
    /// Limits on what a catalog file may hold; beyond them the file is refused.
    public enum Limits {
        /// Largest catalog file accepted, in bytes.
        public static let fileByteCountMax = 4 * 1024 * 1024
        /// Most products in one catalog.
        public static let productCountMax = 10_000
        /// Most currencies, items or entitlements declared.
        public static let definitionCountMax = 10_000
        /// Most reward lines of one kind in one product.
        public static let rewardLineCountMax = 64
        /// Largest amount of one reward line; keeps `amount x quantityMax` far from overflow.
        public static let rewardAmountMax: Int64 = 1_000_000_000_000
        /// Largest purchase-limit count.
        public static let limitCountMax: Int64 = 1_000_000
    }

    /// Reads and validates a catalog file.
    public static func load(path: String) throws(LedgerError) -> ProductCatalog {
        try parse(try readBytes(path: path))
    }

    /// Validates catalog bytes, throwing `.catalogInvalid` with every problem found.
    public static func parse(_ bytes: [UInt8]) throws(LedgerError) -> ProductCatalog {
        switch validate(bytes) {
        case .success(let catalog): return catalog
        case .failure(let problems): throw LedgerError.catalogInvalid(problems.problems)
        }
    }

    /// Validates catalog bytes and returns the catalog or every problem found.
    public static func validate(_ bytes: [UInt8]) -> Result<ProductCatalog, CatalogProblems> {
        let result = check(bytes)
        if let catalog = result.catalog { return .success(catalog) }
        return .failure(CatalogProblems(result.errors))
    }

    /// Validates catalog bytes and lints a valid catalog: errors, warnings and the catalog.
    public static func check(_ bytes: [UInt8], lint options: CatalogLinter.Options = .init()) -> CatalogCheckResult {
        guard bytes.count <= Limits.fileByteCountMax else {
            return CatalogCheckResult(
                catalog: nil, errors: [CatalogProblem(path: "$", message: "file is too large")], warnings: [])
        }
        let root: JSONValue
        do {
            root = try JSONParser().parse(bytes)
        } catch {
            let problem = CatalogProblem(
                path: "$", message: "not valid JSON: \(error.description)", line: error.position.line,
                column: error.position.column)
            return CatalogCheckResult(catalog: nil, errors: [problem], warnings: [])
        }
        var reader = CatalogReader()
        let catalog = decodeCatalog(root, reader: &reader, versionHash: SHA256.hexDigest(bytes))
        CatalogCrossCheck.run(root: root, catalog: catalog, reader: &reader)
        guard reader.problems.isEmpty, let catalog else {
            return CatalogCheckResult(catalog: nil, errors: inFileOrder(reader.problems), warnings: [])
        }
        let warnings = CatalogLinter.warnings(root: root, catalog: catalog, options: options)
        return CatalogCheckResult(catalog: catalog, errors: [], warnings: inFileOrder(warnings))
    }

    /// Problems sorted by where they are in the file, so they read top to bottom.
    private static func inFileOrder(_ problems: [CatalogProblem]) -> [CatalogProblem] {
        problems.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.line ?? Int.max, lhs.element.column ?? Int.max, lhs.offset)
            let right = (rhs.element.line ?? Int.max, rhs.element.column ?? Int.max, rhs.offset)
            return left < right
        }.map(\.element)
    }

    /// Reads a catalog file's bytes, within the size limit.
    public static func readBytes(path: String) throws(LedgerError) -> [UInt8] {
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > Limits.fileByteCountMax {
                throw LedgerError.catalogUnreadable(
                    path: path, detail: "file is \(size) bytes; at most \(Limits.fileByteCountMax) are read")
            }
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError.catalogUnreadable(path: path, detail: error.localizedDescription)
        }
    }

    private static func decodeCatalog(
        _ root: JSONValue, reader: inout CatalogReader, versionHash: String
    ) -> ProductCatalog? {
        guard let object = reader.object(root, at: "$", shape: CatalogFields.root) else { return nil }
        if let schema = object["$schema"] { _ = reader.string(schema, at: "$.$schema") }
        var schemaVersion: Int?
        if let value = object["schemaVersion"],
            let version = reader.integer(value, at: "$.schemaVersion", range: 0...Int64(Int32.max), what: "schemaVersion")
        {
            if version == Int64(ProductCatalog.schemaVersionSupported) {
                schemaVersion = Int(version)
            } else {
                reader.report(
                    "$.schemaVersion",
                    "schemaVersion \(version) is not supported; this build reads version \(ProductCatalog.schemaVersionSupported)",
                    at: value)
            }
        }
        let currencies = definitions(object["currencies"], at: "$.currencies", shape: CatalogFields.definition, reader: &reader)
        let items = definitions(object["items"], at: "$.items", shape: CatalogFields.definition, reader: &reader)
        let entitlements = definitions(
            object["entitlements"], at: "$.entitlements", shape: CatalogFields.entitlement, reader: &reader)
        var products: [Product] = []
        if let value = object["products"],
            let elements = reader.array(value, at: "$.products", countMax: Limits.productCountMax)
        {
            if elements.isEmpty { reader.report("$.products", "the catalog declares no products", at: value) }
            for (index, element) in elements.enumerated() {
                if let product = ProductDecoder.decode(element, at: "$.products[\(index)]", reader: &reader) {
                    products.append(product)
                }
            }
        }
        guard let schemaVersion, let currencies, let items, let entitlements else { return nil }
        return ProductCatalog(
            schemaVersion: schemaVersion,
            currencies: currencies.map { CurrencyDefinition(id: $0.id, name: $0.name) },
            items: items.map { ItemDefinition(id: $0.id, name: $0.name) },
            entitlements: entitlements.compactMap { entitlement($0, reader: &reader) },
            products: products, versionHash: versionHash)
    }

    /// A declaration as read: its ID, name, JSON object and path.
    private typealias Declaration = (id: String, name: String?, object: JSONObject, path: String)

    private static func definitions(
        _ value: JSONValue?, at path: String, shape: CatalogFields.Shape, reader: inout CatalogReader
    ) -> [Declaration]? {
        guard let value, let elements = reader.array(value, at: path, countMax: Limits.definitionCountMax) else {
            return nil
        }
        var result: [Declaration] = []
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard
                let object = reader.object(element, at: elementPath, shape: shape),
                let idValue = object["id"], let id = reader.identifier(idValue, at: "\(elementPath).id")
            else { continue }
            let name = object["name"].flatMap { reader.string($0, at: "\(elementPath).name") }
            if let description = object["description"] { _ = reader.string(description, at: "\(elementPath).description") }
            result.append((id, name, object, elementPath))
        }
        return result
    }

    /// An entitlement declaration with its policies; nil (and a problem reported) when a policy is invalid.
    private static func entitlement(_ declaration: Declaration, reader: inout CatalogReader) -> EntitlementDefinition? {
        var definition = EntitlementDefinition(id: declaration.id, name: declaration.name)
        var valid = true
        if let value = declaration.object["unknownPolicy"] {
            if let policy = reader.choice(value, at: "\(declaration.path).unknownPolicy", of: UnknownPolicy.allCases) {
                definition.unknownPolicy = policy
            } else {
                valid = false
            }
        }
        if let value = declaration.object["removesAds"] {
            if case .bool(let flag, _) = value {
                definition.removesAds = flag
            } else {
                reader.report("\(declaration.path).removesAds", "removesAds must be true or false", at: value)
                valid = false
            }
        }
        return valid ? definition : nil
    }
}

/// The result of checking a catalog: the catalog when valid, its errors and its warnings.
public struct CatalogCheckResult: Sendable, Hashable {
    /// The catalog, or nil when there is any error.
    public var catalog: ProductCatalog?
    /// Problems that make the catalog invalid.
    public var errors: [CatalogProblem]
    /// Suspicious values that do not make it invalid (only computed for a valid catalog).
    public var warnings: [CatalogProblem]
}

/// Every problem found in a catalog, as one error value.
public struct CatalogProblems: Error, Hashable, Sendable {
    /// The problems, in document order.
    public var problems: [CatalogProblem]

    /// Wraps a list of problems.
    public init(_ problems: [CatalogProblem]) { self.problems = problems }
}
