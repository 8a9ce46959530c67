import Foundation

/// Runs blocking work (a child process to its end, a blocking socket read, a semaphore wait)
/// on a new thread of its own and returns its result to the awaiting task.
///
/// Never on the concurrency pool, nor on `DispatchQueue.global()`: on Linux both are as wide as
/// the machine has cores, so two blocked waits there hold back every task and every global
/// Dispatch source in the process (seen as every suite stalling for 40 s on a two-core machine
/// while child processes ran, and loopback servers missing their timeouts and signals).
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
