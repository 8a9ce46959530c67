import FulfillmentLedger

/// The finish port for Steam: a no-op. Steam's step that must come before the grant is
/// FinalizeTxn, which charges the player; `SteamOrderProcessor` calls it, and only then submits
/// the order's items. Once the grant is durable there is nothing left to tell Steam: an order
/// it reports `Succeeded` is never taken back for want of an acknowledgement.
public struct SteamFinisher: PlatformFinisher {
    /// The no-op finisher.
    public init() {}

    /// Succeeds at once.
    public func finish(_ request: FinishRequest) async throws(LedgerError) {}
}
