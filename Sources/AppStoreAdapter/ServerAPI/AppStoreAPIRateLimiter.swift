import Foundation
import Synchronization

/// Spaces the client's requests to each endpoint so they stay under Apple's per-endpoint limit:
/// at most `requestsPerSecond` a second, each request reserving the next free slot.
///
/// It only computes waits; the client sleeps them through its injected sleeper, so tests with a
/// manual clock see every wait without spending it.
final class AppStoreAPIRateLimiter: Sendable {
    private let environment: AppStoreEnvironment
    /// When each endpoint's next request may go out.
    private let nextSlot = Mutex<[AppStoreAPIEndpoint: Date]>([:])

    init(environment: AppStoreEnvironment) {
        self.environment = environment
    }

    /// The milliseconds to wait before sending a request to `endpoint` at `now`, reserving its slot.
    func reserveDelayMilliseconds(for endpoint: AppStoreAPIEndpoint, now: Date) -> Int {
        let interval = 1.0 / Double(endpoint.requestsPerSecond(in: environment))
        return nextSlot.withLock { slots in
            let slot = max(now, slots[endpoint] ?? now)
            slots[endpoint] = slot.addingTimeInterval(interval)
            return Int((slot.timeIntervalSince(now) * 1000).rounded(.up))
        }
    }
}
