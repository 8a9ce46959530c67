import LedgerHTTP

/// The executor the handler tasks prefer: 16 serial Dispatch queues of the server's own, so a
/// request is answered even while the concurrency pool's few threads are busy or blocked
/// elsewhere in the process (seen as loopback servers answering nothing for 30 s while the test
/// suites ran beside them). Shutdown on a signal runs there too.
enum HandlerExecutor {
    /// Handler jobs that may run at once, one per queue.
    static let queueCount = 16

    /// The one executor every server in the process shares.
    static let shared = SerialQueuesTaskExecutor(label: "LedgerHTTPServer.handlers", queueCount: queueCount)
}
