/// Port: lets a test suite fail or crash the pipeline at a named point.
public protocol FaultInjector: Sendable {
    /// Called when the pipeline reaches `point`. Throw to fail the operation there;
    /// an injector may also end the process to simulate a crash.
    func check(_ point: FaultPoint) throws(LedgerError)
}

/// The production injector: never fails.
public struct NoFaults: FaultInjector {
    /// Creates the no-op injector.
    public init() {}

    /// Does nothing.
    @inlinable public func check(_ point: FaultPoint) throws(LedgerError) {}
}
