import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerSimulation
import StripeAdapter
import StripeSimulator
import Testing

/// Seeded fuzzing of the Stripe webhook entry point, run by `swift test`: real events of the
/// simulated account mutated field by field and byte by byte, then signed, so they reach the
/// decoder and the processor; hostile headers too. No input may crash the processor or throw
/// anything but a `LedgerError`; whatever it does is confirmed with the API, so a mutated event
/// never grants or takes back more than the account's own state says.
@Suite struct StripeWebhookFuzzTests {
    static let caseCount = 300

    static let hostile: [String] = [
        "9223372036854775807", "-1", "0", "1e309", "\"\"", "null", "true", "[]", "{}", "\"\\u0000\"",
        "\"" + String(repeating: "x", count: 5_000) + "\"", "\"cs_test_1\"", "\"ch_1\"", "\"evt_1\"", "1.5",
        "\"checkout.session.completed\"", "\"charge.refunded\"", "\"paid\"", "\"../v1/balance\"",
    ]
    static let fields = [
        "id", "object", "type", "created", "livemode", "data", "client_reference_id", "payment_status", "status", "mode",
        "payment_intent", "amount", "amount_refunded", "charge", "currency", "refunded",
    ]

    @Test func hostileWebhooksNeverCrashAndChangeOnlyWhatStripeConfirms() async throws {
        let setup = try StripeSimulatorTests.Setup()
        let (sessionID, paid) = setup.stripe.checkout(player: "p1", lines: [.init(price: "price_gems_small", quantity: 2)])
        #expect(try await setup.deliver(paid).httpStatus == 200)
        let charge = try #require(setup.stripe.chargeID(of: sessionID))
        let refund = try #require(setup.stripe.refund(charge, amount: 499))
        let templates = [paid, refund].map { String(decoding: $0.body, as: UTF8.self) }
        var random = SplitMix64(seed: 20_261_206)
        var outcomes: [String: Int] = [:]
        for index in 0..<Self.caseCount {
            var text = templates[random.below(templates.count)]
            let field = Self.fields[random.below(Self.fields.count)]
            if let at = text.range(of: "\"\(field)\":") {
                let stop = text[at.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) ?? text.endIndex
                text.replaceSubrange(at.upperBound..<stop, with: Self.hostile[random.below(Self.hostile.count)])
            }
            // A fresh event ID, so each case is processed rather than answered as a duplicate.
            text = text.replacingOccurrences(of: #"{"id":"evt_"#, with: #"{"id":"evt_f\#(index)_"#)
            var body = Array(text.utf8)
            if random.chance(20), !body.isEmpty { body[random.below(body.count)] ^= UInt8(1 << random.below(8)) }
            var header = StripeWebhookAuthenticator.signatureHeader(
                body: body, secret: setup.stripe.webhookSecret, timestampSeconds: Int64(setup.clock.now().timeIntervalSince1970))
            if random.chance(10) { header = Self.hostile[random.below(Self.hostile.count)] }
            do throws(LedgerError) {
                let outcome = try await setup.processor.process(signatureHeader: header, body: body)
                outcomes[outcome.name, default: 0] += 1
            } catch {
                outcomes["thrown \(error.codeName)", default: 0] += 1
            }
            // Whatever the mutation, the ledger agrees with the account: 2 packs bought, 1 refunded.
            let gems = try await setup.gems("p1")
            #expect(gems == 100 || gems == 200, "case \(index): \(gems) gems after \(text)")
        }
        #expect(try await setup.gems("p1") == 100, "the confirmed refund, at the latest, is applied once")
        #expect(outcomes.count >= 3, "\(outcomes)")
    }
}
