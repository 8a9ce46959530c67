import Foundation
import FulfillmentLedger

/// An order as Steam holds it (`QueryTxn`, or one of `GetReport`'s `orders`): who paid, its
/// status, and its items.
public struct SteamOrder: Decodable, Sendable, Hashable {
    /// The game's own 64-bit order ID, given to InitTxn.
    public var orderID: UInt64
    /// Steam's 64-bit transaction ID.
    public var transactionID: UInt64?
    /// The buyer's 64-bit Steam ID.
    public var steamID: UInt64
    /// The order's status.
    public var status: SteamOrderStatus
    /// ISO 4217 currency code.
    public var currency: String?
    /// When the status last changed (RFC 3339, UTC): what GetReport orders and pages by.
    public var time: Date?
    /// When the order was made.
    public var timeCreated: Date?
    /// ISO 3166 country code of the buyer.
    public var country: String?
    /// The order's items.
    public var items: [SteamOrderItem]

    /// Creates an order.
    public init(
        orderID: UInt64, transactionID: UInt64?, steamID: UInt64, status: SteamOrderStatus, currency: String? = nil,
        time: Date?, timeCreated: Date? = nil, country: String? = nil, items: [SteamOrderItem]
    ) {
        self.orderID = orderID
        self.transactionID = transactionID
        self.steamID = steamID
        self.status = status
        self.currency = currency
        self.time = time
        self.timeCreated = timeCreated
        self.country = country
        self.items = items
    }

    private enum CodingKeys: String, CodingKey {
        case orderid, transid, steamid, status, currency, time, timecreated, country, items
    }

    /// Decodes Steam's order: 64-bit IDs as strings (or numbers), times as RFC 3339.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        orderID = try SteamWireNumber.uint64(container, .orderid)
        transactionID = try SteamWireNumber.uint64IfPresent(container, .transid)
        steamID = try SteamWireNumber.uint64(container, .steamid)
        status = try container.decode(SteamOrderStatus.self, forKey: .status)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        time = try SteamWireNumber.dateIfPresent(container, .time)
        timeCreated = try SteamWireNumber.dateIfPresent(container, .timecreated)
        country = try container.decodeIfPresent(String.self, forKey: .country)
        items = try container.decodeIfPresent([SteamOrderItem].self, forKey: .items) ?? []
    }

    /// The item `itemID`, if the order has it.
    public func item(_ itemID: UInt32) -> SteamOrderItem? { items.first { $0.itemID == itemID } }
}

/// One item of a Steam order: the game's item ID, a quantity and what it cost.
public struct SteamOrderItem: Decodable, Sendable, Hashable {
    /// The game's 32-bit item ID: the catalog's `steam` store product ID.
    public var itemID: UInt32
    /// Units bought.
    public var quantity: Int
    /// The item's total cost, in the currency's smallest unit (cents).
    public var amount: Int64
    /// Tax on it, in the same unit.
    public var vat: Int64?
    /// The item's own status: it differs from the order's after a partial refund.
    public var status: SteamOrderStatus?

    /// Creates an item.
    public init(itemID: UInt32, quantity: Int, amount: Int64, vat: Int64? = nil, status: SteamOrderStatus? = nil) {
        self.itemID = itemID
        self.quantity = quantity
        self.amount = amount
        self.vat = vat
        self.status = status
    }

    private enum CodingKeys: String, CodingKey { case itemid, qty, amount, vat, itemstatus }

    /// Decodes Steam's item.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let wide = try SteamWireNumber.uint64(container, .itemid)
        guard let itemID = UInt32(exactly: wide) else {
            throw DecodingError.dataCorruptedError(forKey: .itemid, in: container, debugDescription: "itemid \(wide) is over 32 bits")
        }
        self.itemID = itemID
        quantity = Int(clamping: try SteamWireNumber.uint64(container, .qty))
        amount = Int64(clamping: try SteamWireNumber.uint64(container, .amount))
        vat = try SteamWireNumber.uint64IfPresent(container, .vat).map { Int64(clamping: $0) }
        status = try container.decodeIfPresent(SteamOrderStatus.self, forKey: .itemstatus)
    }

    /// The item's effective status within an order of `orderStatus`: its own when it has one.
    public func effectiveStatus(in orderStatus: SteamOrderStatus) -> SteamOrderStatus { status ?? orderStatus }
}
