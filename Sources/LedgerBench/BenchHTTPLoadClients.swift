import Dispatch
import Foundation
import Synchronization

/// The clients of the HTTP load run: `BenchHTTPLoad.clientCount` threads, each with its own
/// `BenchHTTPClient` and a disjoint slice of the purchases (every `clientCount`-th one). They
/// connect first, then wait for one go signal; the run is timed from it until the last client
/// is done. What each answer must be depends on the `Expectation`. Blocking throughout: run it
/// on a thread of its own.
struct BenchHTTPLoadClients: Sendable {
    /// What the clients send and the answers they require.
    enum Expectation: Sendable {
        /// New purchases: every first send answered 200 `granted`, and every purchase
        /// `BenchHTTPLoad.isDuplicated` sent again right after, answered 200 `alreadyFulfilled`.
        case newPurchases
        /// Purchases already granted, each sent once: 200 `alreadyFulfilled`.
        case duplicates
        /// Any 200 answer, each body sent once: the loopback ceiling against a static server.
        case anyOK
    }

    /// The server's port on 127.0.0.1.
    var port: Int
    /// The `POST /purchases` body of each purchase, by index.
    var bodies: [[UInt8]]
    /// What is sent and required.
    var expectation: Expectation = .newPurchases

    /// What each client thread ended with: the connections it opened, or why it failed.
    private final class Outcomes: Sendable {
        /// One result per client thread, in the order they ended.
        let results = Mutex<[Result<Int, any Error>]>([])
    }

    /// Runs every client; the seconds from the go signal until the last was done, and the
    /// connections they opened. Throws the first client's failure.
    func run() throws -> (seconds: Double, connectionCount: Int) {
        let clientCount = BenchHTTPLoad.clientCount
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let outcomes = Outcomes()
        for clientIndex in 0..<clientCount {
            done.enter()
            Thread { [self] in
                let client = BenchHTTPClient(port: port)
                let connected = Result { try client.connect() }
                ready.signal()
                go.wait()
                let result = connected.flatMap { Result { try send(client, clientIndex: clientIndex) } }
                outcomes.results.withLock { $0.append(result) }
                done.leave()
            }.start()
        }
        // Every thread signals `ready` once, connected or not, so these waits all end.
        for _ in 0..<clientCount { ready.wait() }
        let start = ContinuousClock.now
        for _ in 0..<clientCount { go.signal() }
        done.wait()
        let seconds = BenchWorkloads.seconds(ContinuousClock.now - start)
        var connectionCount = 0
        for result in outcomes.results.withLock({ $0 }) { connectionCount += try result.get() }
        return (seconds, connectionCount)
    }

    /// Sends client `clientIndex`'s slice as `expectation` says; the connections the client opened.
    private func send(_ client: BenchHTTPClient, clientIndex: Int) throws -> Int {
        for index in stride(from: clientIndex, to: bodies.count, by: BenchHTTPLoad.clientCount) {
            switch expectation {
            case .newPurchases:
                try expect(client.post("/purchases", body: bodies[index]), "granted", index: index)
                if BenchHTTPLoad.isDuplicated(index) {
                    try expect(client.post("/purchases", body: bodies[index]), "alreadyFulfilled", index: index)
                }
            case .duplicates:
                try expect(client.post("/purchases", body: bodies[index]), "alreadyFulfilled", index: index)
            case .anyOK:
                let response = try client.post("/purchases", body: bodies[index])
                guard response.status == 200 else {
                    throw BenchWorkloads.Failure(description: "HTTP ceiling: request \(index) answered \(response.status)")
                }
            }
        }
        client.disconnect()
        return client.connectionCount
    }

    /// Throws unless `response` is 200 with the JSON `outcome` `expected`.
    private func expect(_ response: BenchHTTPClient.Response, _ expected: String, index: Int) throws {
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        let outcome = object?["outcome"] as? String
        guard response.status == 200, outcome == expected else {
            throw BenchWorkloads.Failure(
                description: "HTTP load: purchase \(index): expected 200 \(expected), got \(response.status) "
                    + String(decoding: response.body.prefix(300), as: UTF8.self))
        }
    }
}
