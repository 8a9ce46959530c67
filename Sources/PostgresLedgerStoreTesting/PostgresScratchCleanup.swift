import Dispatch
import FulfillmentLedger
import Foundation
import PostgresLedgerStore

/// Closes a scratch store and drops its schema in the background (from a `deinit`, which cannot
/// wait), while making sure the test process does not exit in the middle of it.
///
/// A test run exits as soon as its last test returns. A cleanup still opening a connection then
/// races libpq's own teardown at exit, and the process crashed (SIGSEGV inside libpq after every
/// test had passed). So each cleanup is counted, and an exit handler, registered with the first
/// one, waits for those in flight, at most `exitWaitSecondsMax`.
public enum PostgresScratchCleanup {
    /// The longest the exit handler waits for cleanups still running.
    public static let exitWaitSecondsMax = 30

    /// Closes `store`, then drops `schema`, counted until done.
    public static func closeAndDrop(_ store: PostgresLedgerStore, _ schema: PostgresScratchSchema) {
        _ = exitHandler
        inFlight.enter()
        Task {
            await store.close()
            try? schema.drop()
            inFlight.leave()
        }
    }

    /// The cleanups started and not finished.
    private static let inFlight = DispatchGroup()

    /// Registers the exit handler once. Handlers run in reverse order of registration, so this
    /// one, registered after libpq was loaded and used, runs before the libraries are torn down.
    private static let exitHandler: Void = {
        atexit {
            _ = PostgresScratchCleanup.inFlight.wait(timeout: .now() + .seconds(PostgresScratchCleanup.exitWaitSecondsMax))
        }
    }()
}
