import Foundation
import LedgerHTTPClient
import SteamAdapter

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ISteamMicroTxn as the simulated Steam answers it: the calls `SteamWebAPIClient` makes.
extension SteamSimulator {
    /// Answers one API request: the interface, key and app ID checked, then the method.
    public func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let outage = state.withLock { state -> Bool in
            state.requests.append(request)
            guard state.outages > 0 else { return false }
            state.outages -= 1
            return true
        }
        if outage { return HTTPResponse(statusCode: 503, body: Data("Service Unavailable (simulated)".utf8)) }
        guard let url = request.url else { return HTTPResponse(statusCode: 400) }
        let parts = url.path.split(separator: "/").map(String.init)
        let interface = sandbox ? "ISteamMicroTxnSandbox" : "ISteamMicroTxn"
        guard parts.count == 3, parts[0] == interface else { return HTTPResponse(statusCode: 404, body: Data("Not Found".utf8)) }
        let fields = Self.fields(request)
        guard fields["key"] == key else { return HTTPResponse(statusCode: 403, body: Data("Forbidden".utf8)) }
        guard fields["appid"] == String(appID) else { return Self.failure(3, "Invalid parameter: appid") }
        let now = nowSeconds
        switch (request.httpMethod ?? "GET", parts[1], parts[2]) {
        case ("POST", "InitTxn", "v3"): return initTxn(fields, now: now)
        case ("POST", "FinalizeTxn", "v2"): return finalizeTxn(fields, now: now)
        case ("GET", "QueryTxn", "v3"): return queryTxn(fields)
        case ("GET", "GetReport", "v5"): return report(fields)
        default: return HTTPResponse(statusCode: 404, body: Data("Not Found".utf8))
        }
    }

    private func initTxn(_ fields: [String: String], now: Int64) -> HTTPResponse {
        guard let orderID = fields["orderid"].flatMap(UInt64.init), orderID != 0,
            let steamID = fields["steamid"].flatMap(UInt64.init), steamID != 0,
            let count = fields["itemcount"].flatMap(Int.init), (1...SteamOrderRequest.lineCountMax).contains(count),
            let currency = fields["currency"], fields["language"] != nil
        else { return Self.failure(3, "Invalid parameter") }
        var items: [Item] = []
        for index in 0..<count {
            guard let itemID = fields["itemid[\(index)]"].flatMap(UInt32.init),
                let quantity = fields["qty[\(index)]"].flatMap(Int.init), (1...Int(Int16.max)).contains(quantity),
                let amount = fields["amount[\(index)]"].flatMap(Int64.init), amount >= 0,
                let description = fields["description[\(index)]"], (1...128).contains(description.count)
            else { return Self.failure(3, "Invalid parameter: item \(index)") }
            items.append(Item(itemID: itemID, quantity: quantity, amount: amount, status: .initialized))
        }
        let created: Order? = state.withLock { state in
            guard state.orders[orderID] == nil else { return nil }
            let order = Order(
                orderID: orderID, transactionID: state.nextTransactionID, steamID: steamID, status: .initialized,
                currency: currency, items: items, createdSeconds: now, updatedSeconds: now)
            state.nextTransactionID += 1
            state.orders[orderID] = order
            return order
        }
        guard let created else { return Self.failure(2, "The operation failed: order \(orderID) exists") }
        var params = #""orderid":"\#(orderID)","transid":"\#(created.transactionID)""#
        if fields["usersession"] == "web" { params += #","steamurl":"https://checkout.steampowered.com/checkout/approvetxn/\#(created.transactionID)/""# }
        return Self.ok(params)
    }

    private func finalizeTxn(_ fields: [String: String], now: Int64) -> HTTPResponse {
        guard let orderID = fields["orderid"].flatMap(UInt64.init) else { return Self.failure(3, "Invalid parameter") }
        let result: SteamAnswer<String> = state.withLock { state in
            guard var order = state.orders[orderID] else { return .failure(SteamFailure(code: 3, detail: "Invalid parameter: no order \(orderID)")) }
            switch order.status {
            case .approved:
                order.status = .succeeded
                for index in order.items.indices { order.items[index].status = .succeeded }
                order.updatedSeconds = now
                state.orders[orderID] = order
                return .ok(#""orderid":"\#(order.orderID)","transid":"\#(order.transactionID)""#)
            case .initialized: return .failure(SteamFailure(code: 5, detail: "User has not approved transaction"))
            case .failed: return .failure(SteamFailure(code: 10, detail: "Transaction has been denied by user"))
            default: return .failure(SteamFailure(code: 6, detail: "Transaction has already been committed"))
            }
        }
        switch result {
        case .ok(let params): return Self.ok(params)
        case .failure(let failure): return Self.failure(failure.code, failure.detail)
        }
    }

    private func queryTxn(_ fields: [String: String]) -> HTTPResponse {
        guard let orderID = fields["orderid"].flatMap(UInt64.init) else { return Self.failure(3, "Invalid parameter") }
        guard let order = state.withLock({ $0.orders[orderID] }) else { return Self.failure(3, "Invalid parameter: no order \(orderID)") }
        return Self.ok(Self.orderJSON(order, created: false))
    }

    private func report(_ fields: [String: String]) -> HTTPResponse {
        guard fields["type"] == "GAMESALES", let time = fields["time"].flatMap({ try? Date($0, strategy: .iso8601) }),
            let maxResults = fields["maxresults"].flatMap(Int.init), (1...50_000).contains(maxResults)
        else { return Self.failure(3, "Invalid parameter") }
        let since = Int64(time.timeIntervalSince1970)
        let orders = state.withLock { state in
            state.orders.values.filter { $0.updatedSeconds >= since }
                .sorted { ($0.updatedSeconds, $0.orderID) < ($1.updatedSeconds, $1.orderID) }
                .prefix(maxResults)
        }
        let list = orders.map { "{\(Self.orderJSON($0, created: true))}" }.joined(separator: ",")
        return Self.ok(#""count":\#(orders.count),"orders":[\#(list)]"#)
    }

    /// An order's fields as Steam renders them.
    static func orderJSON(_ order: Order, created: Bool) -> String {
        let items = order.items.map {
            #"{"itemid":\#($0.itemID),"qty":\#($0.quantity),"amount":\#($0.amount),"vat":0,"itemstatus":"\#($0.status.rawValue)"}"#
        }.joined(separator: ",")
        let createdField = created ? #","timecreated":"\#(time(order.createdSeconds))""# : ""
        return #""orderid":"\#(order.orderID)","transid":"\#(order.transactionID)","steamid":"\#(order.steamID)","status":"\#(order.status.rawValue)","currency":"\#(order.currency)","time":"\#(time(order.updatedSeconds))"\#(createdField),"country":"US","usstate":"WA","items":[\#(items)]"#
    }

    static func time(_ seconds: Int64) -> String { Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601) }

    static func ok(_ params: String) -> HTTPResponse {
        HTTPResponse(statusCode: 200, headers: ["content-type": "application/json"], body: Data(#"{"response":{"result":"OK","params":{\#(params)}}}"#.utf8))
    }

    static func failure(_ code: Int, _ detail: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: 200, headers: ["content-type": "application/json"],
            body: Data(#"{"response":{"result":"Failure","error":{"errorcode":\#(code),"errordesc":"\#(detail)"}}}"#.utf8))
    }

    /// The form fields of a POST body or a GET query.
    static func fields(_ request: URLRequest) -> [String: String] {
        var components = URLComponents()
        if request.httpMethod == "POST" {
            components.percentEncodedQuery = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
        } else if let url = request.url {
            components = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? components
        }
        var fields: [String: String] = [:]
        for item in components.queryItems ?? [] where fields[item.name] == nil { fields[item.name] = item.value ?? "" }
        return fields
    }
}
