import Foundation
import Synchronization

/// The check a store's `deinit` makes: a store is ended with `close()`, which commits what it
/// carries and closes its connections off the caller's thread. A store let go without it is a
/// bug in the code that opened it; its `deinit` reports it here and releases its handles
/// without committing, checkpointing or waiting, so letting go never blocks the thread that
/// did. What such a store carried (finish marks) is lost as in a crash: the records stay
/// pending and `recover()` finishes them again.
package enum UnclosedStoreCheck {
    /// Counts the stores let go without `close()` while a task's work runs, where the last
    /// reference goes inside that work: how a test checks that what it calls (a command)
    /// closes what it opens, beside other tests that run in parallel.
    package final class Tally: Sendable {
        private let unclosed = Atomic<Int>(0)

        /// A tally at zero.
        package init() {}

        /// Stores counted so far.
        package var count: Int { unclosed.load(ordering: .relaxed) }

        func add() { unclosed.add(1, ordering: .relaxed) }
    }

    /// The tally of the task running, if it set one.
    @TaskLocal package static var tally: Tally?

    /// Counts a store let go without `close()` in the running task's tally, if any, and, in a
    /// debug build, says so on standard error: a warning rather than a trap, since nothing is
    /// lost that recovery does not redo.
    package static func report(engine: String, location: String) {
        tally?.add()
        #if DEBUG
        let line = "warning: a \(engine) ledger store (\(location)) was let go without close(); call close() before letting it go\n"
        FileHandle.standardError.write(Data(line.utf8))
        #endif
    }
}
