#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bound, listening, non-blocking TCP socket with `SO_REUSEADDR`, on an IPv4 or IPv6 literal.
package struct ListeningSocket {
    /// Connections waiting to be accepted that the system keeps.
    static let backlog: Int32 = 128

    /// The socket.
    let descriptor: Int32
    /// The port it is bound to (the system's choice when 0 was asked).
    let port: Int

    /// A loopback port free a moment ago, for a program that cannot be told to pick one (nginx,
    /// a child process given `PORT`): bound with port 0 by `open`, read back and released. Another
    /// program may take it before it is used.
    package static func freeLoopbackPort() throws(LedgerHTTPServerError) -> Int {
        let socket = try open(host: "127.0.0.1", port: 0)
        SocketSystem.close(socket.descriptor)
        return socket.port
    }

    /// Binds `host`:`port` and listens.
    static func open(host: String, port: Int) throws(LedgerHTTPServerError) -> ListeningSocket {
        guard (0...65535).contains(port) else { throw .invalidConfiguration("port \(port) is not in 0...65535") }
        var storage = sockaddr_storage()
        let length = try address(host: host, port: port, into: &storage)
        let descriptor = socket(Int32(storage.ss_family), SocketSystem.streamType, 0)
        guard descriptor >= 0 else { throw .socket(operation: "socket", errorNumber: errno) }
        do throws(LedgerHTTPServerError) {
            guard SocketSystem.setOption(descriptor, level: SOL_SOCKET, name: SO_REUSEADDR) else {
                throw LedgerHTTPServerError.socket(operation: "setsockopt", errorNumber: errno)
            }
            let bound = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
            }
            guard bound == 0 else { throw LedgerHTTPServerError.socket(operation: "bind", errorNumber: errno) }
            guard listen(descriptor, backlog) == 0 else {
                throw LedgerHTTPServerError.socket(operation: "listen", errorNumber: errno)
            }
            SocketSystem.setNonBlocking(descriptor)
            return ListeningSocket(descriptor: descriptor, port: try boundPort(descriptor))
        } catch {
            SocketSystem.close(descriptor)
            throw error
        }
    }

    /// Writes the socket address of `host` (an IPv4 literal, or IPv6 with or without brackets)
    /// and `port` into `storage`; its length.
    private static func address(
        host: String, port: Int, into storage: inout sockaddr_storage
    ) throws(LedgerHTTPServerError) -> socklen_t {
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var ipv4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &ipv4.sin_addr) == 1 {
            ipv4.sin_family = sa_family_t(AF_INET)
            ipv4.sin_port = in_port_t(port).bigEndian
            return store(ipv4, into: &storage)
        }
        var ipv6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &ipv6.sin6_addr) == 1 {
            ipv6.sin6_family = sa_family_t(AF_INET6)
            ipv6.sin6_port = in_port_t(port).bigEndian
            return store(ipv6, into: &storage)
        }
        throw .invalidConfiguration("host \(host) is not an IPv4 or IPv6 literal")
    }

    /// Copies `address` (a `sockaddr_in` or `sockaddr_in6`) into `storage`; its length.
    private static func store<Address>(_ address: Address, into storage: inout sockaddr_storage) -> socklen_t {
        withUnsafeMutableBytes(of: &storage) { target in withUnsafeBytes(of: address) { target.copyMemory(from: $0) } }
        #if canImport(Darwin)
            storage.ss_len = UInt8(MemoryLayout<Address>.size)
        #endif
        return socklen_t(MemoryLayout<Address>.size)
    }

    /// The port `descriptor` is bound to.
    private static func boundPort(_ descriptor: Int32) throws(LedgerHTTPServerError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw .socket(operation: "getsockname", errorNumber: errno) }
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafeBytes(of: storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port)) }
        }
        return withUnsafeBytes(of: storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port)) }
    }
}
