import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A response as a raw client reads it.
struct RawResponse: Sendable {
    /// The status code.
    var status: Int
    /// The fields in order.
    var headers: [(name: String, value: String)]
    /// The body bytes.
    var body: [UInt8]

    /// The first value of `name`, without case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Failures of the raw client.
enum RawClientError: Error {
    case connect(Int32)
    case send(Int32)
    case malformedResponse(String)
}

/// A blocking TCP client that writes exactly the bytes a test gives and reads responses by
/// hand; every read gives up after `timeoutSeconds`.
final class RawHTTPClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host`:`port` (IPv4, or IPv6 when `host` holds a colon).
    init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 30) throws {
        let isIPv6 = host.contains(":")
        descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = Self.connect(descriptor, to: address)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = Self.connect(descriptor, to: address)
        }
        guard result == 0 else {
            // No close here: the instance is whole, so throwing runs `deinit`, which closes it.
            // Closing twice could close a descriptor another thread opened in between, such as
            // another test's ledger file.
            throw RawClientError.connect(errno)
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Connects `descriptor` to `address`, a `sockaddr_in` or `sockaddr_in6`.
    private static func connect<Address>(_ descriptor: Int32, to address: Address) -> Int32 {
        withUnsafeBytes(of: address) {
            Glibc.connect(descriptor, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
    }

    /// Whether a connection to `port` is refused now.
    static func isRefused(port: Int) -> Bool {
        do {
            _ = try RawHTTPClient(port: port)
            return false
        } catch RawClientError.connect(let error) {
            return error == ECONNREFUSED
        } catch {
            return false
        }
    }

    /// Sends `text` as UTF-8.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw RawClientError.send(errno) }
            offset += count
        }
    }

    /// Reads one response (an interim 1xx included); nil when the server closed first. The
    /// body is read by `Content-Length` unless `answeringHead` or the status has none.
    func readResponse(answeringHead: Bool = false) throws -> RawResponse? {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = find([13, 10, 13, 10])
            if headEnd == nil, !readMore() { return nil }
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusParts = lines.removeFirst().split(separator: " ")
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw RawClientError.malformedResponse(head)
        }
        let headers = lines.map { line -> (name: String, value: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        var response = RawResponse(status: status, headers: headers, body: [])
        let hasBody = !answeringHead && status >= 200 && status != 204 && status != 304
        if hasBody, let length = response.header("Content-Length").flatMap({ Int($0) }) {
            while buffer.count < length { guard readMore() else { throw RawClientError.malformedResponse("short body") } }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        }
        return response
    }

    /// Whether the server has closed the connection: within `milliseconds`, the next read
    /// sees the end of the stream (or a reset) and no bytes.
    func isClosedByServer(within milliseconds: Int32 = Int32(TestServer.hangMilliseconds)) -> Bool {
        guard buffer.isEmpty else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) == 1 else { return false }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        if count > 0 { buffer.append(byte) }
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    private func readMore() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        return (0...(buffer.count - pattern.count)).first { buffer[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}

extension RawHTTPClient {
    /// Connects, sends `request`, reads one response and whether the server then closed
    /// (waiting up to `closeWithinMilliseconds` for it; a test that expects no close passes a
    /// short wait).
    static func exchange(
        port: Int, _ request: String, closeWithinMilliseconds: Int32 = Int32(TestServer.hangMilliseconds)
    ) throws -> (response: RawResponse?, closed: Bool) {
        let (responses, closed) = try conversation(port: port, [request], closeWithinMilliseconds: closeWithinMilliseconds)
        return (responses[0], closed)
    }

    /// Connects and, for each of `requests` in turn, sends it and reads one response; the
    /// responses and whether the server then closed.
    static func conversation(
        port: Int, _ requests: [String], closeWithinMilliseconds: Int32 = Int32(TestServer.hangMilliseconds)
    ) throws -> (responses: [RawResponse?], closed: Bool) {
        let client = try RawHTTPClient(port: port)
        var responses: [RawResponse?] = []
        for request in requests {
            try client.send(request)
            responses.append(try client.readResponse(answeringHead: request.hasPrefix("HEAD ")))
        }
        return (responses, client.isClosedByServer(within: closeWithinMilliseconds))
    }
}
