import Foundation
import FulfillmentLedgerTesting
import FulfillmentLedger
import Testing

/// Keeps Docs/ProductCatalog.schema.json and the loader in step.
@Suite struct CatalogSchemaTests {
    static let schemaPath = URL(fileURLWithPath: LedgerHarness.catalogPath).deletingLastPathComponent()
        .appendingPathComponent("Docs/ProductCatalog.schema.json").path

    static func schema() throws -> JSONObject {
        guard case .object(let object, _) = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: schemaPath))))
        else { throw CatalogSchemaError("the schema is not an object") }
        return object
    }

    struct CatalogSchemaError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The schema object for a shape: the root, or a `$defs` entry.
    static func schemaObject(_ name: String, in schema: JSONObject) throws -> JSONObject {
        if name == "root" { return schema }
        guard case .object(let defs, _)? = schema["$defs"], case .object(let object, _)? = defs[name] else {
            throw CatalogSchemaError("no $defs.\(name)")
        }
        return object
    }

    static let shapes: [(String, CatalogFields.Shape)] = [
        ("root", CatalogFields.root), ("definition", CatalogFields.definition), ("entitlement", CatalogFields.entitlement),
        ("product", CatalogFields.product),
        ("storeProductIDs", CatalogFields.storeProductIDs), ("rewards", CatalogFields.rewards),
        ("currencyLine", CatalogFields.currencyLine), ("itemLine", CatalogFields.itemLine), ("limit", CatalogFields.limit),
        ("playPurchaseOption", CatalogFields.playPurchaseOption),
    ]

    @Test(arguments: shapes.map(\.0))
    func schemaAndLoaderAcceptTheSameFields(name: String) throws {
        let shape = try #require(Self.shapes.first { $0.0 == name }?.1)
        let object = try Self.schemaObject(name, in: try Self.schema())
        guard case .object(let properties, _)? = object["properties"] else {
            Issue.record("\(name) has no properties")
            return
        }
        #expect(Set(properties.keys) == shape.allowed, "fields of \(name)")
        var required: [String] = []
        if case .array(let values, _)? = object["required"] {
            for case .string(let key, _) in values { required.append(key) }
        }
        #expect(Set(required) == Set(shape.required), "required fields of \(name)")
        guard case .bool(false, _)? = object["additionalProperties"] else {
            Issue.record("\(name) must set additionalProperties to false, as the loader refuses unknown fields")
            return
        }
        for member in properties.members {
            guard case .object(let property, _) = member.value, case .string(let text, _)? = property["description"],
                !text.isEmpty
            else {
                // A $ref without its own description is described by its target.
                if case .object(let property, _) = member.value, property["$ref"] != nil,
                    case .string(let target, _)? = property["$ref"],
                    let definition = try? Self.schemaObject(String(target.split(separator: "/").last ?? ""), in: try Self.schema()),
                    definition["description"] != nil
                {
                    continue
                }
                Issue.record("\(name).\(member.key) has no description")
                continue
            }
        }
    }

    /// Fixtures that break one rule the schema can express.
    static let invalidFixtures: [String: String] = {
        let valid = try? String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)
        let base = valid ?? ""
        func replacing(_ old: String, _ new: String) -> String { base.replacingOccurrences(of: old, with: new) }
        let own: [String: String] = [
            "unknownField": replacing(#"{ "id": "gems", "amount": 100 }"#, #"{ "id": "gems", "ammount": 100 }"#),
            "zeroAmount": replacing(#""amount": 100 }"#, #""amount": 0 }"#),
            "negativeAmount": replacing(#""amount": 100 }"#, #""amount": -3 }"#),
            "overflowingAmount": replacing(#""amount": 100 }"#, #""amount": 99999999999999999999 }"#),
            "fractionalAmount": replacing(#""amount": 100 }"#, #""amount": 1.5 }"#),
            "wrongSchemaVersion": replacing(#""schemaVersion": 1"#, #""schemaVersion": 2"#),
            "wrongKind": replacing(#""kind": "nonConsumable""#, #""kind": "durable""#),
            "badIdentifier": replacing(#""id": "gems_small""#, #""id": "gems small!""#),
            "emptyRewards": replacing(#""rewards": { "entitlements": ["remove_ads"] }"#, #""rewards": {}"#),
            "nonConsumableWithoutEntitlement": replacing(
                #""rewards": { "entitlements": ["remove_ads"] }"#, #""rewards": { "currencies": [{ "id": "gems", "amount": 1 }] }"#),
            "refundPolicyOnNonConsumable": replacing(
                #""rewards": { "entitlements": ["remove_ads"] }"#, #""rewards": { "entitlements": ["remove_ads"] }, "refundPolicy": "floor""#),
            "familySharingOnConsumable": replacing(#""kind": "consumable","#, #""kind": "consumable", "familySharing": "allRewards","#),
            "unknownFamilySharing": replacing(
                #""kind": "nonConsumable","#, #""kind": "nonConsumable", "familySharing": "everyone","#),
            "monthlyLimit": replacing(#""per": "week""#, #""per": "month""#),
            "missingKind": replacing(#""kind": "nonConsumable","#, ""),
            "noStores": replacing(
                #"{\#n        "appStore": "com.kibblestreet.td.remove_ads",\#n        "playStore": "remove_ads",\#n        "test": "test.remove_ads"\#n      }"#,
                "{}"),
            "unknownStore": replacing(#""test": "test.remove_ads""#, #""epicGames": "test.remove_ads""#),
            "steamItemIDNotANumber": replacing(#""test": "test.remove_ads""#, #""test": "test.remove_ads", "steam": "remove_ads""#),
            "steamItemIDLeadingZero": replacing(#""test": "test.remove_ads""#, #""test": "test.remove_ads", "steam": "01001""#),
            "steamItemIDZero": replacing(#""test": "test.remove_ads""#, #""test": "test.remove_ads", "steam": "0""#),
            "steamSubscription": replacing(#""playStore": "vip_monthly" }"#, #""playStore": "vip_monthly", "steam": "3001" }"#),
            "priceField": replacing(#""kind": "nonConsumable","#, #""kind": "nonConsumable", "price": 0.99,"#),
            "noProducts": replacing(#""products": ["#, #""products": [], "unused": ["#),
        ]
        return own.merging(SubscriptionCatalogFixtures.invalidSchemaFixtures) { first, _ in first }
            .merging(PurchaseOptionCatalogFixtures.invalidSchemaFixtures) { first, _ in first }
    }()

    /// Catalogs the loader refuses and the schema cannot: the known differences, listed in
    /// Docs/Catalog.md ("What the schema cannot check") and nowhere else. Each names the rule.
    static let knownDifferences: [String: String] = {
        let base = (try? String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)) ?? ""
        func replacing(_ old: String, _ new: String) -> String { base.replacingOccurrences(of: old, with: new) }
        return [
            // JSON Schema counts 100.0 as an integer; the loader wants the whole number written whole.
            "wholeNumberWithFraction": replacing(#""amount": 100 }"#, #""amount": 100.0 }"#),
            // The schema cannot say that no two lines of an array share an `id`.
            "rewardListedTwice": replacing(
                #"{ "id": "gems", "amount": 100 }"#, #"{ "id": "gems", "amount": 100 }, { "id": "gems", "amount": 5 }"#),
            // A JSON parser keeps one of two equal keys before any schema sees the object.
            "duplicateKey": replacing(#""amount": 100 }"#, #""amount": 100, "amount": 200 }"#),
            // `maxLength` counts characters; a store product ID is limited to 255 bytes of UTF-8.
            "storeProductIDOver255Bytes": replacing(#""test": "test.remove_ads""#, #""test": "\#(String(repeating: "é", count: 200))""#),
            // Cross-references: the schema sees one value at a time, never the file as a whole.
            "duplicateProductID": replacing(#""id": "gems_large""#, #""id": "gems_small""#),
            "undeclaredCurrency": replacing(#"{ "id": "gems", "amount": 1200 }"#, #"{ "id": "rubies", "amount": 1200 }"#),
            "storeProductIDOnTwoProducts": replacing(#""test": "test.gems_large""#, #""test": "test.gems_small""#),
            "purchaseOptionOnTwoProducts": PurchaseOptionCatalogFixtures.purchaseOptionOnTwoProducts,
            // A pattern cannot bound a number's value: 4294967296 has ten digits like 4294967295.
            "steamItemIDOver32Bits": replacing(#""test": "test.remove_ads""#, #""test": "test.remove_ads", "steam": "4294967296""#),
        ]
    }()

    @Test(arguments: knownDifferences.keys.sorted())
    func loaderRefusesEveryKnownDifference(name: String) throws {
        let text = try #require(Self.knownDifferences[name])
        #expect(text != (try String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)), "fixture \(name) changed nothing")
        guard case .failure = CatalogLoader.validate(Array(text.utf8)) else {
            Issue.record("the loader accepted fixture \(name)")
            return
        }
    }

    @Test("Catalog.md lists every known difference, and names no other")
    func catalogGuideListsTheKnownDifferences() throws {
        let guide = try String(
            contentsOf: URL(fileURLWithPath: LedgerHarness.catalogPath).deletingLastPathComponent()
                .appendingPathComponent("Docs/Catalog.md"), encoding: .utf8)
        let section = try #require(guide.components(separatedBy: "## What the schema cannot check").dropFirst().first)
        let listed = section.components(separatedBy: "\n## ").first ?? ""
        for name in Self.knownDifferences.keys { #expect(listed.contains("`\(name)`"), "\(name) is not in Catalog.md") }
        let names = listed.components(separatedBy: "- **").dropFirst().count
        #expect(names == Self.knownDifferences.count, "Catalog.md lists \(names) differences")
    }

    /// Catalogs besides the sample that both the loader and the schema must accept.
    static let validFixtures = SubscriptionCatalogFixtures.validSchemaFixtures
        .merging(PurchaseOptionCatalogFixtures.validSchemaFixtures) { first, _ in first }
        .merging(["steamItemIDs": steamItemIDs]) { first, _ in first }

    /// The sample with Steam item IDs, the largest 32-bit one among them.
    static let steamItemIDs = ((try? String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)) ?? "")
        .replacingOccurrences(of: #""playStore": "gems_small","#, with: #""playStore": "gems_small", "steam": "1001","#)
        .replacingOccurrences(of: #""test": "test.remove_ads""#, with: #""test": "test.remove_ads", "steam": "4294967295""#)

    @Test(arguments: validFixtures.keys.sorted())
    func loaderAcceptsEveryValidFixture(name: String) throws {
        let text = try #require(Self.validFixtures[name])
        if case .failure(let problems) = CatalogLoader.validate(Array(text.utf8)) {
            Issue.record("the loader refused fixture \(name): \(problems.problems)")
        }
    }

    @Test(arguments: invalidFixtures.keys.sorted())
    func loaderRejectsEveryInvalidFixture(name: String) throws {
        let text = try #require(Self.invalidFixtures[name])
        #expect(text != (try String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)), "fixture \(name) changed nothing")
        guard case .failure = CatalogLoader.validate(Array(text.utf8)) else {
            Issue.record("the loader accepted fixture \(name)")
            return
        }
    }

    static let hasPythonJSONSchema: Bool = {
        ProcessLaunchGuard.spawn("/usr/bin/env", ["python3", "-c", "import jsonschema"])?.status == 0
    }()

    @Test(.enabled(if: hasPythonJSONSchema, "skipped: the Python package jsonschema is not installed (pip install jsonschema)"))
    func schemaValidatorAgreesWithTheLoader() async throws {
        let directory = try LedgerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var fixtures = Self.invalidFixtures.merging(Self.validFixtures) { first, _ in first }
            .merging(Self.knownDifferences) { first, _ in first }
        fixtures["valid"] = try String(contentsOfFile: LedgerHarness.catalogPath, encoding: .utf8)
        for (name, text) in fixtures {
            try text.write(to: directory.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
        }
        let script = """
            import json, pathlib, sys, jsonschema
            schema = json.loads(pathlib.Path(sys.argv[1]).read_text())
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            result = {}
            for path in sorted(pathlib.Path(sys.argv[2]).glob("*.json")):
                try:
                    document = json.loads(path.read_text())
                    result[path.stem] = validator.is_valid(document)
                except ValueError:
                    result[path.stem] = False
            print(json.dumps(result))
            """
        let arguments = ["python3", "-c", script, Self.schemaPath, directory.path]
        let run = try #require(try await onOwnThread { ProcessLaunchGuard.spawn("/usr/bin/env", arguments) })
        #expect(run.status == 0)
        let data = run.output
        let verdicts = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Bool])
        #expect(verdicts["valid"] == true, "the schema must accept the sample catalog")
        for name in Self.validFixtures.keys.sorted() {
            #expect(verdicts[name] == true, "the schema refused valid fixture \(name)")
        }
        for name in Self.invalidFixtures.keys.sorted() {
            #expect(verdicts[name] == false, "the schema accepted invalid fixture \(name)")
        }
        // What the schema cannot express: it accepts these, the loader refuses them. A schema
        // that learns to refuse one moves it to `invalidFixtures`.
        for name in Self.knownDifferences.keys.sorted() {
            #expect(verdicts[name] == true, "the schema now refuses \(name): move it to invalidFixtures and out of Catalog.md")
        }
    }
}
