import Foundation
import LedgerHTTP

/// One accepted connection's life on its own thread: requests read, answered and written in
/// turn until the client closes, says `close`, stalls, breaks a limit, or the server shuts down.
struct ConnectionSession {
    /// Most bytes read and dropped after a final error answer, before closing.
    static let drainByteCountMax = 256 << 10
    /// Longest wait for those bytes.
    static let drainMillisecondsMax = 1_000

    /// The server served for.
    let server: LedgerHTTPServer
    /// The connection's number in the server's table.
    let number: Int
    /// What the connection is doing, which its thread keeps up to date.
    let activity: ConnectionActivity
    /// The socket and its read buffer.
    let channel: ConnectionChannel
    /// The server's shutdown signal.
    let wake: WakePipe
    /// When the connection was accepted: its first request's read deadline counts from then.
    let acceptedAt: ContinuousClock.Instant

    private var limits: LedgerHTTPServerLimits { server.configuration.limits }

    /// Serves requests until the connection is done, then removes it from the server and closes it.
    func run() {
        var served = 0
        while serveOne(isFirst: served == 0, isLastAllowed: served + 1 >= limits.requestCountPerConnectionMax) {
            served += 1
        }
        server.connectionEnded(number: number, descriptor: channel.descriptor)
    }

    /// Reads, answers and writes one request; whether the connection stays open for another.
    private func serveOne(isFirst: Bool, isLastAllowed: Bool) -> Bool {
        let reader = HTTPRequestReader(channel: channel, limits: limits)
        let readTimeout = Duration.milliseconds(limits.readTimeoutMilliseconds)
        let deadline: ContinuousClock.Instant
        do {
            if isFirst {
                deadline = acceptedAt + readTimeout
                try reader.awaitRequest(before: deadline, wake: wake.readEnd)
            } else {
                // Idle until the next request's first byte: the server may close it to make room.
                activity.setIdle(true)
                defer { activity.setIdle(false) }
                try reader.awaitRequest(before: .now + .milliseconds(limits.idleTimeoutMilliseconds), wake: wake.readEnd)
                deadline = .now + readTimeout
            }
        } catch {
            // Silence before a first request is a slow client; between requests, a finished one.
            if isFirst, case .timedOut = error { reject(.timeout) }
            return false
        }
        guard let (head, body) = read(with: reader, before: deadline) else { return false }
        let request = LedgerHTTPRequest(method: head.method, target: head.target, headers: head.headers, body: body)
        let response = server.respond(to: request, activity: activity)
        let closing = !head.wantsKeepAlive || isLastAllowed || server.isShuttingDown
        let connection: String? = closing ? "close" : head.version == .http10 ? "keep-alive" : nil
        let bytes = HTTPResponseSerializer.bytes(for: response, omittingBody: head.method == "HEAD", connection: connection)
        return write(bytes) && !closing
    }

    /// Reads the head and the body, sending `100 Continue` between them when asked; nil
    /// when the connection is done (any error answer already written).
    private func read(
        with reader: HTTPRequestReader, before deadline: ContinuousClock.Instant
    ) -> (HTTPRequestHead, Data)? {
        do {
            let head = try reader.readHead(before: deadline)
            if head.expectsContinue, !write(HTTPResponseSerializer.continueBytes) { return nil }
            return (head, try reader.readBody(head.framing, before: deadline))
        } catch {
            switch error {
            case .rejected(let rejection): reject(rejection)
            case .timedOut: reject(.timeout)
            case .closed, .woken: break
            }
            return nil
        }
    }

    /// Writes `bytes` within the write timeout; whether all went out.
    private func write(_ bytes: [UInt8]) -> Bool {
        do {
            try channel.write(bytes, before: .now + .milliseconds(limits.writeTimeoutMilliseconds))
            return true
        } catch {
            if case .timedOut = error { server.countWriteTimeout() }
            return false
        }
    }

    /// Answers `rejection` itself and winds the connection down.
    private func reject(_ rejection: HTTPRejection) {
        server.count(rejection)
        let bytes = HTTPResponseSerializer.bytes(for: rejection.response, omittingBody: false, connection: "close")
        guard write(bytes) else { return }
        let drainTime = min(limits.readTimeoutMilliseconds, Self.drainMillisecondsMax)
        channel.drainAfterFinalAnswer(byteCountMax: Self.drainByteCountMax, before: .now + .milliseconds(drainTime))
    }
}
