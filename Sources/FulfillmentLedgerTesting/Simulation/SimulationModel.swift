import Foundation
import FulfillmentLedger

/// The simulator's own account of what every player should have, kept independently of
/// the ledger so the two can be compared after every step.
struct SimulationModel {
    /// Balances, inventory and entitlements a player should hold.
    struct Holdings: Equatable {
        var balances: [String: Int64] = [:]
        var inventory: [String: Int64] = [:]
        var entitlements: Set<String> = []
    }

    var players: [String: Holdings] = [:]
    /// Transactions the ledger has granted, with their player and product.
    var fulfilled: [TransactionKey: (playerID: String, productID: String, quantity: Int)] = [:]
    /// Applied economy operations and their parameters.
    var operations: [String: EconomyOperation] = [:]
    /// Units bought per player, product and period (`lifetime` or a week key).
    var purchaseCounts: [String: Int] = [:]

    static func countKey(_ playerID: String, _ productID: String, _ period: String) -> String {
        "\(playerID)|\(productID)|\(period)"
    }

    /// Applies what one purchase grants.
    mutating func grant(
        _ product: Product, quantity: Int, to playerID: String, key: TransactionKey, purchaseDate: Date
    ) {
        for period in [PurchasePeriod.lifetime, PurchasePeriod.weekKey(for: purchaseDate)] {
            purchaseCounts[Self.countKey(playerID, product.id, period), default: 0] += quantity
        }
        var holdings = players[playerID, default: Holdings()]
        for line in product.rewards.lines {
            switch line.kind {
            case .currency: holdings.balances[line.id, default: 0] += line.quantity * Int64(quantity)
            case .item: holdings.inventory[line.id, default: 0] += line.quantity * Int64(quantity)
            case .entitlement: holdings.entitlements.insert(line.id)
            }
        }
        players[playerID] = holdings
        fulfilled[key] = (playerID, product.id, quantity)
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

    /// Reset Game: progress goes, entitlements and the ledger stay.
    mutating func reset(_ playerID: String) {
        let entitlements = players[playerID]?.entitlements ?? []
        players[playerID] = Holdings(entitlements: entitlements)
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
