import Dispatch
import LedgerHTTP
import Synchronization

/// One call of the async handler from a connection's thread: the thread starts a task for
/// the handler and blocks until the task hands the response over. The thread is the server's
/// own, never one of the concurrency pool's, so the block takes nothing from other tasks.
final class HandlerCall: Sendable {
    /// The response, once the handler has returned.
    private let response = Mutex<LedgerHTTPResponse?>(nil)
    /// Signalled once, when the response is in.
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `handler` on `request` in a new task on the server's `HandlerExecutor` and
    /// returns the task.
    func start(
        _ handler: @escaping @Sendable (LedgerHTTPRequest) async -> LedgerHTTPResponse, on request: LedgerHTTPRequest
    ) -> Task<Void, Never> {
        Task(executorPreference: HandlerExecutor.shared) {
            let answer = await handler(request)
            self.response.withLock { $0 = answer }
            self.finished.signal()
        }
    }

    /// Blocks until the handler has returned; its response.
    func wait() -> LedgerHTTPResponse {
        finished.wait()
        return response.withLock { $0 } ?? .text(500, "the handler gave no response")
    }
}
