import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTPClient
import LedgerSimulation
import SteamAdapter
import SteamSimulator
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Seeded fuzzing of what the ledger reads from Steam, run by `swift test`: the simulated Steam's
/// answers to InitTxn, FinalizeTxn, QueryTxn and GetReport, a field at a time replaced by a value
/// out of its type or range, through the real client, verifier, processor and report sync. No
/// answer may crash anything or throw anything but a `LedgerError`; an unreadable answer grants
/// nothing; and once Steam answers plainly again, one sync leaves the ledger exactly where Steam is.
@Suite struct SteamAnswerFuzzTests {
    static let caseCount = 150

    static let hostile: [String] = [
        "18446744073709551616", "-1", "0", "1e309", "1.5", "\"\"", "null", "true", "[]", "{}", "\"\\u0000\"",
        "\"" + String(repeating: "9", count: 5_000) + "\"", "\"yesterday\"", "\"2026-13-45T99:99:99Z\"", "\"042\"",
        "\"Frozen\"", "\"OK\"", "\"Failure\"",
    ]
    static let fields = ["orderid", "transid", "steamid", "status", "time", "timecreated", "items", "itemid", "qty", "amount", "itemstatus", "result", "orders", "params"]

    /// Passes requests to the simulated Steam and mutates a share of its answers.
    final class MutatingSteam: HTTPTransport, Sendable {
        let steam: SteamSimulator
        let state: Mutex<(random: SplitMix64, percent: Int, mutated: Int)>

        init(_ steam: SteamSimulator, seed: UInt64) {
            self.steam = steam
            state = Mutex((SplitMix64(seed: seed), 30, 0))
        }

        func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse {
            var answer = try await steam.send(request)
            state.withLock { state in
                guard state.random.chance(state.percent) else { return }
                var text = String(decoding: answer.body, as: UTF8.self)
                let field = SteamAnswerFuzzTests.fields[state.random.below(SteamAnswerFuzzTests.fields.count)]
                guard let at = text.range(of: "\"\(field)\":") else { return }
                let stop = text[at.upperBound...].firstIndex(where: { $0 == "," || $0 == "}" }) ?? text.endIndex
                text.replaceSubrange(at.upperBound..<stop, with: SteamAnswerFuzzTests.hostile[state.random.below(SteamAnswerFuzzTests.hostile.count)])
                answer.body = Data(text.utf8)
                state.mutated += 1
            }
            return answer
        }
    }

    @Test func mutatedAnswersNeverCrashNorGrantAndOneCleanSyncAgreesWithSteam() async throws {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_796_000_000))
        let steam = SteamSimulator(clock: clock)
        let mutating = MutatingSteam(steam, seed: 20_261_207)
        let noSleep: HTTPRetrySleep = { _ in }
        let api = try #require(
            SteamWebAPIClient(
                key: steam.key, appID: steam.appID, sandbox: true, transport: mutating, retryPolicy: HTTPRetryPolicy(retryCountMax: 1),
                clock: clock, sleep: noSleep))
        let ledger = try Ledger(
            catalog: try SteamTestSetup.catalog(), store: InMemoryLedgerStore(),
            verifier: StoreRoutingVerifier([.steam: SteamOrderVerifier(api: api, environment: .sandbox)]),
            finisher: StoreRoutingFinisher([.steam: SteamFinisher()]), clock: clock,
            configuration: LedgerConfiguration(environment: .sandbox))
        let processor = SteamOrderProcessor(api: api, ledger: ledger)
        var random = SplitMix64(seed: 7)
        var outcomes: [String: Int] = [:]
        var chargedGemsMax: Int64 = 0
        for index in 0..<Self.caseCount {
            let orderID = UInt64(1_000 + index)
            let quantity = 1 + random.below(3)
            clock.advance(seconds: 5)
            do throws(LedgerError) {
                let started = try await processor.start(SteamTestSetup.request(orderID, [(SteamTestSetup.gemsSmall, quantity)]))
                outcomes["start \(started.name)", default: 0] += 1
                if random.chance(80) { steam.approve(orderID) } else { steam.decline(orderID) }
                let answered = try await processor.authorize(orderID: orderID, authorized: true)
                outcomes["authorize \(answered.name)", default: 0] += 1
                if random.chance(25) { steam.refund(orderID) }
                if random.chance(20) { outcomes["sync", default: 0] += try await SteamReportSync(processor: processor).run().pagesRead }
            } catch {
                outcomes["thrown \(error.codeName)", default: 0] += 1
            }
            if steam.status(of: orderID)?.wasCharged == true { chargedGemsMax += Int64(100 * quantity) }
            let gems = try await ledger.player(SteamTestSetup.player).balances["gems"] ?? 0
            #expect(gems >= 0 && gems <= chargedGemsMax, "case \(index): \(gems) gems, Steam charged at most \(chargedGemsMax)")
        }
        // Steam answers plainly again: one sync (reading far enough back) brings the ledger to Steam's state.
        mutating.state.withLock { $0.percent = 0 }
        var sync = SteamReportSync(processor: processor)
        sync.overlapSeconds = 7 * 24 * 60 * 60
        _ = try await sync.run()
        var expected: Int64 = 0
        for index in 0..<Self.caseCount where steam.status(of: UInt64(1_000 + index)) == .succeeded {
            let order = try #require(try await Self.order(api, UInt64(1_000 + index)))
            expected += Int64(100 * (order.items.first?.quantity ?? 0))
        }
        #expect(try await ledger.player(SteamTestSetup.player).balances["gems"] ?? 0 == expected)
        #expect(mutating.state.withLock { $0.mutated } > 50 && outcomes.count >= 4, "\(outcomes)")
    }

    static func order(_ api: SteamWebAPIClient, _ orderID: UInt64) async throws -> SteamOrder? {
        guard case .ok(let order) = try await api.queryTxn(orderID: orderID) else { return nil }
        return order
    }
}
