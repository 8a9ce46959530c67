import Foundation
import FulfillmentLedger

/// The simulator's own account of what every player should have, kept independently of
/// the ledger so the two can be compared after every step.
struct SimulationModel {
    /// Balances and inventory a player should hold. Entitlements are not kept here: they
    /// follow from the purchases in force (`entitlements(of:)`).
    struct Holdings: Equatable {
        var balances: [String: Int64] = [:]
        var inventory: [String: Int64] = [:]
    }

    /// What one refund or revoke took, so a reversal can give it back.
    struct TakeBack {
        var eventID: String
        var currencies: [String: Int64] = [:]
        var items: [String: Int64] = [:]
        /// Debt the take-back left, per currency.
        var debt: [String: Int64] = [:]
        var appliedAt: Date
    }

    /// A purchase the ledger granted.
    struct Purchase {
        var playerID: String
        var productID: String
        var quantity: Int
        var store: PlatformStore
        /// When the ledger fulfilled it, and when a reversal last reinstated it.
        var fulfilledAt: Date
        var lastReversalAt: Date?
        var refundedUnits = 0
        var revoked = false
        var takeBacks: [TakeBack] = []

        /// Not refunded in full and not revoked: it still pays for its entitlements.
        var isInForce: Bool { !revoked && refundedUnits < quantity }
    }

    var players: [String: Holdings] = [:]
    /// Purchases the ledger has granted, by ledger key.
    var fulfilled: [TransactionKey: Purchase] = [:]
    /// When each player was last reset.
    var lastReset: [String: Date] = [:]
    /// Applied economy operations and their parameters.
    var operations: [String: EconomyOperation] = [:]
    /// Units bought per player, product and period (`lifetime` or a week key).
    var purchaseCounts: [String: Int] = [:]

    static func countKey(_ playerID: String, _ productID: String, _ period: String) -> String {
        "\(playerID)|\(productID)|\(period)"
    }

    /// Applies what one purchase grants.
    mutating func grant(
        _ product: Product, quantity: Int, to playerID: String, key: TransactionKey, purchaseDate: Date,
        fulfilledAt: Date
    ) {
        for period in [PurchasePeriod.lifetime, PurchasePeriod.weekKey(for: purchaseDate)] {
            purchaseCounts[Self.countKey(playerID, product.id, period), default: 0] += quantity
        }
        var holdings = players[playerID, default: Holdings()]
        for line in product.rewards.lines {
            switch line.kind {
            case .currency: holdings.balances[line.id, default: 0] += line.quantity * Int64(quantity)
            case .item: holdings.inventory[line.id, default: 0] += line.quantity * Int64(quantity)
            case .entitlement: continue
            }
        }
        players[playerID] = holdings
        fulfilled[key] = Purchase(
            playerID: playerID, productID: product.id, quantity: quantity, store: key.store, fulfilledAt: fulfilledAt)
    }

    /// The entitlements a player owns: exactly those some purchase in force pays for.
    func entitlements(of playerID: String, catalog: ProductCatalog) -> Set<String> {
        var owned = Set<String>()
        for purchase in fulfilled.values where purchase.playerID == playerID && purchase.isInForce {
            for line in catalog.product(id: purchase.productID)?.rewards.lines ?? [] where line.kind == .entitlement {
                owned.insert(line.id)
            }
        }
        return owned
    }

    /// Takes back `units` of purchase `key` (all that is left for a revoke) under clawback:
    /// currencies exactly, items while held. Returns what it took.
    mutating func takeBack(
        _ key: TransactionKey, units: Int, revoke: Bool, eventID: String, catalog: ProductCatalog, at date: Date
    ) -> TakeBack? {
        guard var purchase = fulfilled[key], purchase.isInForce, let product = catalog.product(id: purchase.productID)
        else { return nil }
        let taken = revoke ? purchase.quantity - purchase.refundedUnits : min(units, purchase.quantity - purchase.refundedUnits)
        var record = TakeBack(eventID: eventID, appliedAt: date)
        var holdings = players[purchase.playerID, default: Holdings()]
        for line in product.rewards.lines {
            let amount = line.quantity * Int64(taken)
            switch line.kind {
            case .currency:
                let after = holdings.balances[line.id, default: 0] - amount
                holdings.balances[line.id] = after
                if amount > 0 { record.currencies[line.id] = amount }
                if after < 0 { record.debt[line.id] = min(amount, -after) }
            case .item:
                let held = holdings.inventory[line.id, default: 0]
                let removed = max(0, min(amount, held))
                holdings.inventory[line.id] = held - removed
                if removed > 0 { record.items[line.id] = removed }
            case .entitlement:
                continue
            }
        }
        players[purchase.playerID] = holdings
        purchase.refundedUnits += taken
        if revoke { purchase.revoked = true }
        purchase.takeBacks.append(record)
        fulfilled[key] = purchase
        return record
    }

    /// Gives back what the purchase's take-backs took, as the ledger does: after a reset
    /// that followed a take-back, only the debt it left is cancelled.
    mutating func reverse(_ key: TransactionKey, at date: Date) -> (currencies: [String: Int64], items: [String: Int64])? {
        guard var purchase = fulfilled[key], !purchase.takeBacks.isEmpty else { return nil }
        var given: (currencies: [String: Int64], items: [String: Int64]) = ([:], [:])
        var holdings = players[purchase.playerID, default: Holdings()]
        for record in purchase.takeBacks {
            let afterReset = lastReset[purchase.playerID].map { $0 > record.appliedAt } ?? false
            for (currency, amount) in record.currencies.sorted(by: { $0.key < $1.key }) {
                let owed = max(0, -holdings.balances[currency, default: 0])
                let give = afterReset ? min(amount, record.debt[currency] ?? 0, owed) : amount
                holdings.balances[currency, default: 0] += give
                if give > 0 { given.currencies[currency, default: 0] += give }
            }
            guard !afterReset else { continue }
            for (item, amount) in record.items {
                holdings.inventory[item, default: 0] += amount
                given.items[item, default: 0] += amount
            }
        }
        players[purchase.playerID] = holdings
        purchase.takeBacks = []
        purchase.refundedUnits = 0
        purchase.revoked = false
        purchase.lastReversalAt = date
        fulfilled[key] = purchase
        return given
    }

    /// The current amount of a currency or item.
    func amount(of asset: AssetKind, _ id: String, for playerID: String) -> Int64 {
        let holdings = players[playerID] ?? Holdings()
        return asset == .currency ? holdings.balances[id] ?? 0 : holdings.inventory[id] ?? 0
    }

    /// Applies a spend or grant the ledger accepted.
    mutating func apply(_ operation: EconomyOperation) {
        var holdings = players[operation.playerID, default: Holdings()]
        let delta = operation.direction == .spend ? -operation.amount : operation.amount
        if operation.asset == .currency {
            holdings.balances[operation.assetID, default: 0] += delta
        } else {
            holdings.inventory[operation.assetID, default: 0] += delta
        }
        players[operation.playerID] = holdings
        operations[operation.operationID] = operation
    }

    /// Reset Game: progress goes; debt, entitlements and the ledger stay.
    mutating func reset(_ playerID: String, at date: Date) {
        let debt = (players[playerID]?.balances ?? [:]).filter { $0.value < 0 }
        players[playerID] = Holdings(balances: debt)
        lastReset[playerID] = date
        purchaseCounts = purchaseCounts.filter { !$0.key.hasPrefix(playerID + "|") }
    }

    /// The holdings without zero entries, as the ledger reports them.
    func normalized(_ playerID: String) -> Holdings {
        var holdings = players[playerID] ?? Holdings()
        holdings.balances = holdings.balances.filter { $0.value != 0 }
        holdings.inventory = holdings.inventory.filter { $0.value != 0 }
        return holdings
    }
}
