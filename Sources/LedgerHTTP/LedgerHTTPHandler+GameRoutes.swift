import Foundation
import FulfillmentLedger

/// The game server's own operations beside purchases: eligibility before payment, the game's
/// spends and grants, refunds it learns of, a player's subscriptions. Each has the library's
/// semantics and limits; a mutating route is idempotent by the ID the library already uses
/// (`operationID`, a revocation's `eventID`), and every body is read by the strict decoding path.
extension LedgerHTTPHandler {
    /// `POST /operations`: an `EconomyOperation` (`{"operationID", "playerID", "direction":
    /// "spend" | "grant", "asset": "currency" | "item", "assetID", "amount"}`), applied once.
    func operation(_ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        let operation: EconomyOperation
        do throws(StrictJSONError) {
            operation = try StrictJSON.decode(EconomyOperation.self, from: body)
        } catch {
            return .invalidInput(error.body(expected: "an economy operation"))
        }
        let outcome = try await ledger.apply(operation)
        return .json(LedgerHTTPStatus.operation(outcome), outcome)
    }

    /// `POST /revocations`: a `RevocationEvent` (a refund, partial refund, revoke or reversal the
    /// game learned of), applied once by its `eventID`.
    func revocation(_ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        let event: RevocationEvent
        do throws(StrictJSONError) {
            event = try StrictJSON.decode(RevocationEvent.self, from: body)
        } catch {
            return .invalidInput(error.body(expected: "a revocation event"))
        }
        let outcome = try await ledger.applyRevocation(event)
        return .json(LedgerHTTPStatus.revocation(outcome), outcome)
    }

    /// `GET /players/{playerID}/eligibility?product=ID&quantity=N`: whether the player may start
    /// buying `quantity` (default 1) of catalog product `product` now (`Eligibility`).
    func eligibility(_ playerID: String, _ request: LedgerHTTPRequest) async throws(LedgerError) -> LedgerHTTPResponse {
        let query: [String: String]
        switch Self.query(request, allowed: ["product", "quantity"]) {
        case .failure(let refusal): return refusal.response(400)
        case .success(let values): query = values
        }
        guard let product = query["product"], !product.isEmpty else {
            return .error(.invalidQuery, "product (a catalog product ID) is required")
        }
        guard let quantity = query["quantity"].map({ Int($0) }) ?? 1 else {
            return .error(.invalidQuery, "quantity must be a whole number")
        }
        return .json(200, try await ledger.eligibility(playerID: playerID, productID: product, quantity: quantity))
    }

    /// `GET /players/{playerID}/subscriptions?at=TIME`: each chain with its state at `at`
    /// (RFC 3339; default now), whether it entitles, and its periods.
    func subscriptions(_ playerID: String, _ request: LedgerHTTPRequest) async throws(LedgerError) -> LedgerHTTPResponse {
        let query: [String: String]
        switch Self.query(request, allowed: ["at"]) {
        case .failure(let refusal): return refusal.response(400)
        case .success(let values): query = values
        }
        var at: Date?
        if let text = query["at"] {
            guard let date = LedgerJSON.parseDate(text) else {
                return .error(.invalidQuery, "at must be an RFC 3339 time, such as 2026-12-01T12:00:00Z")
            }
            at = date
        }
        return .json(200, ["subscriptions": try await ledger.subscriptions(playerID, at: at)])
    }

    /// `POST /players/{playerID}/account-token` with `{"store": S}`: registers the player's
    /// account token for S under the server's account binding (`Ledger.bindAccountToken`).
    func accountToken(_ playerID: String, _ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        struct Body: Decodable { let store: PlatformStore }
        let decoded: Body
        do throws(StrictJSONError) {
            decoded = try StrictJSON.decode(Body.self, from: body)
        } catch {
            return .invalidInput(error.body(expected: "{\"store\": \"appStore\"}"))
        }
        return .json(200, try await ledger.bindAccountToken(store: decoded.store, playerID: playerID))
    }
}
