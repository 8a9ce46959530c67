import CLibPQ
import Dispatch

/// A connection's cancel object (`PQgetCancel`), freed when the last request using it is done:
/// what a pool slot's `UseCanceller` stops a running statement with.
///
/// `@unchecked Sendable`: libpq documents `PQcancel` as safe from any thread, and the object is
/// read-only to it.
final class PostgresCancelHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// `connection`'s cancel object, if libpq gives one; the slot's queue only.
    init?(_ connection: PostgresConnection) {
        guard let pointer = PQgetCancel(connection.handle) else { return nil }
        self.pointer = pointer
    }

    deinit { PQfreeCancel(pointer) }

    /// Where cancel requests are sent: one at a time, in the process.
    private static let queue = DispatchQueue(label: "FulfillmentLedger.PostgresCancel", qos: .userInitiated)

    /// Longest error message `PQcancel` writes.
    private static let errorBufferByteCount = 256

    /// Sends a cancel request for the connection's running statement. `PQcancel` opens a
    /// connection to the server, and a task's cancellation handler runs on whatever thread
    /// cancelled it, often a cooperative one: so the request goes out on `queue`, never on
    /// the caller's thread.
    func send() {
        Self.queue.async {
            var buffer = [CChar](repeating: 0, count: Self.errorBufferByteCount)
            // A request that fails leaves the statement running to its end; nothing else to do.
            _ = PQcancel(self.pointer, &buffer, Int32(Self.errorBufferByteCount))
        }
    }
}
