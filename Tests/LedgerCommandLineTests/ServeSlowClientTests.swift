import Foundation
import FulfillmentLedgerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ledger serve` and clients that do not send their request at once: one that stalls is cut
/// off with 408, and one whose request is in flight when SIGTERM arrives is still answered.
@Suite(.serialized) struct ServeSlowClientTests {
    /// A Python client that sends a purchase's head and the first half of its body, prints
    /// `sent`, and (unless told to stall) waits for a line on standard input before sending the
    /// rest; then prints the status and the `Connection` header, or `closed` at end of stream.
    static let script = """
        import socket, sys
        port, body, stall = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3] == "stall"
        s = socket.create_connection(("127.0.0.1", port), timeout=60)
        head = b"POST /purchases HTTP/1.1\\r\\nHost: t\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(body)
        s.sendall(head + body[: len(body) // 2])
        print("sent", flush=True)
        if not stall:
            sys.stdin.readline()
            s.sendall(body[len(body) // 2 :])
        data = b""
        while b"\\r\\n\\r\\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        if not data:
            print("closed")
        else:
            lines = data.split(b"\\r\\n")
            status = lines[0].split(b" ")[1].decode()
            connection = [l.split(b":", 1)[1].strip().decode() for l in lines if l.lower().startswith(b"connection:")]
            print(status, connection[0] if connection else "-")
        """

    /// The Python client as a child process, with its standard input and output.
    final class Client {
        let process = Process()
        let input = Pipe()
        let output = Pipe()

        init(port: Int, stall: Bool) throws {
            let python = try ServeCommandTests.toolPath("python3")
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", ServeSlowClientTests.script, "\(port)", ServeCommandTests.purchase, stall ? "stall" : "wait"]
            process.standardInput = input
            process.standardOutput = output
            ProcessLaunchGuard.waitForFewDescriptors()
            try process.run()
        }

        /// The next line the client prints.
        func line() -> String {
            var bytes = Data()
            while true {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty || byte == Data([UInt8(ascii: "\n")]) { break }
                bytes.append(byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Whether a new connection to `port` is refused now.
    static func isRefused(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result != 0
    }

    @Test func aClientThatStallsIsCutOffWith408() async throws {
        try await onOwnThread {
            let scratch = try ScratchDirectory()
            let served = try ServeCommandTests.Served(
                db: scratch.path("ledger.sqlite"), extra: ["--read-timeout-milliseconds", "1000"])
            let client = try Client(port: served.port, stall: true)
            #expect(client.line() == "sent")
            #expect(client.line() == "408 close")
            client.process.waitUntilExit()
            #expect(served.terminate().status == 0)
        }
    }

    @Test func aRequestInFlightWhenSIGTERMArrivesIsAnsweredAndTheProcessExitsCleanly() async throws {
        try await onOwnThread {
            let scratch = try ScratchDirectory()
            let served = try ServeCommandTests.Served(db: scratch.path("ledger.sqlite"))
            let client = try Client(port: served.port, stall: false)
            #expect(client.line() == "sent")
            served.process.terminate()
            // Once new connections are refused, the server is shutting down with the request open.
            let deadline = Date().addingTimeInterval(30)
            while !Self.isRefused(port: served.port), Date() < deadline { usleep(5_000) }
            #expect(Self.isRefused(port: served.port))
            client.input.fileHandleForWriting.write(Data("go\n".utf8))
            #expect(client.line() == "200 close")
            client.process.waitUntilExit()
            let stopped = served.terminate()
            #expect(stopped.status == 0 && stopped.error.contains("ledger serve: stopped"), "\(stopped)")
        }
    }
}
