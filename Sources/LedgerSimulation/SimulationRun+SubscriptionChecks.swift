import Foundation
import FulfillmentLedger

/// The subscription invariants, checked after every step for the App Store subscribers and the
/// Play subscribers alike.
extension SimulationRun {
    /// The subscription invariants at the clock's now. For every subscriber: each period granted
    /// once, gems for exactly the unrefunded periods, never entitled past the latest end (grace
    /// included), at most one entitlement per chain. For the App Store subscribers also: entitled
    /// while the latest period runs unrefunded and the store has not ended it; never entitled, nor
    /// stored as active, once the store's most recent word ended the chain (whatever order its
    /// notifications arrived in); never entitled by a refunded latest period; and the chain on the
    /// product of the period that started last (an upgrade replaces a longer period at once).
    func checkSubscriptionInvariants() async throws(SimulationViolation) {
        try await checkPlaySubscriptionInvariants()
        guard let product = subscriptionProduct else { return }
        let tiers = [product, subscriptionTiers.longer, subscriptionTiers.higher].compactMap { $0 }
        let entitlementLines = tiers.flatMap(\.rewards.lines).filter { $0.kind == .entitlement }
        let now = clock.now()
        for player in SubscriptionTraffic.subscribers {
            let chain = subscriptions.chains[player]
            let bound = [chain?.latestEnd, chain?.graceEnd].compactMap { $0 }.max()
            let gems = chain.map { chain in
                chain.granted.keys.filter { !chain.refunded.contains($0) }
                    .map { periodGems(options.catalog.product(id: chain.productOfPeriod[$0] ?? "")) }.reduce(0, +)
            }
            let (readings, snapshot, entitled) = try await checkSubscriber(
                player, product: product, granted: Set(chain?.granted.keys.map { $0 } ?? []), expectedGems: gems ?? 0,
                bound: bound)
            // At most one active entitlement per chain.
            for line in entitlementLines where (snapshot.paidBy[line.id]?.count ?? 0) > readings.count {
                throw violation("\(player): \(line.id) is paid by \(snapshot.paidBy[line.id] ?? []) from \(readings.count) chain(s)")
            }
            guard let chain, let latest = chain.latestPeriodID, let end = chain.latestEnd else { continue }
            try checkOrder(chain, player: player, latest: latest, reading: readings.first, entitled: entitled)
            // Entitled while the latest period runs, unrefunded and not lapsed.
            if now < end, !chain.lapsed, !chain.refunded.contains(latest), !entitled {
                throw violation("\(player) is not entitled at \(now) inside period \(latest), which ends \(end)")
            }
        }
    }

    /// The invariants of the store's order for one App Store chain whose latest granted period is
    /// `latest`, and the ledger's `reading` of it.
    private func checkOrder(
        _ chain: SubscriptionTraffic.Chain, player: String, latest: String, reading: SubscriptionReading?, entitled: Bool
    ) throws(SimulationViolation) {
        let now = clock.now()
        // The store's most recent word ended the chain (an expiry, a failed renewal past its grace).
        if chain.lapsed {
            if entitled, chain.graceEnd.map({ now >= $0 }) ?? true {
                throw violation("\(player) is entitled at \(now) though Apple's latest word (signed \(chain.stateSignedAt)) ended it")
            }
            if reading?.subscription.state == .active {
                throw violation("\(player)'s chain is stored active though Apple's latest word (signed \(chain.stateSignedAt)) ended it")
            }
        }
        // A refunded latest period never entitles, whether its refund came before or after it.
        if chain.refunded.contains(latest), entitled {
            throw violation("\(player) is entitled at \(now) by period \(latest), which was refunded")
        }
        // The chain is on the product of the period that started last.
        if let reading, let productID = chain.productOfPeriod[latest], reading.subscription.productID != productID {
            throw violation("\(player)'s chain is on \(reading.subscription.productID); its latest period \(latest) is \(productID)")
        }
    }

    /// The currency one period of `product` grants.
    private func periodGems(_ product: Product?) -> Int64 {
        product?.periodRewards?.lines.first { $0.kind == .currency }?.quantity ?? 0
    }

    /// The invariants every subscriber keeps, whichever store sold the subscription: each period in
    /// `granted` held once and nothing else, exactly `expectedGems` of `product`'s period currency
    /// (the unrefunded periods'), and no entitlement at or past `bound` (the latest end, grace
    /// included, the ledger can know of). Returns the subscriber's chains, entitlements and whether
    /// `product` entitles them now.
    func checkSubscriber(
        _ player: String, product: Product, granted: Set<String>, expectedGems: Int64, bound: Date?
    ) async throws(SimulationViolation) -> (readings: [SubscriptionReading], snapshot: EntitlementSnapshot, entitled: Bool) {
        let ledger = try currentLedger()
        let now = clock.now()
        let currency = product.periodRewards?.lines.first { $0.kind == .currency }?.id
        let (readings, snapshot, gems): ([SubscriptionReading], EntitlementSnapshot, Int64)
        do throws(LedgerError) {
            readings = try await ledger.subscriptions(player)
            snapshot = try await ledger.entitlements(player)
            gems = try await ledger.player(player).balances[currency ?? ""] ?? 0
        } catch {
            throw violation("cannot read \(player)'s subscriptions: \(error)")
        }
        let periods = readings.flatMap(\.periods).map(\.periodID)
        // Each paid period granted exactly once.
        guard periods.count == Set(periods).count, Set(periods) == granted,
            readings.map(\.subscription.periodCount).reduce(0, +) == granted.count
        else { throw violation("\(player): the ledger holds periods \(periods.sorted()); the model granted \(granted.sorted())") }
        // A refunded period's rewards taken back once.
        if let currency, gems != expectedGems {
            throw violation("\(player) holds \(gems) \(currency); the unrefunded periods grant \(expectedGems)")
        }
        // Never entitled past expiry plus grace.
        let entitled = product.rewards.lines.contains { snapshot.statuses[$0.id] == .owned }
        if entitled, bound.map({ now >= $0 }) ?? true {
            throw violation("\(player) is entitled at \(now) past the end \(String(describing: bound)) plus grace")
        }
        return (readings, snapshot, entitled)
    }
}
