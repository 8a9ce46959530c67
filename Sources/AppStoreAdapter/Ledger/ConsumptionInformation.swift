import Foundation
import FulfillmentLedger

/// The answer to an App Store `CONSUMPTION_REQUEST`, built from the ledger: the body the
/// game server sends to Apple's Send Consumption Information endpoint. Field names and
/// integer values are Apple's.
public struct ConsumptionInformation: Hashable, Sendable, Codable {
    /// Whether the player consented to sharing this data; Apple ignores the request without it.
    public var customerConsented: Bool
    /// 0 undeclared, 1 not consumed, 2 partially consumed, 3 fully consumed.
    public var consumptionStatus: Int
    /// 1: an Apple platform.
    public var platform: Int
    /// Whether a free sample or trial was provided; the ledger does not know, so false.
    public var sampleContentProvided: Bool
    /// 0 delivered and working; 5 not delivered for another reason (no ledger record).
    public var deliveryStatus: Int
    /// The player's app account token, if the transaction carried one.
    public var appAccountToken: String
    /// 0: undeclared (the ledger does not track account age).
    public var accountTenure: Int
    /// 0: undeclared.
    public var playTime: Int
    /// 0: undeclared.
    public var lifetimeDollarsRefunded: Int
    /// 0: undeclared.
    public var lifetimeDollarsPurchased: Int
    /// 0: undeclared.
    public var userStatus: Int
    /// 0 undeclared, 1 prefer to grant the refund, 2 prefer to decline, 3 no preference.
    public var refundPreference: Int

    /// Builds the answer for a transaction from what the ledger holds.
    ///
    /// A consumable counts as consumed by how much of each granted currency and item the
    /// player no longer holds; a non-consumable is undeclared.
    public static func build(
        for key: TransactionKey, appAccountToken: String?, ledger: Ledger, customerConsented: Bool,
        refundPreference: Int
    ) async throws(LedgerError) -> ConsumptionInformation {
        let record = try await ledger.purchaseRecord(key)?.0
        var status = 0
        if let record, record.productKind == .consumable {
            let snapshot = try await ledger.player(record.playerID)
            status = consumptionStatus(of: record, balances: snapshot.balances, inventory: snapshot.inventory)
        }
        return ConsumptionInformation(
            customerConsented: customerConsented, consumptionStatus: status, platform: 1, sampleContentProvided: false,
            deliveryStatus: record == nil ? 5 : 0, appAccountToken: appAccountToken ?? "", accountTenure: 0, playTime: 0,
            lifetimeDollarsRefunded: 0, lifetimeDollarsPurchased: 0, userStatus: 0, refundPreference: refundPreference)
    }

    /// 1 when the player still holds everything granted, 3 when nothing, 2 in between.
    static func consumptionStatus(
        of record: TransactionRecord, balances: [String: Int64], inventory: [String: Int64]
    ) -> Int {
        var granted: Int64 = 0
        var held: Int64 = 0
        for line in record.grants where line.kind != .entitlement {
            let current = (line.kind == .currency ? balances[line.id] : inventory[line.id]) ?? 0
            granted += line.quantity
            held += max(0, min(current, line.quantity))
        }
        guard granted > 0 else { return 0 }
        if held >= granted { return 1 }
        return held == 0 ? 3 : 2
    }
}
