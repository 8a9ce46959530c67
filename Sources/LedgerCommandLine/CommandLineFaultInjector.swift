#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FulfillmentLedger
import Synchronization

/// The faults `ledger fulfill --fault POINT=error|crash` arms: each armed point fails, or ends
/// the process with SIGKILL, the first time the pipeline reaches it, then is disarmed. The
/// operator tool links no testing product, so it has this one-shot injector rather than
/// `ScriptedFaultInjector`; crash tests drive it through the built executable.
final class CommandLineFaultInjector: FaultInjector {
    /// What an armed point does.
    enum Action: String, Sendable, CaseIterable {
        /// Throw `LedgerError.injectedFault(point)`.
        case error
        /// End the process at once with SIGKILL, as a crash would.
        case crash
    }

    private let armed = Mutex<[FaultPoint: Action]>([:])

    /// Arms `point`; arming it again replaces the action.
    func arm(_ point: FaultPoint, _ action: Action) {
        armed.withLock { $0[point] = action }
    }

    /// Fails or crashes if `point` is armed, disarming it.
    func check(_ point: FaultPoint) throws(LedgerError) {
        switch armed.withLock({ $0.removeValue(forKey: point) }) {
        case nil: return
        case .error?: throw LedgerError.injectedFault(point)
        case .crash?:
            kill(getpid(), SIGKILL)
            // SIGKILL cannot be caught; if delivery were somehow delayed, never continue.
            fatalError("SIGKILL at \(point.rawValue) did not end the process")
        }
    }
}
