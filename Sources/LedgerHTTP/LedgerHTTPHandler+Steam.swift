import Foundation
import FulfillmentLedger
import SteamAdapter

/// The Steam routes: the game server starts an order, reports the player's answer, and runs the
/// report sync; each behind the bearer token, each answered with the outcome in the ledger's JSON
/// form (`LedgerHTTPStatus.steamOrder`).
extension LedgerHTTPHandler {
    /// The body `POST /steam/orders/{orderID}/authorization` takes.
    static let steamAuthorizationExpected = "{\"authorized\": true | false}"

    /// `POST /steam/orders`: a `SteamOrderRequest`, InitTxn. 200 started; 422 Steam refused it
    /// or the buyer is no player; 400 a request Steam would refuse or an item no product maps.
    func steamOrder(_ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        guard let processor = steamOrders else { return notConfigured("/steam/orders") }
        let request: SteamOrderRequest
        do throws(StrictJSONError) {
            request = try StrictJSON.decode(SteamOrderRequest.self, from: body)
        } catch {
            return .invalidInput(error.body(expected: "a Steam order: {\"orderID\", \"steamID\", \"language\", \"currency\", \"lines\": […]}"))
        }
        let outcome = try await processor.start(request)
        return .json(LedgerHTTPStatus.steamOrder(outcome), outcome)
    }

    /// `POST /steam/orders/{orderID}/authorization` with `{"authorized": bool}`: FinalizeTxn and
    /// the grant, or the declined order recorded.
    func steamAuthorization(_ orderIDText: String, _ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        guard let processor = steamOrders else { return notConfigured("/steam/orders/{orderID}/authorization") }
        struct Body: Decodable { let authorized: Bool }
        let decoded: Body
        do throws(StrictJSONError) {
            decoded = try StrictJSON.decode(Body.self, from: body)
        } catch {
            return .invalidInput(error.body(expected: Self.steamAuthorizationExpected))
        }
        guard let orderID = UInt64(orderIDText), orderID != 0, String(orderID) == orderIDText else {
            return .invalidInput(
                LedgerErrorBody.invalidInput(
                    "not a Steam order ID", problems: [.init(path: "orderID", message: "\(orderIDText) is not a decimal 64-bit order ID other than 0")]))
        }
        let outcome = try await processor.authorize(orderID: orderID, authorized: decoded.authorized)
        return .json(LedgerHTTPStatus.steamOrder(outcome), outcome)
    }

    /// `POST /steam/sync`: one `SteamReportSync` run. 200 with its report.
    func steamSync() async throws(LedgerError) -> LedgerHTTPResponse {
        guard let processor = steamOrders else { return notConfigured("/steam/sync") }
        return .json(200, try await SteamReportSync(processor: processor).run())
    }
}
