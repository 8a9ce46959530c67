import FulfillmentLedger
import FulfillmentLedgerTesting
import Synchronization

/// The test store's finish port with one more failure: a timeout after the platform
/// already finished, the ambiguous case a real network call can produce.
final class SimulatedFinisher: PlatformFinisher {
    private let platform: TestStore
    private let timeoutArmed = Mutex(false)

    init(platform: TestStore) { self.platform = platform }

    /// Makes the next finish succeed at the platform and then time out.
    func armTimeout() { timeoutArmed.withLock { $0 = true } }

    /// Disarms a timeout that did not fire; returns whether it was still armed.
    func disarmTimeout() -> Bool { timeoutArmed.withLock { armed in defer { armed = false }; return armed } }

    func finish(_ request: FinishRequest) async throws(LedgerError) {
        try await platform.finish(request)
        let timedOut = timeoutArmed.withLock { armed in defer { armed = false }; return armed }
        if timedOut { throw LedgerError.finishFailed("timed out waiting for the platform") }
    }
}
