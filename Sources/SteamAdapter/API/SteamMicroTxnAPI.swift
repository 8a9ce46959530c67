import Foundation

/// The ISteamMicroTxn calls the ledger makes: `SteamWebAPIClient` in production (or against
/// `ISteamMicroTxnSandbox`), a simulated Steam in tests. Steam's own refusals are values
/// (`SteamAnswer.failure`); only infrastructure fails by throwing.
public protocol SteamMicroTxnAPI: Sendable {
    /// `InitTxn`: creates the order; the player then authorises it in the overlay or on the web.
    func initTxn(_ request: SteamOrderRequest) async throws(SteamAPIError) -> SteamAnswer<SteamStartedTransaction>
    /// `FinalizeTxn`: charges an order the player authorised; Steam's transaction ID.
    func finalizeTxn(orderID: UInt64) async throws(SteamAPIError) -> SteamAnswer<UInt64>
    /// `QueryTxn`: the order as Steam holds it now.
    func queryTxn(orderID: UInt64) async throws(SteamAPIError) -> SteamAnswer<SteamOrder>
    /// `GetReport` of type `GAMESALES`: the orders updated at or after `since`, oldest update
    /// first, at most `maxResults`.
    func report(since: Date, maxResults: Int) async throws(SteamAPIError) -> SteamAnswer<[SteamOrder]>
}
