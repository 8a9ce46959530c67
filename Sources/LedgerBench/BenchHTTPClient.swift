import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small blocking HTTP/1.1 client on POSIX sockets for the bench's load run: one kept-alive
/// connection to 127.0.0.1, one request at a time. Blocking calls, so it runs on a thread of
/// its own, never on Swift's concurrency pool. Not a general client: it sends `POST` with a
/// `Content-Length` body and reads `Content-Length` responses only, as `LedgerHTTPServer`
/// answers them.
final class BenchHTTPClient {
    /// A request that could not be sent or a response that could not be read.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One response: its status and body.
    struct Response {
        /// The status code of the status line.
        var status: Int
        /// The body, exactly `Content-Length` bytes.
        var body: [UInt8]
    }

    /// Most bytes of a response head (status line, headers, blank line); the server's are a
    /// few hundred.
    static let headerByteCountMax = 16 << 10
    /// Most bytes of a response body; an outcome is a few KiB at most.
    static let bodyByteCountMax = 1 << 20
    /// How long one send or receive may block: generous, since 32 clients and the server share
    /// two cores and a sync may queue behind many others.
    static let timeoutMilliseconds = 30_000
    /// Reconnects of one request: a kept-alive connection the server closed just before the
    /// request arrived is opened again once, never more.
    static let reconnectCountMax = 1
    /// Bytes asked of each `recv`.
    static let receiveChunkByteCount = 4_096

    /// The server's port on 127.0.0.1.
    let port: Int
    /// The open connection, or -1.
    private var descriptor: Int32 = -1
    /// Bytes received past the last response (none while the server answers one request at a time).
    private var pending: [UInt8] = []
    /// Connections opened so far.
    private(set) var connectionCount = 0

    /// A client of the server on 127.0.0.1:`port`; it connects on the first request.
    init(port: Int) { self.port = port }

    deinit { disconnect() }

    /// `SOCK_STREAM` as `socket` takes it (an enum case on Glibc, an integer on Darwin).
    static var streamSocketType: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// Opens the connection now if it is not open, so the timed part does not pay for it.
    func connect() throws {
        guard descriptor < 0 else { return }
        let opened = socket(AF_INET, Self.streamSocketType, 0)
        guard opened >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        var timeout = timeval(
            tv_sec: Self.timeoutMilliseconds / 1_000, tv_usec: .init((Self.timeoutMilliseconds % 1_000) * 1_000))
        let timeoutSize = socklen_t(MemoryLayout<timeval>.size)
        var one: Int32 = 1
        _ = setsockopt(opened, SOL_SOCKET, SO_RCVTIMEO, &timeout, timeoutSize)
        _ = setsockopt(opened, SOL_SOCKET, SO_SNDTIMEO, &timeout, timeoutSize)
        // A request goes out in one send; without this its last segment could wait for an ACK.
        _ = setsockopt(opened, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            _ = setsockopt(opened, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(opened, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(opened)
            throw Failure(description: "connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
        descriptor = opened
        pending = []
        connectionCount += 1
    }

    /// Closes the connection, if open.
    func disconnect() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        pending = []
    }

    /// Sends `POST path` with `body` (JSON) and reads the response. Reconnects, at most
    /// `reconnectCountMax` times, when a reused connection turns out closed before any byte of
    /// the answer; a connection the server marks `Connection: close` is closed after the answer.
    func post(_ path: String, body: [UInt8]) throws -> Response {
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        let request = Array(head.utf8) + body
        var reconnects = 0
        while true {
            let reused = descriptor >= 0
            try connect()
            do {
                try sendAll(request)
                return try readResponse()
            } catch is ClosedBeforeAnswer where reused && reconnects < Self.reconnectCountMax {
                reconnects += 1
                disconnect()
            }
        }
    }

    /// The connection ended (or failed) before any byte of an answer: a reused connection
    /// the server closed, which one reconnect may cure.
    private struct ClosedBeforeAnswer: Error {}

    /// Sends every byte of `bytes`; a connection already closed by the server before any byte
    /// went out throws `ClosedBeforeAnswer`.
    private func sendAll(_ bytes: [UInt8]) throws {
        var sent = 0
        // Each pass sends at least one byte or throws, so this ends within `bytes.count` passes.
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                systemSend(descriptor, buffer.baseAddress! + sent, buffer.count - sent)
            }
            guard result > 0 else {
                let code = errno
                disconnect()
                if sent == 0 && (code == EPIPE || code == ECONNRESET) { throw ClosedBeforeAnswer() }
                throw Failure(description: "send failed: errno \(code)")
            }
            sent += result
        }
    }

    /// Reads one response: the head up to CRLFCRLF (at most `headerByteCountMax` bytes), then
    /// exactly `Content-Length` body bytes (at most `bodyByteCountMax`).
    private func readResponse() throws -> Response {
        var headEnd: Int?
        while true {
            headEnd = Self.headEnd(pending)
            if headEnd != nil { break }
            guard pending.count <= Self.headerByteCountMax else {
                disconnect()
                throw Failure(description: "a response head longer than \(Self.headerByteCountMax) bytes")
            }
            try receive(answerStarted: !pending.isEmpty)
        }
        let end = headEnd!
        let head = try Self.parseHead(Array(pending[..<end]))
        guard head.contentLength <= Self.bodyByteCountMax else {
            disconnect()
            throw Failure(description: "a response body of \(head.contentLength) bytes, more than \(Self.bodyByteCountMax)")
        }
        pending.removeFirst(end)
        // Each pass receives at least one byte or throws; the body is bounded above.
        while pending.count < head.contentLength { try receive(answerStarted: true) }
        let body = Array(pending[..<head.contentLength])
        pending.removeFirst(head.contentLength)
        if head.closes { disconnect() }
        return Response(status: head.status, body: body)
    }

    /// Appends what one `recv` returns to `pending`; the end of the stream or an error throws.
    private func receive(answerStarted: Bool) throws {
        var chunk = [UInt8](repeating: 0, count: Self.receiveChunkByteCount)
        let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard received > 0 else {
            let code = errno
            disconnect()
            if !answerStarted && (received == 0 || code == ECONNRESET) { throw ClosedBeforeAnswer() }
            throw Failure(
                description: received == 0 ? "the server closed the connection mid-answer" : "recv failed: errno \(code)")
        }
        pending += chunk[..<received]
    }

    /// The index just past the CRLFCRLF that ends the head in `bytes`, if it is there.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// The status, `Content-Length` and whether the server closes after this answer.
    static func parseHead(_ bytes: [UInt8]) throws -> (status: Int, contentLength: Int, closes: Bool) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw Failure(description: "not an HTTP/1.1 status line: \(lines[0])")
        }
        var contentLength: Int?
        var closes = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { contentLength = Int(value) }
            if name == "connection" && value.lowercased() == "close" { closes = true }
        }
        guard let length = contentLength, length >= 0 else {
            throw Failure(description: "a response without a valid Content-Length (status \(status))")
        }
        return (status, length, closes)
    }

    /// `connect`, spelled for the platform (the method of the same name hides it).
    private func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.connect(socket, address, length)
        #else
            Darwin.connect(socket, address, length)
        #endif
    }

    /// `send` without `SIGPIPE` on Linux (Darwin sockets get `SO_NOSIGPIPE` at connect).
    private func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            send(socket, bytes, count, Int32(MSG_NOSIGNAL))
        #else
            send(socket, bytes, count, 0)
        #endif
    }
}
