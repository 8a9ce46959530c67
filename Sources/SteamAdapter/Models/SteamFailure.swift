/// Steam's answer `"result": "Failure"`: its error code and description (the implementation
/// guide's Appendix B). An expected outcome of a call, not an infrastructure failure: a player
/// without funds, a payment not yet approved, an order already finalised.
public struct SteamFailure: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Steam's `errorcode`.
    public var code: Int
    /// Steam's `errordesc`.
    public var detail: String

    /// Creates a failure.
    public init(code: Int, detail: String) {
        self.code = code
        self.detail = detail
    }

    /// 5: the player has not approved the order yet.
    public static let notApprovedCode = 5
    /// 6: the order was already finalised.
    public static let alreadyCommittedCode = 6
    /// 10: the player denied the order.
    public static let deniedCode = 10
    /// 101: too late to finalise.
    public static let finalizeTimeLimitCode = 101

    /// `errorcode errordesc`.
    public var description: String { "Steam error \(code): \(detail)" }
}

/// Steam's answer to one call: its `params` when `result` is `OK`, else its failure.
public enum SteamAnswer<Value: Sendable & Hashable>: Sendable, Hashable {
    /// `"result": "OK"`.
    case ok(Value)
    /// `"result": "Failure"`.
    case failure(SteamFailure)
}

/// What InitTxn answers: Steam's transaction ID and, for a web session, where to send the player.
public struct SteamStartedTransaction: Sendable, Hashable, Codable {
    /// The game's order ID, as Steam echoes it.
    public var orderID: UInt64
    /// Steam's transaction ID.
    public var transactionID: UInt64
    /// The page to send a web session's player to (append `returnurl`); nil for the overlay.
    public var steamURL: String?

    /// Creates the answer.
    public init(orderID: UInt64, transactionID: UInt64, steamURL: String?) {
        self.orderID = orderID
        self.transactionID = transactionID
        self.steamURL = steamURL
    }
}
