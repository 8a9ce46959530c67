import Foundation
import LedgerHTTPClient
import StripeAdapter

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Stripe's API, as the simulated account answers it: the reads `StripeAPIClient` makes.
extension StripeSimulator {
    /// Answers one API request: the secret key checked, then the object or Stripe's 404.
    public func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let outage = state.withLock { state -> Bool in
            state.requests.append(request)
            guard state.outages > 0 else { return false }
            state.outages -= 1
            return true
        }
        if outage { return Self.error(503, type: "api_error", message: "Stripe is unavailable (simulated)") }
        guard request.value(forHTTPHeaderField: "Authorization") == "Bearer \(secretKey)" else {
            return Self.error(401, type: "invalid_request_error", message: "Invalid API Key provided")
        }
        guard request.httpMethod == "GET", let url = request.url else {
            return Self.error(405, type: "invalid_request_error", message: "only GET is simulated")
        }
        let parts = url.path.split(separator: "/").map(String.init)
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let answer: String? =
            switch parts.count {
            case 3 where parts[0] == "v1" && parts[1] == "checkout" && parts[2] == "sessions":
                sessionList(paymentIntent: query.first { $0.name == "payment_intent" }?.value)
            case 4 where parts[0] == "v1" && parts[1] == "checkout" && parts[2] == "sessions":
                state.withLock { $0.sessions[parts[3]] }.map { sessionJSON($0, lineItems: false) }
            case 5 where parts[0] == "v1" && parts[1] == "checkout" && parts[2] == "sessions" && parts[4] == "line_items":
                state.withLock { $0.sessions[parts[3]] }.map(lineItemsJSON)
            case 3 where parts[0] == "v1" && parts[1] == "charges":
                state.withLock { $0.charges[parts[2]] }.map(chargeJSON)
            case 3 where parts[0] == "v1" && parts[1] == "disputes":
                state.withLock { $0.disputes[parts[2]] }.map(disputeJSON)
            default: nil
            }
        guard let answer else {
            return Self.error(404, type: "invalid_request_error", code: "resource_missing", message: "No such object: \(url.path)")
        }
        return HTTPResponse(statusCode: 200, headers: ["content-type": "application/json"], body: Data(answer.utf8))
    }

    /// The sessions of a PaymentIntent, as a list.
    private func sessionList(paymentIntent: String?) -> String {
        let sessions = state.withLock { state in
            state.sessions.values.filter { paymentIntent == nil || $0.paymentIntent == paymentIntent }.sorted { $0.id < $1.id }
        }
        let data = sessions.map { sessionJSON($0, lineItems: false) }.joined(separator: ",")
        return #"{"object":"list","has_more":false,"url":"/v1/checkout/sessions","data":[\#(data)]}"#
    }

    /// A session as Stripe renders it (line items only when expanded).
    func sessionJSON(_ session: Session, lineItems: Bool) -> String {
        let total = session.lines.reduce(Int64(0)) { $0 + $1.line.unitAmount * Int64($1.line.quantity) }
        let reference = session.player.map { Self.quoted($0) } ?? "null"
        let items = lineItems ? #","line_items":\#(lineItemsJSON(session))"# : ""
        return """
            {"id":"\(session.id)","object":"checkout.session","amount_subtotal":\(total),"amount_total":\(total),\
            "client_reference_id":\(reference),"created":\(session.created),"currency":"usd","customer":null,\
            "livemode":\(livemode),"metadata":{},"mode":"payment","payment_intent":"\(session.paymentIntent)",\
            "payment_status":"\(session.paymentStatus)","status":"\(session.status)"\(items)}
            """
    }

    /// A session's line items, as a list.
    func lineItemsJSON(_ session: Session) -> String {
        let data = session.lines.map { id, line in
            #"{"id":"\#(id)","object":"item","amount_subtotal":\#(line.unitAmount * Int64(line.quantity)),"amount_total":\#(line.unitAmount * Int64(line.quantity)),"currency":"usd","price":{"id":"\#(line.price)","object":"price","unit_amount":\#(line.unitAmount),"currency":"usd"},"quantity":\#(line.quantity)}"#
        }
        return #"{"object":"list","has_more":false,"url":"/v1/checkout/sessions/\#(session.id)/line_items","data":[\#(data.joined(separator: ","))]}"#
    }

    /// A charge as Stripe renders it.
    func chargeJSON(_ charge: Charge) -> String {
        #"{"id":"\#(charge.id)","object":"charge","amount":\#(charge.amount),"amount_captured":\#(charge.amount),"amount_refunded":\#(charge.refunded),"currency":"usd","disputed":\#(state.withLock { $0.disputes.values.contains { $0.charge == charge.id } }),"livemode":\#(livemode),"payment_intent":"\#(charge.paymentIntent)","refunded":\#(charge.refunded == charge.amount),"status":"succeeded"}"#
    }

    /// A dispute as Stripe renders it.
    func disputeJSON(_ dispute: Dispute) -> String {
        let charge = state.withLock { $0.charges[dispute.charge] }
        return #"{"id":"\#(dispute.id)","object":"dispute","amount":\#(charge.map { $0.amount - $0.refunded } ?? 0),"charge":"\#(dispute.charge)","currency":"usd","livemode":\#(livemode),"payment_intent":"\#(charge?.paymentIntent ?? "")","reason":"fraudulent","status":"\#(dispute.status)"}"#
    }

    /// Stripe's error body.
    static func error(_ status: Int, type: String, code: String? = nil, message: String) -> HTTPResponse {
        let codeField = code.map { #","code":"\#($0)""# } ?? ""
        return HTTPResponse(
            statusCode: status, headers: ["content-type": "application/json"],
            body: Data(#"{"error":{"type":"\#(type)"\#(codeField),"message":\#(quoted(message))}}"#.utf8))
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"\""
    }
}
