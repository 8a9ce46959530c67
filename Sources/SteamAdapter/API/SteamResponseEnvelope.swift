import Foundation

/// Steam's answer around every method's `params`:
/// `{"response": {"result": "OK"|"Failure", "params": {…}, "error": {"errorcode", "errordesc"}}}`.
struct SteamResponseEnvelope<Params: Decodable>: Decodable {
    struct Body: Decodable {
        var result: String
        var params: Params?
        var error: ErrorBody?
    }

    struct ErrorBody: Decodable {
        var errorcode: Int
        var errordesc: String?
    }

    var response: Body

    /// The params when OK, Steam's failure otherwise; nil when the body says neither.
    var answer: SteamCallResult<Params>? {
        switch response.result {
        case "OK": return response.params.map { .ok($0) }
        case "Failure":
            let error = response.error ?? ErrorBody(errorcode: 2, errordesc: "Failure without an error object")
            return .failure(SteamFailure(code: error.errorcode, detail: error.errordesc ?? ""))
        default: return nil
        }
    }

    /// `errorcode: errordesc` from a body Steam wrote, for an HTTP failure's message.
    static func message(in body: Data) -> String? {
        guard let envelope = try? JSONDecoder().decode(SteamResponseEnvelope<EmptyParams>.self, from: body),
            let error = envelope.response.error
        else { return nil }
        return "\(error.errorcode): \(error.errordesc ?? "")"
    }
}

/// One call's answer before the caller checks it: its params, or Steam's failure.
enum SteamCallResult<Params> {
    case ok(Params)
    case failure(SteamFailure)
}

/// Params the caller does not read.
struct EmptyParams: Decodable, Hashable {}

/// InitTxn's and FinalizeTxn's params.
struct SteamTransactionParams: Decodable {
    var orderID: UInt64
    var transactionID: UInt64
    var steamURL: String?

    private enum CodingKeys: String, CodingKey { case orderid, transid, steamurl }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        orderID = try SteamWireNumber.uint64(container, .orderid)
        transactionID = try SteamWireNumber.uint64(container, .transid)
        steamURL = try container.decodeIfPresent(String.self, forKey: .steamurl)
    }
}

/// GetReport's params.
struct SteamReportParams: Decodable {
    var count: Int?
    var orders: [SteamOrder]?
}
