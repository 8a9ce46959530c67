/// The counting and failing half of the VFS's state: call counts per operation and the
/// armed fault. A value type kept inside the VFS's mutex, so every decision is atomic with
/// the count it is based on.
struct FaultSchedule: Sendable {
    /// Calls seen per operation since registration or the last `resetCounts()`.
    private(set) var callCounts: [SQLiteFaultVFS.Operation: Int] = [:]
    /// The armed fault, if any.
    private(set) var armed: SQLiteFaultVFS.Fault?
    /// Calls of the armed operation seen since arming: the fault counts from arming, not
    /// from registration, so a test can arm after a warm-up without doing arithmetic.
    private var callsSinceArmed = 0
    /// Calls failed by injection since registration or the last `resetCounts()`.
    private(set) var firedCount = 0

    /// Arms `fault`, replacing any armed one.
    mutating func arm(_ fault: SQLiteFaultVFS.Fault) {
        armed = fault
        callsSinceArmed = 0
    }

    /// Disarms; counts are kept.
    mutating func disarm() {
        armed = nil
        callsSinceArmed = 0
    }

    /// Zeroes the call and fired counts; an armed fault keeps its own count.
    mutating func resetCounts() {
        callCounts = [:]
        firedCount = 0
    }

    /// Counts one call of `operation` and returns the result code it must fail with, or
    /// nil when it should go ahead.
    mutating func recordCall(_ operation: SQLiteFaultVFS.Operation) -> Int32? {
        callCounts[operation, default: 0] += 1
        guard let fault = armed, fault.operation == operation else { return nil }
        callsSinceArmed += 1
        let fires =
            switch fault.persistence {
            case .transient: callsSinceArmed == fault.callNumber
            case .persistent: callsSinceArmed >= fault.callNumber
            }
        guard fires else { return nil }
        firedCount += 1
        return fault.resultCode
    }
}
