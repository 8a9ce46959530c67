// The shared HTTP pieces, re-exported so code that imports PlayStoreAdapter keeps naming
// `HTTPTransport`, `HTTPResponse` and the retry policy as before they moved.
@_exported import LedgerHTTPClient

/// The retry policy of every Play request: the shared `HTTPRetryPolicy`.
public typealias PlayRetryPolicy = HTTPRetryPolicy

/// Sleeps between Play retries; injected so tests need not wait.
public typealias PlayRetrySleep = HTTPRetrySleep
