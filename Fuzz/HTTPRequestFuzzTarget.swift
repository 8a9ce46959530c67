// libFuzzer target: arbitrary bytes as HTTP/1.1 requests to LedgerHTTPServer. Build and run with Fuzz/build.sh.
//
// The body is Tests/LedgerHTTPServerTests/HTTPRequestFuzzBody.swift, which HTTPRequestFuzzTests also
// runs over seeded inputs in CI. The first byte of an input picks what the rest is: a request head for
// the parser, the bytes a client sends on a connection (read by the server's own reader from a socket
// pair: head, then the body its framing declares), or a chunked body behind a fixed valid head. The body
// checks that every refusal is one of the server's typed answers, that a parsed head and a body agree
// with an independent reading of the bytes, and that the same bytes give the same result twice.

/// The body; it holds no state, so every input starts afresh.
let body = HTTPRequestFuzzBody()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .failure(let violation) = body.run(bytes) { fatalError("fuzz invariant failed: \(violation)") }
    return 0
}
