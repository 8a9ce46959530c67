import CLibPQ
import Dispatch
import Synchronization

/// Sends a cancel request (`PQcancel`) for the statement a pool slot's connection is running.
///
/// A task's cancellation handler runs on whatever thread cancelled it, often a cooperative one,
/// and `PQcancel` opens a connection to the server: so the request goes out on `queue`, never on
/// the caller's thread. It is sent only while a use runs, and at most once per use.
final class PostgresCanceller: Sendable {
    private struct State {
        /// The connection's cancel object, while it has one.
        var handle: PostgresCancelHandle?
        var isRunning = false
        /// Whether the running use's request was sent.
        var isRequested = false
    }

    private let state = Mutex(State())

    /// Where cancel requests are sent: one at a time, in the process.
    private static let queue = DispatchQueue(label: "FulfillmentLedger.PostgresCancel", qos: .userInitiated)

    /// Longest error message `PQcancel` writes.
    private static let errorBufferByteCount = 256

    /// Takes `connection`'s cancel object; the slot's queue only.
    func attach(_ connection: PostgresConnection) {
        let handle = PQgetCancel(connection.handle).map(PostgresCancelHandle.init)
        state.withLock { $0.handle = handle }
    }

    /// Drops the cancel object of a connection being closed.
    func detach() {
        state.withLock { $0.handle = nil }
    }

    /// A use starts.
    func begin() {
        state.withLock { state in
            state.isRunning = true
            state.isRequested = false
        }
    }

    /// The use ended; whether a cancel request was sent for it.
    func end() -> Bool {
        state.withLock { state in
            state.isRunning = false
            return state.isRequested
        }
    }

    /// Sends a cancel request for the running use, unless none runs or one was sent.
    func request() {
        let handle = state.withLock { (state: inout State) -> PostgresCancelHandle? in
            guard state.isRunning, !state.isRequested, let handle = state.handle else { return nil }
            state.isRequested = true
            return handle
        }
        guard let handle else { return }
        Self.queue.async {
            var buffer = [CChar](repeating: 0, count: Self.errorBufferByteCount)
            // A request that fails leaves the statement running to its end; nothing else to do.
            _ = PQcancel(handle.pointer, &buffer, Int32(Self.errorBufferByteCount))
        }
    }
}

/// A connection's cancel object, freed when the last request using it is done.
///
/// `@unchecked Sendable`: libpq documents `PQcancel` as safe from any thread, and the object is
/// read-only to it.
final class PostgresCancelHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { PQfreeCancel(pointer) }
}
