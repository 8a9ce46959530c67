#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FulfillmentLedger
import Synchronization

/// A fault injector a test script arms: fail or crash at named points, a set number of times.
public final class ScriptedFaultInjector: FaultInjector {
    /// What to do when an armed point is reached.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// Throw `LedgerError.injectedFault(point)`.
        case error
        /// End the process at once with SIGKILL, as a crash would.
        case crash
    }

    private struct Arming: Sendable {
        var action: Action
        var skipCount: Int
        var remainingCount: Int
    }

    private struct State: Sendable {
        var armings: [FaultPoint: Arming] = [:]
        var hitCounts: [FaultPoint: Int] = [:]
        var firedCounts: [FaultPoint: Int] = [:]
    }

    private let state = Mutex(State())

    /// Creates an injector with nothing armed.
    public init() {}

    /// Arms `point`: after letting `skipCount` hits pass, act on the next `count` hits.
    public func arm(_ point: FaultPoint, _ action: Action = .error, count: Int = 1, skipCount: Int = 0) {
        precondition(count >= 1 && skipCount >= 0, "arm counts must be positive")
        state.withLock { $0.armings[point] = Arming(action: action, skipCount: skipCount, remainingCount: count) }
    }

    /// Disarms every point.
    public func disarmAll() { state.withLock { $0.armings.removeAll() } }

    /// How many times the pipeline reached `point`.
    public func hitCount(_ point: FaultPoint) -> Int { state.withLock { $0.hitCounts[point, default: 0] } }

    /// How many faults were injected at `point`.
    public func firedCount(_ point: FaultPoint) -> Int { state.withLock { $0.firedCounts[point, default: 0] } }

    /// Fails or crashes if `point` is armed.
    public func check(_ point: FaultPoint) throws(LedgerError) {
        let action = state.withLock { state -> Action? in
            state.hitCounts[point, default: 0] += 1
            guard var arming = state.armings[point] else { return nil }
            if arming.skipCount > 0 {
                arming.skipCount -= 1
                state.armings[point] = arming
                return nil
            }
            arming.remainingCount -= 1
            state.armings[point] = arming.remainingCount > 0 ? arming : nil
            state.firedCounts[point, default: 0] += 1
            return arming.action
        }
        switch action {
        case nil: return
        case .error?: throw LedgerError.injectedFault(point)
        case .crash?:
            kill(getpid(), SIGKILL)
            // SIGKILL cannot be caught; if delivery were somehow delayed, never continue.
            fatalError("SIGKILL at \(point.rawValue) did not end the process")
        }
    }
}
