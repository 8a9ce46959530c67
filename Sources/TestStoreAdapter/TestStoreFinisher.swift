import FulfillmentLedger

/// The test store's finish port. The test store has no server to tell, so a finish is done
/// by definition: `finish` returns at once, and calling it again is as harmless as the port
/// requires. Like `TestStoreVerifier` it serves sandbox ledgers only: a production ledger
/// refuses the test store's verifier, so no test-store transaction ever reaches it.
public struct TestStoreFinisher: PlatformFinisher {
    /// Creates the finisher.
    public init() {}

    /// Does nothing: nothing outside the ledger waits for a test-store finish.
    public func finish(_ request: FinishRequest) async throws(LedgerError) {}
}
