#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe the server writes one byte to when it begins to shut down. Its read end then stays
/// readable for good, so every `poll` that includes it — the accept loop's and each idle
/// connection's — wakes at once and keeps waking. Closed when the last holder lets it go.
final class WakePipe: Sendable {
    /// The end the waiting threads poll.
    let readEnd: Int32
    /// The end `signal()` writes to.
    private let writeEnd: Int32

    /// A new pipe, or nil with `errno` set.
    init?() {
        guard let ends = SocketSystem.makePipe() else { return nil }
        readEnd = ends.readEnd
        writeEnd = ends.writeEnd
    }

    deinit {
        SocketSystem.close(readEnd)
        SocketSystem.close(writeEnd)
    }

    /// Makes the read end readable; later calls change nothing that matters.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
