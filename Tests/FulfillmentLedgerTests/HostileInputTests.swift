import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing
import TestStoreAdapter

/// Hostile catalogs, transactions and revocation events: each is refused with a problem, a rejection
/// or a typed error, quickly, and never grants. `JSONParserTests` and `CatalogTests` cover the parser's
/// grammar and the catalog's field rules; this suite pushes on size, depth, encoding and range.
@Suite("Hostile transactions and catalogs")
struct HostileInputTests {
    /// A named test argument, shown by its name: hostile inputs are too large to print.
    struct Sample<Value: Sendable>: Sendable, CustomTestStringConvertible {
        var name: String
        var value: Value
        var testDescription: String { name }

        init(_ name: String, _ value: Value) {
            self.name = name
            self.value = value
        }
    }

    static let tenMegabytes = 10 * 1024 * 1024
    static let nestingDepth = 100_000

    // MARK: - Catalogs

    /// A catalog that is valid apart from what `product` and `extra` change.
    static func catalog(product: String = sampleProduct, extra: String = "") -> String {
        """
        { "schemaVersion": 1,\(extra) "currencies": [{ "id": "gems" }], "items": [{ "id": "tower" }],
          "entitlements": [{ "id": "remove_ads" }], "products": [\(product)] }
        """
    }

    static let sampleProduct = """
        { "id": "gems_small", "kind": "consumable", "storeProductIDs": { "test": "test.gems" },
          "rewards": { "currencies": [{ "id": "gems", "amount": 100 }] } }
        """

    /// Checks catalog bytes, failing the test if they make a catalog; returns the errors.
    static func refusedCatalog(
        _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) -> [CatalogProblem] {
        let result = CatalogLoader.check(bytes)
        #expect(result.catalog == nil, "a hostile catalog was accepted", sourceLocation: sourceLocation)
        #expect(!result.errors.isEmpty, sourceLocation: sourceLocation)
        #expect(
            throws: LedgerError.self, "parse must throw .catalogInvalid", sourceLocation: sourceLocation
        ) { _ = try CatalogLoader.parse(bytes) }
        return result.errors
    }

    @Test("the template catalog is valid, so each refusal below comes from its hostile part")
    func templateIsValid() throws {
        #expect(CatalogLoader.check(Array(Self.catalog().utf8)).catalog != nil)
    }

    /// Byte strings that are no JSON document, by name.
    static let notJSONDocuments: [Sample<[UInt8]>] = {
        let text = catalog()
        let bytes = Array(text.utf8)
        return [
            Sample("NUL bytes", [UInt8](repeating: 0, count: 64)),
            Sample("a byte-order mark only", [0xEF, 0xBB, 0xBF]),
            Sample("UTF-16 with its byte-order mark", [0xFE, 0xFF, 0x00, 0x7B, 0x00, 0x7D]),
            Sample("a catalog cut in half", Array(bytes.prefix(bytes.count / 2))),
            Sample("a catalog followed by garbage", bytes + [0x00] + Array("garbage".utf8)),
            Sample("two catalogs back to back", bytes + bytes),
            Sample("single quotes", Array(text.replacingOccurrences(of: "\"", with: "'").utf8)),
            Sample("a comment", Array("// products\n".utf8) + bytes),
            Sample("a trailing comma", Array(text.replacingOccurrences(of: "}] }", with: "}], }").utf8)),
            Sample("an unterminated string", Array(#"{ "schemaVersion": 1, "currencies": [{ "id": "gems"#.utf8)),
            Sample("a 10 000-digit malformed number", Array("{ \"schemaVersion\": 1.".utf8) + [UInt8](repeating: 0x30, count: 10_000) + Array("e+ }".utf8)),
        ]
    }()

    @Test("bytes that are not a JSON document are one problem at $, never a catalog", arguments: notJSONDocuments)
    func notJSON(sample: Sample<[UInt8]>) {
        let (name, bytes) = (sample.name, sample.value)
        let errors = Self.refusedCatalog(bytes)
        #expect(errors.count == 1, "\(name): \(errors)")
        #expect(errors.first?.path == "$", "\(name)")
        #expect(errors.first?.message.hasPrefix("not valid JSON") == true, "\(name): \(errors)")
    }

    /// Documents nested `nestingDepth` deep, by name.
    static let deeplyNested: [Sample<String>] = [
        Sample("arrays", String(repeating: "[", count: nestingDepth) + String(repeating: "]", count: nestingDepth)),
        Sample("objects", String(repeating: #"{"a":"#, count: nestingDepth) + "1" + String(repeating: "}", count: nestingDepth)),
        Sample("unterminated arrays", String(repeating: "[", count: nestingDepth)),
        Sample("mixed", String(repeating: #"[{"a":"#, count: nestingDepth / 2)),
        Sample("inside a product name", catalog(product: #"{ "id": "p", "name": "# + String(repeating: "[", count: nestingDepth))),
    ]

    @Test("100 000 levels of nesting are refused at the 65th level, quickly, wherever they are", arguments: deeplyNested)
    func deepNesting(sample: Sample<String>) throws {
        let (name, text) = (sample.name, sample.value)
        let start = ContinuousClock.now
        let errors = Self.refusedCatalog(Array(text.utf8))
        #expect(ContinuousClock.now - start < .seconds(5), "\(name) took too long")
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.message.contains("nested too deeply"), "\(name): \(error)")
    }

    /// Hostile `playPurchaseOption` values on a product sold on Google Play.
    static let hostilePurchaseOptions: [Sample<String>] = [
        Sample("a number", "7"),
        Sample("null", "null"),
        Sample("an array", #"["bundle"]"#),
        Sample("a number for the ID", #"{ "purchaseOptionID": 7 }"#),
        Sample("an empty ID", #"{ "purchaseOptionID": "" }"#),
        Sample("a look-alike Cyrillic a", #"{ "purchaseOptionID": "bundle-\u0430" }"#),
        Sample("a control character", #"{ "purchaseOptionID": "bun\u0000dle" }"#),
        Sample("a slash", #"{ "purchaseOptionID": "bundle/sale" }"#),
        Sample("a 1 MB ID", #"{ "purchaseOptionID": ""# + String(repeating: "b", count: 1 << 20) + #"" }"#),
        Sample("64 characters", #"{ "purchaseOptionID": ""# + String(repeating: "b", count: 64) + #"" }"#),
        Sample("an unknown field", #"{ "purchaseOptionID": "bundle", "basePlanID": "x" }"#),
        Sample("an offer alone", #"{ "offerID": "sale" }"#),
        Sample("an offer that is an object", #"{ "purchaseOptionID": "bundle", "offerID": { "id": "sale" } }"#),
    ]

    @Test("a hostile playPurchaseOption is refused with a problem at its path", arguments: hostilePurchaseOptions)
    func hostilePurchaseOption(sample: Sample<String>) {
        let product = """
            { "id": "gems_bundle", "kind": "consumable", "storeProductIDs": { "playStore": "gems" },
              "playPurchaseOption": \(sample.value), "rewards": { "currencies": [{ "id": "gems", "amount": 1 }] } }
            """
        let errors = Self.refusedCatalog(Array(Self.catalog(product: product).utf8))
        #expect(errors.contains { $0.path.hasPrefix("$.products[0].playPurchaseOption") || $0.message.contains("too large") },
            "\(sample.name): \(errors)")
    }

    @Test("a 10 MB catalog field is refused by size: as bytes, and as a file whose path the error names")
    func tenMegabyteField() throws {
        let text = Self.catalog(product: #"{ "id": "p", "name": ""# + String(repeating: "x", count: Self.tenMegabytes) + #"" }"#)
        let errors = Self.refusedCatalog(Array(text.utf8))
        #expect(errors.map(\.message) == ["file is too large"])

        let directory = try LedgerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("huge.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(#expect(throws: LedgerError.self) { _ = try CatalogLoader.load(path: path) })
        guard case .catalogUnreadable(let found, let detail) = error else {
            Issue.record("expected catalogUnreadable, got \(error)")
            return
        }
        #expect(found == path)
        #expect(detail.contains("at most \(CatalogLoader.Limits.fileByteCountMax)"))
        #expect(error.description.contains(path))
    }

    @Test("a 1 MB string and 100 001 members fit in the file limit but break the parser's limits")
    func parserLimitsInsideTheFileLimit() {
        let longName = Self.catalog(product: #"{ "id": "p", "name": ""# + String(repeating: "é", count: 512 * 1024) + #"" }"#)
        let nameErrors = Self.refusedCatalog(Array(longName.utf8))
        #expect(nameErrors.first?.message.contains("too large") == true, "\(nameErrors)")
        #expect(nameErrors.first?.line == 2)

        let manyMembers = Self.catalog(product: "[" + Array(repeating: "0", count: 100_001).joined(separator: ",") + "]")
        let memberErrors = Self.refusedCatalog(Array(manyMembers.utf8))
        #expect(memberErrors.first?.message.contains("too large") == true, "\(memberErrors)")
    }

    @Test(
        "ill-formed UTF-8 anywhere in a catalog is one located problem",
        arguments: [
            ("in a name", #""name": "Gems "#, [0xFF], #"""#),
            ("in a key", #"""#, [0xC0, 0xAF], #"": 1"#),
            ("a lone continuation byte", #""name": ""#, [0x80], #"""#),
            ("an encoded surrogate", #""name": ""#, [0xED, 0xA0, 0x80], #"""#),
            ("a truncated sequence", #""name": ""#, [0xE2, 0x82], #"""#),
        ] as [(String, String, [UInt8], String)])
    func invalidUTF8(name: String, before: String, bad: [UInt8], after: String) throws {
        let template = Self.catalog(product: #"{ "id": "p", @@, "kind": "consumable" }"#)
        let halves = template.components(separatedBy: "@@")
        let bytes = Array((halves[0] + before).utf8) + bad + Array((after + halves[1]).utf8)
        let errors = Self.refusedCatalog(bytes)
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.message.contains("invalid UTF-8"), "\(name): \(error)")
        #expect(error.line == 2, "\(name)")
    }

    /// Reward amounts and limit counts at and beyond every edge, with the path and message they must produce.
    static let outOfRange: [(value: String, field: String, message: String)] = [
        ("0", "amount", "too small"),
        ("-1", "amount", "too small"),
        ("9223372036854775807", "amount", "too large"),
        ("-9223372036854775808", "amount", "too small"),
        ("9223372036854775808", "amount", "overflows"),
        ("-9223372036854775809", "amount", "overflows"),
        ("1e30", "amount", "whole number"),
        ("1.0", "amount", "whole number"),
        ("\"100\"", "amount", "whole number"),
        ("null", "amount", "whole number"),
        ("-1", "count", "too small"),
        ("9223372036854775807", "count", "too large"),
        ("18446744073709551616", "count", "overflows"),
    ]

    @Test("amounts and limit counts beyond range, overflowing or of the wrong type are refused", arguments: outOfRange)
    func quantitiesOutOfRange(value: String, field: String, message: String) throws {
        let product =
            field == "amount"
            ? #"{ "id": "p", "kind": "consumable", "storeProductIDs": { "test": "t" }, "rewards": { "currencies": [{ "id": "gems", "amount": \#(value) }] } }"#
            : #"{ "id": "p", "kind": "consumable", "storeProductIDs": { "test": "t" }, "rewards": { "currencies": [{ "id": "gems", "amount": 1 }] }, "limit": { "count": \#(value), "per": "week" } }"#
        let errors = Self.refusedCatalog(Array(Self.catalog(product: product).utf8))
        let path = field == "amount" ? "$.products[0].rewards.currencies[0].amount" : "$.products[0].limit.count"
        let error = try #require(errors.first { $0.path == path }, "no problem at \(path): \(errors)")
        #expect(error.message.contains(message), "\(value): \(error)")
    }

    static let rewards = #""storeProductIDs": { "test": "t" }, "rewards": { "currencies": [{ "id": "gems", "amount": 1 }] }"#

    @Test(
        "values no enumeration of the catalog knows are refused with the allowed ones",
        arguments: [
            (#"{ "id": "p", "kind": "subscription", \#(rewards) }"#, "$.products[0].kind", "\"consumable\" or \"nonConsumable\""),
            (#"{ "id": "p", "kind": 1, \#(rewards) }"#, "$.products[0].kind", "must be a string"),
            (#"{ "id": "p", "kind": "consumable", "refundPolicy": "refund", \#(rewards) }"#, "$.products[0].refundPolicy", "\"clawback\" or \"floor\""),
            (#"{ "id": "p", "kind": "consumable", "limit": { "count": 1, "per": "decade" }, \#(rewards) }"#, "$.products[0].limit.per", "\"lifetime\" or \"week\""),
        ])
    func unknownEnumerations(product: String, path: String, message: String) throws {
        let errors = Self.refusedCatalog(Array(Self.catalog(product: product).utf8))
        let error = try #require(errors.first { $0.path == path }, "no problem at \(path): \(errors)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test("an entitlement's unknown policy and a non-boolean removesAds are refused")
    func unknownEntitlementPolicies() {
        let text = Self.catalog().replacingOccurrences(
            of: #"{ "id": "remove_ads" }"#, with: #"{ "id": "remove_ads", "unknownPolicy": "maybe", "removesAds": "yes" }"#)
        let paths = Set(Self.refusedCatalog(Array(text.utf8)).map(\.path))
        #expect(paths.contains("$.entitlements[0].unknownPolicy"), "\(paths)")
    }

    // MARK: - Transactions

    /// A ledger on the real test-store verifier, which decodes payloads, over an in-memory store.
    static func makeLedger() throws -> Ledger {
        try Ledger(
            catalog: try LedgerHarness.sampleCatalog(), store: InMemoryLedgerStore(), verifier: TestStoreVerifier(),
            finisher: TestStore(), configuration: .sandbox)
    }

    /// Fails the test if anything was granted or recorded for `player`.
    static func expectNothingGranted(
        _ ledger: Ledger, player: String = "p1", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let snapshot = try await ledger.player(player)
        #expect(snapshot.balances.isEmpty, sourceLocation: sourceLocation)
        #expect(snapshot.inventory.isEmpty, sourceLocation: sourceLocation)
        #expect(snapshot.entitlements.isEmpty, sourceLocation: sourceLocation)
        #expect(snapshot.history.isEmpty, sourceLocation: sourceLocation)
        let sales = try await ledger.store.read { reader throws(LedgerError) in try reader.saleCountsByProduct(limit: 100) }
        #expect(sales.isEmpty, sourceLocation: sourceLocation)
    }

    /// A submission whose claims are those of a valid purchase, carrying `payload`.
    static func submission(payload: String, transactionID: String = "t1") -> TransactionSubmission {
        TransactionSubmission(
            store: .test, transactionID: transactionID, storeProductID: "test.gems_small", playerID: "p1", payload: payload)
    }

    static let validPayload = #"{"transactionID":"t1","productID":"test.gems_small","playerID":"p1"}"#

    /// Payloads that are not a test-store transaction, and a word the verifier's reason must contain.
    static let hostilePayloads: [Sample<(payload: String, reason: String)>] = [
        Sample("empty", ("", "not a test-store transaction")),
        Sample("truncated", (String(validPayload.dropLast()), "not a test-store transaction")),
        Sample("an array", ("[" + validPayload + "]", "not a test-store transaction")),
        Sample("a number for the ID", (validPayload.replacingOccurrences(of: #""t1""#, with: "1"), "not a test-store transaction")),
        Sample("null for the ID", (validPayload.replacingOccurrences(of: #""t1""#, with: "null"), "not a test-store transaction")),
        Sample("an overflowing quantity", (String(validPayload.dropLast()) + #","quantity":9223372036854775808}"#, "not a test-store transaction")),
        Sample("a fractional quantity", (String(validPayload.dropLast()) + #","quantity":1.5}"#, "not a test-store transaction")),
        Sample("a quantity as text", (String(validPayload.dropLast()) + #","quantity":"1"}"#, "not a test-store transaction")),
        Sample("a date that is not RFC 3339", (String(validPayload.dropLast()) + #","purchaseDate":"29/11/2026"}"#, "RFC 3339")),
        Sample("minute 99", (String(validPayload.dropLast()) + #","purchaseDate":"2026-11-29T12:99:00Z"}"#, "RFC 3339")),
        Sample("February 30", (String(validPayload.dropLast()) + #","purchaseDate":"2026-02-30T12:00:00Z"}"#, "RFC 3339")),
        Sample("a boolean as text", (String(validPayload.dropLast()) + #","verified":"true"}"#, "not a test-store transaction")),
        Sample("replacement characters from bad UTF-8", (String(decoding: [0x7B, 0xFF, 0xFE, 0x7D], as: UTF8.self), "not a test-store transaction")),
        Sample("8 000 levels of nesting", (String(repeating: "[", count: 8_000) + String(repeating: "]", count: 8_000), "not a test-store transaction")),
        Sample("8 000 levels in a field", (String(validPayload.dropLast()) + #","accountBinding":"# + String(repeating: "[", count: 8_000) + "}", "not a test-store transaction")),
        Sample("100 000 levels of nesting", (String(repeating: "[", count: nestingDepth), "larger than")),
        Sample("a 10 MB transaction ID", (#"{"transactionID":""# + String(repeating: "t", count: tenMegabytes) + #"","productID":"test.gems_small","playerID":"p1"}"#, "larger than")),
    ]

    @Test("the verifier calls a hostile payload invalid, quickly", arguments: hostilePayloads)
    func verifierRefuses(sample: Sample<(payload: String, reason: String)>) async throws {
        let (name, payload, reason) = (sample.name, sample.value.payload, sample.value.reason)
        let start = ContinuousClock.now
        let result = try await TestStoreVerifier().verify(Self.submission(payload: payload))
        #expect(ContinuousClock.now - start < .seconds(5), "\(name) took too long")
        guard case .invalid(let found) = result else {
            Issue.record("\(name): the verifier vouched for a hostile payload")
            return
        }
        #expect(found.contains(reason), "\(name): \(found)")
    }

    @Test("Ledger.fulfill rejects a hostile payload as unverified and grants nothing", arguments: hostilePayloads)
    func fulfillRejectsPayload(sample: Sample<(payload: String, reason: String)>) async throws {
        let (name, payload) = (sample.name, sample.value.payload)
        let ledger = try Self.makeLedger()
        let outcome = try await ledger.fulfill(Self.submission(payload: payload))
        #expect(outcome.rejection?.reason == .unverified, "\(name): \(outcome)")
        try await Self.expectNothingGranted(ledger)
    }

    @Test(
        "the decoders throw on bytes that are not UTF-8 JSON, never trap",
        arguments: [
            Sample("bytes that are never UTF-8", [0xFF, 0xFE, 0xFD]),
            Sample("an overlong key", [0x7B, 0x22, 0xC0, 0xAF, 0x22, 0x3A, 0x31, 0x7D]),
            Sample(
                "an encoded surrogate in the ID",
                Array(#"{"transactionID":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#"","productID":"p","playerID":"p1"}"#.utf8)),
            Sample("100 000 nested arrays", Array(String(repeating: "[", count: nestingDepth).utf8)),
            Sample("100 000 nested objects", Array(String(repeating: #"{"a":"#, count: nestingDepth).utf8)),
            Sample("NUL bytes", [UInt8](repeating: 0, count: 16)),
        ] as [Sample<[UInt8]>])
    func decodersThrow(sample: Sample<[UInt8]>) {
        let bytes = sample.value
        #expect(throws: DecodingError.self) {
            _ = try TestStoreTransaction.decoder().decode(TestStoreTransaction.self, from: Data(bytes))
        }
        #expect(throws: DecodingError.self) {
            _ = try TestStoreTransaction.decoder().decode(RevocationEvent.self, from: Data(bytes))
        }
    }

    @Test("a 10 MB ID in the submission is a typed invalidArgument before anything is verified")
    func tenMegabyteIdentifiers() async throws {
        let huge = String(repeating: "x", count: Self.tenMegabytes)
        let ledger = try Self.makeLedger()
        for (field, submission) in [
            ("transactionID", TransactionSubmission(store: .test, transactionID: huge, storeProductID: "test.gems_small", playerID: "p1", payload: Self.validPayload)),
            ("productID", TransactionSubmission(store: .test, transactionID: "t1", storeProductID: huge, playerID: "p1", payload: Self.validPayload)),
            ("playerID", TransactionSubmission(store: .test, transactionID: "t1", storeProductID: "test.gems_small", playerID: huge, payload: Self.validPayload)),
        ] {
            let error = try #require(await #expect(throws: LedgerError.self) { _ = try await ledger.fulfill(submission) })
            guard case .invalidArgument(let message) = error else {
                Issue.record("\(field): expected invalidArgument, got \(error)")
                continue
            }
            #expect(message.contains(field))
            #expect(error.description.count < 200, "the message must not echo the 10 MB value")
        }
        try await Self.expectNothingGranted(ledger)
    }

    /// Verified documents with a hostile value, and the rejection each must get.
    static let hostileValues: [(name: String, change: @Sendable (inout TestStoreTransaction) -> Void, reason: RejectionReason)] = [
        ("quantity -1", { $0.quantity = -1 }, .invalidQuantity),
        ("quantity 0", { $0.quantity = 0 }, .invalidQuantity),
        ("quantity Int.max", { $0.quantity = .max }, .invalidQuantity),
        ("quantity Int.min", { $0.quantity = .min }, .invalidQuantity),
        ("quantity one above the limit", { $0.quantity = LedgerConfiguration.sandbox.quantityMax + 1 }, .invalidQuantity),
        ("state refunded", { $0.state = PurchaseState(rawValue: "refunded") }, .cancelled),
        ("state empty", { $0.state = PurchaseState(rawValue: "") }, .cancelled),
        ("environment xcode", { $0.environment = StoreEnvironment(rawValue: "xcode") }, .wrongEnvironment),
        ("a revocation past the ledger's dates", { $0.revocationDate = .distantFuture }, .unverified),
        ("a future revocation", { $0.revocationDate = Date(timeIntervalSince1970: 4_000_000_000) }, .revoked),
        ("a purchase before 1970", { $0.purchaseDate = Date(timeIntervalSince1970: -1) }, .unverified),
    ]

    @Test(
        "a verified document with an out-of-range or unknown value is rejected and grants nothing",
        arguments: hostileValues.map { ($0.name, $0.reason) })
    func hostileValue(name: String, reason: RejectionReason) async throws {
        let change = try #require(Self.hostileValues.first { $0.name == name }?.change)
        var document = TestStoreTransaction(
            transactionID: "t1", storeProductID: "test.gems_small", playerID: "p1", purchaseDate: Date(timeIntervalSince1970: 1_790_000_000))
        change(&document)
        let ledger = try Self.makeLedger()
        // The document's own encoding decodes back to the same values: the hostile value reached the ledger.
        let decoded = try TestStoreTransaction.decoder().decode(
            TestStoreTransaction.self, from: Data(document.submission().payload.utf8))
        #expect(decoded.quantity == document.quantity && decoded.state == document.state)
        let outcome = try await ledger.fulfill(document.submission())
        #expect(outcome.rejection?.reason == reason, "\(name): \(outcome)")
        try await Self.expectNothingGranted(ledger)
    }

    // MARK: - Revocation events

    static let eventDate = Date(timeIntervalSince1970: 1_790_000_000)

    @Test(
        "a revocation of an unknown kind or with a partial quantity out of range is rejected and takes nothing",
        arguments: [
            ("kind subscription", RevocationKind(rawValue: "subscription"), Int?.none, RejectionReason.unsupportedEvent),
            ("kind empty", RevocationKind(rawValue: ""), nil, .unsupportedEvent),
            ("partial quantity -1", .partialRefund, -1, .invalidQuantity),
            ("partial quantity 0", .partialRefund, 0, .invalidQuantity),
            ("partial quantity Int.max", .partialRefund, Int.max, .invalidQuantity),
            ("partial quantity Int.min", .partialRefund, Int.min, .invalidQuantity),
            ("partial quantity missing", .partialRefund, nil, .invalidQuantity),
        ] as [(String, RevocationKind, Int?, RejectionReason)])
    func hostileRevocation(name: String, kind: RevocationKind, quantity: Int?, reason: RejectionReason) async throws {
        let ledger = try Self.makeLedger()
        let purchase = TestStoreTransaction(
            transactionID: "t1", storeProductID: "test.gems_small", playerID: "p1", purchaseDate: Self.eventDate)
        #expect(try await ledger.fulfill(purchase.submission()).rejection == nil)
        let before = try await ledger.player("p1")

        let event = RevocationEvent(
            eventID: "e1", store: .test, transactionID: "t1", kind: kind, quantity: quantity, eventDate: Self.eventDate)
        let outcome = try await ledger.applyRevocation(event)
        #expect(outcome.rejection?.reason == reason, "\(name): \(outcome)")
        let after = try await ledger.player("p1")
        #expect(after.balances == before.balances && after.history == before.history)
        await #expect(try ledger.store.read { reader throws(LedgerError) in try reader.revocationEvent(id: "e1") } == nil)
    }

    @Test("a 10 MB event or transaction ID is a typed invalidArgument, and nothing is recorded")
    func tenMegabyteEventIdentifiers() async throws {
        let huge = String(repeating: "e", count: Self.tenMegabytes)
        let ledger = try Self.makeLedger()
        for event in [
            RevocationEvent(eventID: huge, store: .test, transactionID: "t1", kind: .fullRefund, eventDate: Self.eventDate),
            RevocationEvent(eventID: "e1", store: .test, transactionID: huge, kind: .fullRefund, eventDate: Self.eventDate),
        ] {
            let error = try #require(await #expect(throws: LedgerError.self) { _ = try await ledger.applyRevocation(event) })
            guard case .invalidArgument = error else {
                Issue.record("expected invalidArgument, got \(error)")
                continue
            }
        }
        await #expect(try ledger.store.read { reader throws(LedgerError) in try reader.revocationEvent(id: "e1") } == nil)
    }

    @Test("a refund or a purchase for an unknown store is refused before anything is looked up")
    func unknownStoreIsRefused() async throws {
        let ledger = try Self.makeLedger()
        let event = RevocationEvent(
            eventID: "e1", store: PlatformStore(rawValue: "epicGames"), transactionID: "t1", kind: .fullRefund,
            eventDate: Self.eventDate)
        await #expect(throws: LedgerError.self) { _ = try await ledger.applyRevocation(event) }
        var document = TestStoreTransaction(
            transactionID: "t1", storeProductID: "test.gems_small", playerID: "p1", purchaseDate: Self.eventDate)
        document.store = PlatformStore(rawValue: "epicGames")
        await #expect(throws: LedgerError.self) { _ = try await ledger.fulfill(document.submission()) }
        await #expect(try ledger.store.read { reader throws(LedgerError) in try reader.revocationEvent(id: "e1") } == nil)
        try await Self.expectNothingGranted(ledger)
    }

    // MARK: - Date round trips (fuzzing finding)

    @Test("a test-store date survives encoding and decoding to the millisecond")
    func datesSurviveARoundTrip() throws {
        // Found by Fuzz/TransactionFuzzTarget.swift: formatDate floors the binary value of the date, and
        // parsing "….002Z" yields a Double just below .002, so one round trip can lose a millisecond.
        let text = "2026-11-30T00:42:23.002Z"
        let date = try #require(TestStoreTransaction.parseDate(text))
        #expect(TestStoreTransaction.formatDate(date) == text)
        #expect(TestStoreTransaction.parseDate(TestStoreTransaction.formatDate(date)) == date)
        #expect(date.ledgerMilliseconds % 1000 == 2)
    }
}
