import FulfillmentLedger

/// A platform finisher that succeeds at once, so the bench measures no network call.
struct BenchFinisher: PlatformFinisher {
    func finish(_ request: FinishRequest) async throws(LedgerError) {}
}
