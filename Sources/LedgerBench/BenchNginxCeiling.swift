import Foundation
import LedgerHTTPServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The loopback ceiling of the HTTP load run: the same clients, bodies and connections against
/// Debian's `nginx` answering every request with a fixed `{"outcome":"granted"}` from memory.
/// No server on this machine answers these requests faster, so `HTTP purchases/s` over this
/// figure says how much of the machine's HTTP capacity the ledger's server uses; what is left
/// is the ledger's own work and its server's.
///
/// nginx runs in the foreground from a configuration written to a scratch folder (its pid file,
/// logs and temporary folders there too), with as many workers as processors, keep-alive for
/// the whole run and no access log, and is stopped with SIGQUIT after the run.
enum BenchNginxCeiling {
    /// Where nginx is looked for, besides `PATH` (Debian installs it in /usr/sbin).
    static let searchDirectories = ["/usr/sbin", "/usr/local/sbin", "/sbin"]
    /// Tenths of a second nginx has to accept a connection after it starts.
    static let startWaitTenthsMax = 100
    /// Tenths of a second nginx has to exit after SIGQUIT, before SIGKILL.
    static let stopWaitTenthsMax = 100

    /// The nginx executable, or nil when it is not installed.
    static func executable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + searchDirectories
        return directories.map { "\($0)/nginx" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Requests per second of `bodies` sent by the load run's clients to nginx on loopback, or
    /// why it could not be measured (nginx missing, or failing to start).
    static func measure(bodies: [[UInt8]], directory: URL) async throws -> BenchSection<Double> {
        guard let nginx = executable() else {
            return .absent("skipped: nginx is not installed (apt-get install nginx)")
        }
        let folder = directory.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let port = try ListeningSocket.freeLoopbackPort()
        try configuration(folder: folder.path, port: port).write(
            to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-e", folder.appendingPathComponent("error.log").path, "-p", folder.path, "-c", "nginx.conf"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { stop(process) }
        guard try await waitUntilAccepting(port: port, process: process) else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
            return .absent("skipped: nginx did not start: \(log.suffix(300))")
        }
        let run = try await BenchHTTPLoad.onOwnThread {
            try BenchHTTPLoadClients(port: port, bodies: bodies, expectation: .anyOK).run()
        }
        return .measured(Double(bodies.count) / run.seconds)
    }

    /// nginx's configuration: a fixed answer to every request on 127.0.0.1:`port`.
    static func configuration(folder: String, port: Int) -> String {
        """
        daemon off;
        worker_processes auto;
        pid \(folder)/nginx.pid;
        error_log \(folder)/error.log warn;
        events { worker_connections 1024; }
        http {
            access_log off;
            client_body_temp_path \(folder)/body;
            proxy_temp_path \(folder)/proxy;
            fastcgi_temp_path \(folder)/fastcgi;
            uwsgi_temp_path \(folder)/uwsgi;
            scgi_temp_path \(folder)/scgi;
            keepalive_requests 1000000;
            keepalive_timeout 120s;
            server {
                listen 127.0.0.1:\(port);
                location / {
                    default_type application/json;
                    return 200 '{"outcome":"granted"}';
                }
            }
        }

        """
    }

    /// Polls until a connection to `port` is accepted; false when nginx exited or never did.
    private static func waitUntilAccepting(port: Int, process: Process) async throws -> Bool {
        for _ in 0..<startWaitTenthsMax {
            guard process.isRunning else { return false }
            let client = BenchHTTPClient(port: port)
            if (try? client.connect()) != nil {
                client.disconnect()
                return true
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Stops nginx gracefully (SIGQUIT), then for good if it lingers.
    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGQUIT)
        for _ in 0..<stopWaitTenthsMax where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
