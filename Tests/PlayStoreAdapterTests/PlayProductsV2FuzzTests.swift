import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerSimulation
import PlayStoreAdapter
import Synchronization
import Testing

/// Seeded fuzzing of `purchases.productsv2` answers, run by `swift test`: Google's reference shape
/// mutated field by field and byte by byte, decoded by the real HTTPS client and judged by the
/// verifier and the pipeline against a catalog that maps purchase options. No answer may crash
/// them or throw anything but a `LedgerError`; a purchase option or offer ID out of Google's
/// bounds, a rental or pre-order no product maps, and a purchase not `PURCHASED` never grant; a
/// grant is the product the option maps, once.
@Suite struct PlayProductsV2FuzzTests {
    static let caseCount = 300

    /// Google's reference shape of a purchase of `gems_small` through the `bundle-of-3` option.
    static let reference = """
        {"kind":"androidpublisher#productPurchaseV2",
         "productLineItem":[{"productId":"gems_small","productOfferDetails":{"offerId":"winter-sale","purchaseOptionId":"bundle-of-3",
           "offerToken":"ot","offerTags":["sale"],"quantity":1,"refundableQuantity":1,
           "consumptionState":"CONSUMPTION_STATE_YET_TO_BE_CONSUMED"}}],
         "purchaseStateContext":{"purchaseState":"PURCHASED"},
         "orderId":"GPA.1","obfuscatedExternalAccountId":"p1","regionCode":"US",
         "purchaseCompletionTime":"2026-11-02T10:00:00.045Z","acknowledgementState":"ACKNOWLEDGEMENT_STATE_PENDING"}
        """

    /// Values a mutation puts in a field.
    static let hostile: [String] = [
        "9223372036854775807", "-1", "0", "1e309", "\"\"", "null", "true", "[]", "{}", "\"\\u0000\"",
        "\"" + String(repeating: "b", count: 64) + "\"", "\"" + String(repeating: "t", count: 5_000) + "\"",
        "\"rent\"", "\"bundle-of-3\"", "\"PENDING\"", "\"PURCHASE_STATE_NEW\"", "\"2026-02-30T00:00:00Z\"", "2",
    ]
    static let fields = [
        "productId", "offerId", "purchaseOptionId", "quantity", "refundableQuantity", "consumptionState", "purchaseState",
        "purchaseCompletionTime", "orderId", "obfuscatedExternalAccountId", "productLineItem", "productOfferDetails",
        "purchaseStateContext", "acknowledgementState",
    ]

    /// The sample catalog with `gems_small`'s bundle option, its winter sale, and its rental mapped.
    static func catalog() throws -> ProductCatalog { try PlayPurchaseOptionTests.catalog() }

    @Test func hostileProductsV2AnswersNeverCrashAndGrantOnlyWhatTheCatalogMaps() async throws {
        let answer = Mutex(Self.reference)
        let fixture = try PlayClientFixture { request, _ in
            if request.url.path.contains("/purchases/productsv2/") { return .json(200, answer.withLock { $0 }) }
            return .json(200, "{}")
        }
        let clock = ManualClock()
        let ledger = try Ledger(
            catalog: try Self.catalog(), store: InMemoryLedgerStore(),
            verifier: PlayPurchaseVerifier(api: fixture.client, packageName: "com.game", environment: .sandbox, clock: clock),
            finisher: PlayFinisher(api: fixture.client, packageName: "com.game"), clock: clock,
            configuration: LedgerConfiguration(environment: .sandbox))
        let granted = Set(["gems_small", "gems_small_bundle", "gems_small_bundle_sale", "gems_small_rental"])
        var random = SplitMix64(seed: 20_261_206)
        var outcomes: [String: Int] = [:]
        for index in 0..<Self.caseCount {
            var text = Self.reference
            let field = Self.fields[random.below(Self.fields.count)]
            if let at = text.range(of: "\"\(field)\":") {
                var depth = 0
                var stop = text.endIndex
                for position in text[at.upperBound...].indices {
                    let character = text[position]
                    if character == "{" || character == "[" { depth += 1 }
                    if character == "}" || character == "]" { depth -= 1 }
                    if depth < 0 || (depth == 0 && character == ",") {
                        stop = position
                        break
                    }
                }
                text.replaceSubrange(at.upperBound..<stop, with: Self.hostile[random.below(Self.hostile.count)])
            }
            if random.chance(20) { text += random.chance(50) ? "," : "" }
            if random.chance(15) {
                var bytes = Array(text.utf8)
                bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8))
                text = String(decoding: bytes, as: UTF8.self)
            }
            answer.withLock { $0 = text }
            let token = "token-\(index)"
            let submission = PlayPurchaseVerifier.submission(token: token, storeProductID: "gems_small", playerID: "p1")
            let outcome: FulfillmentOutcome
            do throws(LedgerError) {
                outcome = try await ledger.fulfill(submission)
            } catch {
                outcomes["thrown \(error.codeName)", default: 0] += 1
                continue
            }
            outcomes[outcome.name, default: 0] += 1
            guard case .granted(let receipt) = outcome else { continue }
            // What was granted was a purchased gems_small, as the catalog maps its option.
            let decoded = try? JSONDecoder().decode(ProductPurchaseV2.self, from: Data(text.utf8))
            let line = decoded?.lineItem(for: "gems_small")
            let option = line?.productOfferDetails?.purchaseOptionId
            #expect(granted.contains(receipt.record.productID), "case \(index): \(receipt.record.productID)")
            #expect(decoded?.state == .purchased, "case \(index): granted a purchase that is not PURCHASED: \(text)")
            #expect((option?.utf8.count ?? 0) <= StorePurchaseOption.identifierByteCountMax, "case \(index): \(text)")
            let expected: String? =
                switch option {
                case "rent": "gems_small_rental"
                case "bundle-of-3": line?.productOfferDetails?.offerId == "winter-sale" ? "gems_small_bundle_sale" : "gems_small_bundle"
                default: line?.productOfferDetails?.rentOfferDetails == nil ? "gems_small" : nil
                }
            #expect(receipt.record.productID == expected, "case \(index): \(text)")
            let again = try await ledger.fulfill(submission)
            #expect(again.name == "alreadyFulfilled", "case \(index): a redelivery must not grant again")
        }
        #expect(outcomes["granted", default: 0] > 0 && outcomes["rejected", default: 0] > 0, "\(outcomes)")
    }
}
