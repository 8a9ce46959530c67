import Foundation
import LedgerHTTP

/// The accept loop and what the connection threads ask of the server.
extension LedgerHTTPServer {
    /// How long accepting pauses when the process is out of descriptors or memory.
    static let acceptBackoffMicroseconds: UInt32 = 50_000

    /// Accepts connections until shutdown begins, then takes in the connections already
    /// waiting in the backlog and closes the listening socket.
    func acceptLoop(listener: Int32, wake: WakePipe) {
        while true {
            let readable = Int16(POLLIN)
            guard let seen = SocketSystem.poll([(listener, readable), (wake.readEnd, readable)], timeoutMilliseconds: -1),
                seen[1] == 0
            else { break }
            guard seen[0] != 0 else { continue }
            let descriptor = SocketSystem.accept(listener)
            if descriptor >= 0 {
                admit(descriptor, wake: wake)
            } else if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errno) {
                usleep(Self.acceptBackoffMicroseconds)
            }
        }
        drainBacklog(listener: listener, wake: wake)
        SocketSystem.close(listener)
        state.withLock { $0.isAccepting = false }
    }

    /// Admits the connections the kernel completed before shutdown but the loop had not yet
    /// accepted, at most the backlog's length: a client that connected and sent its request
    /// just before SIGTERM is answered, not reset when the listening socket closes. A drained
    /// connection with nothing sent yet is closed at once (its session sees the wake first).
    private func drainBacklog(listener: Int32, wake: WakePipe) {
        for _ in 0..<Int(ListeningSocket.backlog) {
            guard let seen = SocketSystem.poll([(listener, Int16(POLLIN))], timeoutMilliseconds: 0), seen[0] != 0 else {
                return
            }
            let descriptor = SocketSystem.accept(listener)
            guard descriptor >= 0 else { return }
            admit(descriptor, wake: wake)
        }
    }

    /// Serves `descriptor` on a new thread. At the connection limit, the connection that has
    /// waited idle longest for its next request is closed to make room (an idle keep-alive
    /// connection never locks a new client out); with none idle, the new one is answered 503 and
    /// closed. A connection accepted while shutdown begins is still served: its client connected
    /// before the listening socket closed.
    private func admit(_ descriptor: Int32, wake: WakePipe) {
        let activity = ConnectionActivity()
        let number = state.withLock { state -> Int? in
            let admitting = state.phase == .running || state.phase == .stopping
            guard admitting else {
                state.statistics.connectionsRefused += 1
                return nil
            }
            // Connections being closed to make room still hold their slot until their thread ends.
            let open = state.connections.count - state.closingIdleCount
            if open >= configuration.limits.connectionCountMax {
                guard let idle = closeIdleLongest(state.connections) else {
                    state.statistics.connectionsRefused += 1
                    return nil
                }
                state.closingIdleCount += 1
                state.statistics.idleConnectionsClosed += 1
                // Shut, not closed: its thread sees the hang-up, ends and closes it.
                SocketSystem.shutdown(idle.descriptor)
            }
            let number = state.nextConnectionNumber
            state.nextConnectionNumber += 1
            state.connections[number] = ServerState.Connection(descriptor: descriptor, activity: activity)
            state.statistics.connectionsAccepted += 1
            return number
        }
        guard let number else {
            refuse(descriptor)
            return
        }
        SocketSystem.setNoDelay(descriptor)
        let acceptedAt = ContinuousClock.now
        let thread = Thread { [self] in
            let channel = ConnectionChannel(descriptor: descriptor)
            ConnectionSession(
                server: self, number: number, activity: activity, channel: channel, wake: wake, acceptedAt: acceptedAt
            ).run()
        }
        thread.name = "LedgerHTTPServer connection \(number)"
        thread.start()
    }

    /// Marks the connection idle longest as closing and returns it; nil when none is idle. Called
    /// under the server's lock, so no other admission picks at the same time; a connection that
    /// turns busy between the look and the mark is passed over, and the next idle one tried, at
    /// most once per connection.
    private func closeIdleLongest(_ connections: [Int: ServerState.Connection]) -> ServerState.Connection? {
        var candidates = connections.values.compactMap { connection in
            connection.activity.idleSince.map { (connection, $0) }
        }
        candidates.sort { $0.1 < $1.1 }
        return candidates.first { $0.0.activity.closeIfIdle() }?.0
    }

    /// Writes the 503 answer without waiting (it fits a fresh socket's buffer) and closes.
    private func refuse(_ descriptor: Int32) {
        let bytes = HTTPResponseSerializer.bytes(for: HTTPRejection.busy.response, omittingBody: false, connection: "close")
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, SocketSystem.sendFlags) }
        SocketSystem.shutdown(descriptor)
        SocketSystem.close(descriptor)
    }

    /// Removes connection `number` from the table, then closes its socket: a descriptor is
    /// never closed while shutdown may still shut it.
    func connectionEnded(number: Int, descriptor: Int32) {
        state.withLock { state in
            if state.connections.removeValue(forKey: number)?.activity.isClosingIdle == true { state.closingIdleCount -= 1 }
        }
        SocketSystem.close(descriptor)
    }

    /// The handler's response to `request`, from the connection's own thread; only the
    /// connection's lock and an atomic counter are touched, never the server's lock.
    func respond(to request: LedgerHTTPRequest, activity: ConnectionActivity) -> LedgerHTTPResponse {
        let call = HandlerCall()
        activity.setHandlerTask(call.start(handler, on: request))
        let response = call.wait()
        activity.setHandlerTask(nil)
        requestsHandledCount.add(1, ordering: .relaxed)
        return response
    }

    /// Counts an answer the server gave itself (and a read timeout, for 408).
    func count(_ rejection: HTTPRejection) {
        state.withLock { state in
            state.statistics.requestsRejected[rejection.status, default: 0] += 1
            if rejection.status == 408 { state.statistics.timeouts += 1 }
        }
    }

    /// Counts a write cut off by the write timeout.
    func countWriteTimeout() {
        state.withLock { $0.statistics.timeouts += 1 }
    }
}
