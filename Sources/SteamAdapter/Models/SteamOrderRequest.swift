import Foundation

/// What the game asks Steam to charge (`InitTxn`): its own order ID, the buyer, and the cart.
/// `validate()` checks Steam's documented limits before anything is sent.
public struct SteamOrderRequest: Sendable, Hashable, Codable {
    /// How the player pays: in the Steam client's overlay, or on Steam's web page (`steamurl`).
    public enum UserSession: String, Sendable, Hashable, Codable {
        /// The overlay of a logged-in Steam client (Steam's default).
        case client
        /// A browser: InitTxn answers a `steamurl` to send the player to, and needs `ipAddress`.
        case web
    }

    /// One line of the cart.
    public struct Line: Sendable, Hashable, Codable {
        /// The game's 32-bit item ID: a catalog product's `steam` store product ID.
        public var itemID: UInt32
        /// Units (Steam's 16-bit `qty`).
        public var quantity: Int
        /// The line's total (quantity × unit price), in hundredths of the currency (cents).
        public var amount: Int64
        /// Shown to the player; at most 128 characters.
        public var description: String
        /// A grouping for Steam's reports, never shown; at most 64 characters.
        public var category: String?

        /// Creates a line.
        public init(itemID: UInt32, quantity: Int, amount: Int64, description: String, category: String? = nil) {
            self.itemID = itemID
            self.quantity = quantity
            self.amount = amount
            self.description = description
            self.category = category
        }
    }

    /// The game's own order ID, unique for the app: the first part of every ledger key of the order.
    public var orderID: UInt64
    /// The buyer's 64-bit Steam ID.
    public var steamID: UInt64
    /// ISO 639-1 language of the descriptions, such as `en`.
    public var language: String
    /// ISO 4217 currency of the amounts, such as `USD`.
    public var currency: String
    /// The overlay or the web.
    public var userSession: UserSession
    /// The player's IP address; required for a web session.
    public var ipAddress: String?
    /// The cart.
    public var lines: [Line]

    /// Most lines one order may have: Steam documents none, so the ledger sets one.
    public static let lineCountMax = 100
    /// Steam's largest quantity (InitTxn v3 takes a 16-bit `qty`).
    public static let quantityMax = 32_767
    /// Longest description, in characters.
    public static let descriptionCharacterCountMax = 128
    /// Longest category, in characters.
    public static let categoryCharacterCountMax = 64
    /// Longest IP address, in characters (an IPv6 address with an IPv4 tail).
    public static let ipAddressCharacterCountMax = 45
    /// Largest line amount: a billion units of the currency, in hundredths.
    public static let amountMax: Int64 = 100_000_000_000

    /// Creates a request.
    public init(
        orderID: UInt64, steamID: UInt64, language: String, currency: String, userSession: UserSession = .client,
        ipAddress: String? = nil, lines: [Line]
    ) {
        self.orderID = orderID
        self.steamID = steamID
        self.language = language
        self.currency = currency
        self.userSession = userSession
        self.ipAddress = ipAddress
        self.lines = lines
    }

    /// Why Steam would refuse this request, checked before it is sent; nil when it is well formed.
    public func validate() -> String? {
        guard orderID != 0 else { return "orderID must not be 0" }
        guard steamID != 0 else { return "steamID must not be 0" }
        guard language.count == 2, language.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
            return "language must be an ISO 639-1 code such as en"
        }
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            return "currency must be an ISO 4217 code such as USD"
        }
        if userSession == .web, (ipAddress ?? "").isEmpty { return "a web session needs the player's ipAddress" }
        if let ipAddress, !(1...Self.ipAddressCharacterCountMax).contains(ipAddress.unicodeScalars.count) {
            return "ipAddress must be 1 to \(Self.ipAddressCharacterCountMax) characters"
        }
        guard (1...Self.lineCountMax).contains(lines.count) else { return "an order has 1 to \(Self.lineCountMax) lines" }
        var seen = Set<UInt32>()
        for (index, line) in lines.enumerated() {
            let at = "lines[\(index)]"
            guard line.itemID != 0 else { return "\(at).itemID must not be 0" }
            guard seen.insert(line.itemID).inserted else { return "\(at): item \(line.itemID) is listed twice; give one line its quantity" }
            guard (1...Self.quantityMax).contains(line.quantity) else { return "\(at).quantity must be 1 to \(Self.quantityMax)" }
            guard (0...Self.amountMax).contains(line.amount) else { return "\(at).amount must be 0 to \(Self.amountMax) hundredths" }
            // Characters as Unicode scalars, as JSON Schema's maxLength counts them.
            guard (1...Self.descriptionCharacterCountMax).contains(line.description.unicodeScalars.count) else {
                return "\(at).description must be 1 to \(Self.descriptionCharacterCountMax) characters"
            }
            if let category = line.category, !(1...Self.categoryCharacterCountMax).contains(category.unicodeScalars.count) {
                return "\(at).category must be 1 to \(Self.categoryCharacterCountMax) characters"
            }
        }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case orderID, steamID, language, currency, userSession, ipAddress, lines }

    /// Decodes the JSON form `ledger steam start` and `POST /steam/orders` read: the order and
    /// Steam IDs as decimal strings (a JSON number loses 64-bit precision in many languages),
    /// `userSession` optional (`client`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        orderID = try Self.decimal(container, .orderID)
        steamID = try Self.decimal(container, .steamID)
        language = try container.decode(String.self, forKey: .language)
        currency = try container.decode(String.self, forKey: .currency)
        userSession = try container.decodeIfPresent(UserSession.self, forKey: .userSession) ?? .client
        ipAddress = try container.decodeIfPresent(String.self, forKey: .ipAddress)
        lines = try container.decode([Line].self, forKey: .lines)
    }

    /// Encodes the JSON form, the 64-bit IDs as decimal strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(String(orderID), forKey: .orderID)
        try container.encode(String(steamID), forKey: .steamID)
        try container.encode(language, forKey: .language)
        try container.encode(currency, forKey: .currency)
        try container.encode(userSession, forKey: .userSession)
        try container.encodeIfPresent(ipAddress, forKey: .ipAddress)
        try container.encode(lines, forKey: .lines)
    }

    /// A 64-bit ID written as a decimal string.
    private static func decimal(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> UInt64 {
        let text = try container.decode(String.self, forKey: key)
        guard let value = SteamWireNumber.parse(text), value != 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(key.stringValue) must be a decimal string of an unsigned 64-bit number other than 0")
        }
        return value
    }

    /// InitTxn's form fields, without the key and app ID.
    func formFields() -> [(String, String)] {
        var fields: [(String, String)] = [
            ("orderid", String(orderID)), ("steamid", String(steamID)), ("itemcount", String(lines.count)),
            ("language", language), ("currency", currency), ("usersession", userSession.rawValue),
        ]
        if let ipAddress { fields.append(("ipaddress", ipAddress)) }
        for (index, line) in lines.enumerated() {
            fields += [
                ("itemid[\(index)]", String(line.itemID)), ("qty[\(index)]", String(line.quantity)),
                ("amount[\(index)]", String(line.amount)), ("description[\(index)]", line.description),
            ]
            if let category = line.category { fields.append(("category[\(index)]", category)) }
        }
        return fields
    }
}
