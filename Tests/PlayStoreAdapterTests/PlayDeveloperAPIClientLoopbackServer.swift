import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal blocking HTTP/1.1 server on 127.0.0.1 for one end-to-end test: each connection
/// carries one request (`Connection: close`), answered by `route`. It stops after
/// `requestCountMax` requests or `lifetimeSeconds`, whichever comes first.
final class PlayLoopbackServer: Sendable {
    /// One parsed request.
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [String: String]
        var body: Data
    }

    /// Bytes accepted in a request's head, and in its body.
    static let headByteCountMax = 16_384
    static let bodyByteCountMax = 65_536
    /// How long one `poll` for a connection waits before re-checking the deadline.
    static let pollIntervalMilliseconds: Int32 = 100
    /// How long a client may take to send its request.
    static let receiveTimeoutSeconds = 5

    let port: UInt16
    private let listener: Int32
    private let recorded = Mutex<[Request]>([])
    private let finished = Mutex(false)

    /// The requests served so far.
    var requests: [Request] { recorded.withLock { $0 } }
    /// Whether the accept loop has ended.
    var isFinished: Bool { finished.withLock { $0 } }

    /// Binds to an ephemeral loopback port and starts serving on a background thread.
    init(
        requestCountMax: Int, lifetimeSeconds: TimeInterval,
        route: @escaping @Sendable (Request) -> (status: Int, body: String)
    ) throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw POSIXError(.EIO) }
        var reuse: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(0).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        guard bound == 0, named == 0, listen(socketFD, 16) == 0 else {
            close(socketFD)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        listener = socketFD
        port = UInt16(bigEndian: address.sin_port)
        let deadline = Date().addingTimeInterval(lifetimeSeconds)
        let thread = Thread { [self] in
            serve(requestCountMax: requestCountMax, deadline: deadline, route: route)
        }
        thread.start()
    }

    private func serve(
        requestCountMax: Int, deadline: Date, route: @Sendable (Request) -> (status: Int, body: String)
    ) {
        defer {
            close(listener)
            finished.withLock { $0 = true }
        }
        var servedCount = 0
        while servedCount < requestCountMax, Date() < deadline {
            var pollFD = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pollFD, 1, Self.pollIntervalMilliseconds) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            servedCount += 1
            var timeout = timeval(tv_sec: Self.receiveTimeoutSeconds, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if let request = Self.readRequest(connection) {
                recorded.withLock { $0.append(request) }
                let (status, body) = route(request)
                Self.write(connection, status: status, body: body)
            }
            close(connection)
        }
    }

    private static func readRequest(_ connection: Int32) -> Request? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil, buffer.count < headByteCountMax {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headEnd = buffer.firstRange(of: separator)?.upperBound
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let contentLength = min(Int(headers["content-length"] ?? "0") ?? 0, bodyByteCountMax)
        while buffer.count - headEnd < contentLength {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
        let body = Data(buffer[headEnd..<(headEnd + contentLength)])
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    private static func write(_ connection: Int32, status: Int, body: String) {
        let bodyBytes = Array(body.utf8)
        let head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(bodyBytes.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + bodyBytes
        var sentCount = 0
        while sentCount < bytes.count {
            let count = bytes[sentCount...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            sentCount += count
        }
    }
}
