import Foundation

/// A game-side economy change (a spend or a grant), idempotent by its operation ID.
///
/// Purchases and the game's own operations share one balance table, so balances have one
/// source of truth.
public struct EconomyOperation: Hashable, Sendable, Codable {
    /// Spend removes units; grant adds them.
    public enum Direction: String, Hashable, Sendable, Codable {
        /// Remove units; fails cleanly when the balance is short.
        case spend
        /// Add units.
        case grant
    }

    /// The caller's unique ID for this operation; a retry with the same ID applies nothing.
    public var operationID: String
    /// The player.
    public var playerID: String
    /// Spend or grant.
    public var direction: Direction
    /// A currency or an item (entitlements come only from purchases).
    public var asset: AssetKind
    /// The catalog ID of the currency or item.
    public var assetID: String
    /// Units, always positive.
    public var amount: Int64

    /// Creates an operation.
    public init(
        operationID: String, playerID: String, direction: Direction, asset: AssetKind, assetID: String,
        amount: Int64
    ) {
        self.operationID = operationID
        self.playerID = playerID
        self.direction = direction
        self.asset = asset
        self.assetID = assetID
        self.amount = amount
    }

    /// A spend of currency.
    public static func spend(
        _ amount: Int64, of currencyID: String, player playerID: String, operationID: String
    ) -> EconomyOperation {
        EconomyOperation(
            operationID: operationID, playerID: playerID, direction: .spend, asset: .currency,
            assetID: currencyID, amount: amount)
    }

    /// A grant of currency (a quest reward, a daily bonus).
    public static func grant(
        _ amount: Int64, of currencyID: String, player playerID: String, operationID: String
    ) -> EconomyOperation {
        EconomyOperation(
            operationID: operationID, playerID: playerID, direction: .grant, asset: .currency,
            assetID: currencyID, amount: amount)
    }
}

/// An applied economy operation, as stored.
public struct OperationRecord: Hashable, Sendable, Codable {
    /// The operation as requested.
    public var operation: EconomyOperation
    /// The balance or stack size right after it applied.
    public var balanceAfter: Int64
    /// When it applied.
    public var appliedAt: Date

    /// Creates a record.
    public init(operation: EconomyOperation, balanceAfter: Int64, appliedAt: Date) {
        self.operation = operation
        self.balanceAfter = balanceAfter
        self.appliedAt = appliedAt.truncatedToLedgerMilliseconds
    }
}

/// Why an economy operation was refused; nothing changed.
public enum OperationRejectionReason: String, Hashable, Sendable, Codable, CaseIterable {
    /// The balance or stack is smaller than the spend.
    case insufficientFunds
    /// The currency or item is not in the catalog, or the asset kind is an entitlement.
    case unknownAsset
    /// The amount is zero, negative, or above the per-operation limit.
    case invalidAmount
    /// The operation ID was already used with different parameters.
    case conflictOperation

    /// The stable numeric code (see Docs/ErrorCodes.md).
    public var code: Int {
        switch self {
        case .insufficientFunds: 301
        case .unknownAsset: 302
        case .invalidAmount: 303
        case .conflictOperation: 304
        }
    }
}

/// The result of an economy operation.
public enum OperationOutcome: Hashable, Sendable {
    /// Applied now.
    case applied(OperationRecord)
    /// Applied earlier with the same ID and parameters; nothing changed now.
    case alreadyApplied(OperationRecord)
    /// Refused; nothing changed.
    case rejected(OperationRejectionReason, message: String)
}
