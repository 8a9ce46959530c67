#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The socket calls whose spelling differs between Linux and Darwin, and the small helpers
/// every socket of the server shares. Descriptors are made close-on-exec, so a child process
/// started by the host program never holds a connection open.
package enum SocketSystem {
    /// The type argument of `socket` for TCP: a stream, close-on-exec where it can be said at once.
    static var streamType: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// The flags of every `send`: on Linux `MSG_NOSIGNAL`, so a closed peer gives `EPIPE`
    /// instead of `SIGPIPE` (Darwin sockets get `SO_NOSIGPIPE` instead).
    static var sendFlags: Int32 {
        #if canImport(Glibc)
            Int32(MSG_NOSIGNAL)
        #else
            0
        #endif
    }

    /// Accepts one connection from `listener`, made non-blocking and close-on-exec; -1 (with
    /// `errno`) as `accept` does. (`accept4` and `pipe2`, which would set the flags at once,
    /// are not in the Glibc module.)
    static func accept(_ listener: Int32) -> Int32 {
        #if canImport(Glibc)
            let descriptor = Glibc.accept(listener, nil, nil)
        #else
            let descriptor = Darwin.accept(listener, nil, nil)
        #endif
        guard descriptor >= 0 else { return descriptor }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        setNonBlocking(descriptor)
        #if canImport(Darwin)
            _ = setOption(descriptor, level: SOL_SOCKET, name: SO_NOSIGPIPE)
        #endif
        return descriptor
    }

    /// A pipe whose two ends are close-on-exec, or nil with `errno` set.
    static func makePipe() -> (readEnd: Int32, writeEnd: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Makes `descriptor` non-blocking.
    package static func setNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    /// Sets an integer socket option; whether it took.
    static func setOption(_ descriptor: Int32, level: Int32, name: Int32, value: Int32 = 1) -> Bool {
        var value = value
        return setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Turns Nagle's algorithm off: a response is written whole, so it should leave at once.
    static func setNoDelay(_ descriptor: Int32) {
        _ = setOption(descriptor, level: Int32(IPPROTO_TCP), name: Int32(TCP_NODELAY))
    }

    /// Stops sending on `descriptor`, so the peer reads the end of the stream; with
    /// `alsoReading`, stops both directions, waking any thread blocked on it. The descriptor
    /// number stays taken until its owner closes it.
    static func shutdown(_ descriptor: Int32, alsoReading: Bool = false) {
        #if canImport(Glibc)
            _ = Glibc.shutdown(descriptor, Int32(alsoReading ? SHUT_RDWR : SHUT_WR))
        #else
            _ = Darwin.shutdown(descriptor, alsoReading ? SHUT_RDWR : SHUT_WR)
        #endif
    }

    /// Closes `descriptor`.
    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }

    /// Whether the last call failed only because it would have blocked or was interrupted.
    static var lastCallMayBeRetried: Bool { errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }

    /// Waits until one of `descriptors` has any of its events, or `timeoutMilliseconds` pass
    /// (-1: no end); the events seen for each, or nil when the wait failed. Retries on `EINTR`.
    static func poll(_ descriptors: [(descriptor: Int32, events: Int16)], timeoutMilliseconds: Int32) -> [Int16]? {
        var entries = descriptors.map { pollfd(fd: $0.descriptor, events: $0.events, revents: 0) }
        while true {
            #if canImport(Glibc)
                let result = Glibc.poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
            #else
                let result = Darwin.poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
            #endif
            if result >= 0 { return entries.map(\.revents) }
            if errno != EINTR { return nil }
        }
    }

    /// The milliseconds left until `deadline`, rounded up and never negative, for `poll`.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
