import Dispatch
import FulfillmentLedger
import Foundation

/// Closes a test's store in the background, then runs what must follow (removing its folder,
/// dropping its schema), from a `deinit`, which cannot wait, while making sure the test process
/// does not exit in the middle of it.
///
/// Every store is closed before it is let go (a store's `deinit` only checks that it was). A
/// test run exits as soon as its last test returns; a cleanup still running then races the
/// libraries' own teardown at exit (a PostgreSQL one crashed inside libpq after every test had
/// passed). So each cleanup is counted, and an exit handler, registered with the first one,
/// waits for those in flight, at most `exitWaitSecondsMax`.
public enum StoreCleanup {
    /// The longest the exit handler waits for cleanups still running.
    public static let exitWaitSecondsMax = 30

    /// Closes `store`, then runs `then`, counted until done: on the store's own thread where it
    /// can close with no caller awaiting it (`DetachedClosing`), else from a task.
    public static func closeInBackground(_ store: any LedgerStore, then: @escaping @Sendable () -> Void = {}) {
        _ = exitHandler
        inFlight.enter()
        if let detached = store as? any DetachedClosing {
            detached.closeDetached {
                then()
                inFlight.leave()
            }
            return
        }
        Task {
            await store.close()
            then()
            inFlight.leave()
        }
    }

    /// The cleanups started and not finished.
    private static let inFlight = DispatchGroup()

    /// Registers the exit handler once. Handlers run in reverse order of registration, so this
    /// one, registered after the engines' libraries were loaded and used, runs before they are
    /// torn down.
    private static let exitHandler: Void = {
        atexit {
            _ = StoreCleanup.inFlight.wait(timeout: .now() + .seconds(StoreCleanup.exitWaitSecondsMax))
        }
    }()
}
