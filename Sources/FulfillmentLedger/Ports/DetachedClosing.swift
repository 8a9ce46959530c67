/// A store that can close with no caller awaiting it: the work runs on a thread of the store's
/// own, then `then` runs. For cleanups that start in a `deinit`, which cannot await (the test
/// support's leases); closing from a task instead would wait for a thread of the cooperative
/// pool, and under a loaded test run the stores waiting to close hold their files open.
package protocol DetachedClosing: LedgerStore {
    /// Starts `close()`'s work and returns at once; `then` runs once it is done.
    func closeDetached(then: @escaping @Sendable () -> Void)
}
