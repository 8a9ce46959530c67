import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerSimulation
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// Seeded fuzzing of the Google Play push entry point, run by `swift test`: authenticated push
/// bodies mutated field by field and byte by byte, and hostile headers. No input may crash the
/// processor or throw anything but a `LedgerError` from the ledger itself; whatever is refused
/// leaves the player's balance as it was, and the processor answers a status for every outcome.
@Suite struct PlayNotificationFuzzTests {
    static let caseCount = 400

    /// Values a mutation puts in a notification field.
    static let hostile: [String] = [
        "9223372036854775807", "-1", "0", "1e309", "\"\"", "null", "true", "[]", "{}", "\"\\u0000\"",
        "\"" + String(repeating: "t", count: 5_000) + "\"", "\"99999999999999999999\"", "\"2\"", "3",
    ]
    static let fields = [
        "version", "packageName", "eventTimeMillis", "purchaseToken", "sku", "notificationType", "orderId",
        "productType", "refundType", "oneTimeProductNotification", "voidedPurchaseNotification", "testNotification",
        "pendingRefundReviewNotification", "pendingRefundToken", "refundReason", "obfuscatedAccountId",
    ]

    @Test func hostilePushBodiesNeverCrashAndChangeNothingTheyRefuse() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1", quantity: 3)
        let before = try await setup.ledger.player("p1").balances
        let orderID = try #require(setup.play.storedPurchase(token)?.orderId)
        // Google's review of the order is open, so a review that survives the mutations is answered.
        let reviewToken = setup.play.requestRefundReview(orderID: orderID).pendingRefundToken
        var random = SplitMix64(seed: 20_261_201)
        var outcomes: [String: Int] = [:]
        for index in 0..<Self.caseCount {
            var notification = DeveloperNotification()
            if random.chance(25) {
                notification.pendingRefundReviewNotification = .init(
                    pendingRefundToken: reviewToken, orderId: orderID, refundReason: 7, obfuscatedAccountId: "p1")
            } else if random.chance(50) {
                notification.voidedPurchaseNotification = .init(
                    purchaseToken: token, orderId: nil, productType: 2, refundType: 1 + random.below(2))
            } else {
                notification.oneTimeProductNotification = .init(
                    version: "1.0", notificationType: 1 + random.below(2), purchaseToken: token, sku: "gems_small")
            }
            let envelope = setup.play.envelope(notification, messageID: "m\(index)")
            var text = String(decoding: envelope, as: UTF8.self)
            // The notification itself is base64 inside the envelope: mutate its decoded JSON.
            if let range = text.range(of: #""data":""#), let end = text[range.upperBound...].firstIndex(of: "\""),
                let decoded = Data(base64Encoded: String(text[range.upperBound..<end])),
                var inner = String(data: decoded, encoding: .utf8)
            {
                let field = Self.fields[random.below(Self.fields.count)]
                if let at = inner.range(of: "\"\(field)\":") {
                    let stop = inner[at.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) ?? inner.endIndex
                    inner.replaceSubrange(at.upperBound..<stop, with: Self.hostile[random.below(Self.hostile.count)])
                }
                text.replaceSubrange(range.upperBound..<end, with: Data(inner.utf8).base64EncodedString())
            }
            var body = Array(text.utf8)
            if random.chance(25), !body.isEmpty { body[random.below(body.count)] ^= UInt8(1 << random.below(8)) }
            var headers = try setup.signer.headers()
            if random.chance(10) { headers["Authorization"] = Self.hostile[random.below(Self.hostile.count)] }
            let outcome: PlayNotificationOutcome
            var processor = setup.processor()
            processor.refundReviewSender = PlayRefundReviewSender(
                api: setup.play, packageName: PlayLedgerSetup.packageName, ledger: setup.ledger)
            do throws(LedgerError) {
                outcome = try await processor.process(headers: headers, body: Data(body))
            } catch {
                outcomes["thrown \(error.codeName)", default: 0] += 1
                continue
            }
            outcomes[String(describing: outcome).prefix(while: { $0 != "(" }).description, default: 0] += 1
            switch outcome {
            case .unauthenticated, .rejected:
                await #expect(try setup.ledger.player("p1").balances["gems", default: 0] <= before["gems", default: 0])
            default: break
            }
        }
        #expect(outcomes["rejected", default: 0] > 0, "\(outcomes)")
        #expect(outcomes["refundReview", default: 0] > 0, "some reviews survive the mutations and are answered: \(outcomes)")
        #expect(setup.play.refundReviewAnswerCount(orderID: orderID) <= 1, "Google records one answer at most")
        #expect(outcomes.keys.contains { $0.hasPrefix("thrown") } == false, "nothing reaches the ledger as a throw: \(outcomes)")
        // However the pushes went, the purchase was refunded at most in full, never below.
        let after = try await setup.ledger.player("p1").balances["gems", default: 0]
        #expect(after >= 0 && after <= 300)
    }
}
