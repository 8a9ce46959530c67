import FulfillmentLedger

/// The App Store's finish port on the server: Finish Transaction (App Store Server API 1.20+)
/// tells Apple the server delivered the content, as StoreKit's `finish()` does on a device.
///
/// The outbox may repeat a finish. Apple documents no error for finishing a finished
/// transaction, so a repeat that Apple answers 2xx is success again; any refusal or outage is
/// `finishFailed`, and the finish stays pending for recovery to try later.
public struct AppStoreServerFinisher: PlatformFinisher {
    /// The App Store Server API client.
    public let client: AppStoreServerAPIClient

    /// Wraps a client.
    public init(client: AppStoreServerAPIClient) {
        self.client = client
    }

    /// Finishes `request`'s transaction on Apple's server.
    public func finish(_ request: FinishRequest) async throws(LedgerError) {
        do {
            try await client.finishTransaction(transactionID: request.key.transactionID)
        } catch {
            throw LedgerError.finishFailed("App Store Finish Transaction for \(request.key.transactionID): \(error)")
        }
    }
}
