import Dispatch
import Foundation
import Synchronization

/// Turns termination signals into a call: while it lives (until `cancel()`), each of its
/// signals is ignored by the process's default action and delivered to `onSignal` instead,
/// through a Dispatch signal source on a queue of its own. `LedgerHTTPServer.runUntilSignalled()` uses it to shut
/// the server down on SIGTERM or SIGINT.
public final class LedgerHTTPServerSignals: Sendable {
    /// Where the signal handlers run: a serial queue of the server's own, which libdispatch
    /// gives a thread even while the global queues' workers (as many as the machine has cores)
    /// are all busy, so a SIGTERM is seen however loaded the process is.
    private static let queue = DispatchQueue(label: "LedgerHTTPServer.signals")

    /// The signal sources, until cancelled.
    private let sources: Mutex<[any DispatchSourceSignal]>

    /// Starts watching `signals` (SIGTERM and SIGINT unless told otherwise), calling `onSignal`
    /// with the signal number each time one arrives.
    public init(signals: [Int32] = [SIGTERM, SIGINT], onSignal: @escaping @Sendable (Int32) -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: Self.queue)
            source.setEventHandler { onSignal(number) }
            source.resume()
            sources.append(source)
        }
        self.sources = Mutex(sources)
    }

    /// Stops watching. The signals stay ignored, so one arriving while the program winds down
    /// cannot end it abruptly.
    public func cancel() {
        let sources = self.sources.withLock { sources in
            defer { sources = [] }
            return sources
        }
        for source in sources { source.cancel() }
    }
}

extension LedgerHTTPServer {
    /// Shuts the server down gracefully when one of `signals` (SIGTERM and SIGINT unless told
    /// otherwise) arrives, and returns once it has stopped; returns at once when it is not
    /// running. For a command that serves until the operator or the supervisor stops it.
    public func runUntilSignalled(_ signals: [Int32] = [SIGTERM, SIGINT]) async {
        guard state.withLock({ $0.phase == .running || $0.phase == .stopping }) else { return }
        let watcher = LedgerHTTPServerSignals(signals: signals) { [self] _ in
            // Not on the shared pool, which a busy process may keep from starting it for long.
            Task(executorPreference: HandlerExecutor.shared) { await self.shutdown() }
        }
        await waitUntilStopped()
        watcher.cancel()
    }
}
