#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One accepted connection's non-blocking socket and the bytes read from it but not yet
/// consumed; owned by the connection's thread alone. Every wait has a deadline and every read
/// takes at most `readChunkByteCount` bytes, so the buffer grows only as far as its reader
/// asks, plus one chunk.
package final class ConnectionChannel {
    /// Most bytes one read takes.
    static let readChunkByteCount = 16 << 10
    /// The two bytes that end a line.
    static let lineEnd: [UInt8] = [13, 10]

    /// The socket.
    let descriptor: Int32
    /// Bytes read and not yet consumed, oldest first.
    private(set) var buffer: [UInt8] = []

    /// Takes over `descriptor`, already non-blocking; its owner closes it.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Reads what the peer has sent into the buffer, waiting before `deadline` for at least
    /// one byte; `.woken` when `wake` turns readable first with nothing to read.
    func fill(before deadline: ContinuousClock.Instant, wake: Int32? = nil) throws(ConnectionFailure) {
        var chunk = [UInt8](repeating: 0, count: Self.readChunkByteCount)
        while true {
            try wait(for: Int16(POLLIN), before: deadline, wake: wake)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return
            }
            if count < 0, SocketSystem.lastCallMayBeRetried { continue }
            throw .closed
        }
    }

    /// Writes all of `bytes` before `deadline`.
    func write(_ bytes: [UInt8], before deadline: ContinuousClock.Instant) throws(ConnectionFailure) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, $0.count - offset, SocketSystem.sendFlags)
            }
            if count > 0 {
                offset += count
            } else if count < 0, SocketSystem.lastCallMayBeRetried {
                try wait(for: Int16(POLLOUT), before: deadline, wake: nil)
            } else {
                throw .closed
            }
        }
    }

    /// Removes and returns the first `count` bytes of the buffer, which must hold them.
    func consume(_ count: Int) -> [UInt8] {
        let taken = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return taken
    }

    /// Drops line ends at the start of the buffer: a client may send some before a request.
    func dropLeadingLineEnds() {
        var count = 0
        while buffer.count >= count + 2, buffer[count] == 13, buffer[count + 1] == 10 { count += 2 }
        buffer.removeFirst(count)
    }

    /// The index of the first `CR LF` in the buffer at or after `start`, if any.
    func lineEnd(from start: Int) -> Int? {
        firstIndex(of: Self.lineEnd, from: start)
    }

    /// Where the head ends, searching from `start`: the byte count of its lines without the
    /// blank line's terminators (`contentCount`) and with them (`consumedCount`). A line ends at
    /// `CR LF` or, as RFC 9112 lets a recipient accept (and nginx and Go do), at a lone `LF`; the
    /// blank line is the first line end right after another.
    func headEnd(from start: Int) -> (contentCount: Int, consumedCount: Int)? {
        var index = max(0, start)
        while index < buffer.count {
            defer { index += 1 }
            guard buffer[index] == 10 else { continue }
            let contentCount = index > 0 && buffer[index - 1] == 13 ? index - 1 : index
            if index + 1 < buffer.count, buffer[index + 1] == 10 { return (contentCount, index + 2) }
            if index + 2 < buffer.count, buffer[index + 1] == 13, buffer[index + 2] == 10 { return (contentCount, index + 3) }
        }
        return nil
    }

    /// After a final answer: stops sending, then reads and drops what the peer still sends,
    /// up to `byteCountMax` bytes or `deadline`, so that closing does not reset the connection
    /// before the peer has read the answer.
    func drainAfterFinalAnswer(byteCountMax: Int, before deadline: ContinuousClock.Instant) {
        SocketSystem.shutdown(descriptor)
        var drained = 0
        while drained < byteCountMax {
            buffer.removeAll(keepingCapacity: true)
            do { try fill(before: deadline) } catch { return }
            drained += buffer.count
        }
    }

    private func firstIndex(of pattern: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        var index = max(0, start)
        while index <= buffer.count - pattern.count {
            if buffer[index] == pattern[0], buffer[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    /// Waits before `deadline` until the socket has `events`, or the peer hung up.
    private func wait(for events: Int16, before deadline: ContinuousClock.Instant, wake: Int32?) throws(ConnectionFailure) {
        var descriptors = [(descriptor, events)]
        if let wake { descriptors.append((wake, Int16(POLLIN))) }
        while true {
            let timeout = SocketSystem.milliseconds(until: deadline)
            guard let seen = SocketSystem.poll(descriptors, timeoutMilliseconds: timeout) else { throw .closed }
            if seen[0] != 0 { return }
            if seen.count > 1, seen[1] != 0 { throw .woken }
            if ContinuousClock.now >= deadline { throw .timedOut }
        }
    }
}
