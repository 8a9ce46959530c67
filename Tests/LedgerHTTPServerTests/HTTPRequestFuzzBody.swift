#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import LedgerHTTPServer

/// One input of the HTTP request fuzz target, shared by the libFuzzer target
/// (`Fuzz/HTTPRequestFuzzTarget.swift`, which compiles this file) and by `HTTPRequestFuzzTests`,
/// which runs it over seeded random and mutated inputs in CI.
///
/// The first byte picks how the rest is used (`% 3`):
/// - 0: a request head without its blank line, straight to `HTTPRequestHeadParser.parse`;
/// - 1: the bytes a client sends, written to one end of a socket pair whose other end is read
///   by the server's own `HTTPRequestReader` as a connection does (`awaitRequest`, `readHead`,
///   then `readBody` with the head's framing);
/// - 2: the same behind a fixed valid chunked head, so the rest is a chunked body (sizes,
///   extensions, data, trailers).
///
/// Beyond "no crash, no hang": every refusal is an `HTTPRejection` with a status among 400, 408,
/// 413, 417, 431, 501 and 505 (a chunked body's among 400, 413, 431); the reader otherwise stops
/// only because the input ended; a parsed head has a token method, a visible-ASCII target, one
/// field per line with token names and values free of control bytes, at most the field limit and
/// at most one `Host`, and a framing, keep-alive and `100-continue` that the fields re-read by
/// RFC 9112 (ASCII case, spaces and tabs only) also give; the reader's head is the parser's on
/// the bytes before the first blank line (431 past the head limit); a body never passes the body
/// limit, a `Content-Length` body is exactly the bytes after the head, and a chunked body is the
/// chunk data an independent decoder reads from the input, whose chunk lines and trailers hold no
/// control bytes; the same bytes give the same result twice.
struct HTTPRequestFuzzBody: Sendable {
    /// The reader's limits: small, so inputs of a few KiB reach every one of them.
    static let limits = LedgerHTTPServerLimits(bodyByteCountMax: 8_192, headerByteCountMax: 4_096, headerFieldCountMax: 32)
    /// How long one read may take. The writing end is closed before the read starts, so every
    /// wait ends at once; the deadline only bounds a reader that would wait anyway.
    static let readTimeoutMilliseconds = 1_000
    /// Most bytes written to the socket pair: a socket buffer holds them without a reader, so
    /// one thread writes them all before reading (longer inputs are cut here).
    static let socketByteCountMax = 64 << 10
    /// The head mode 2 puts before its input.
    static let chunkedHead = Array("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
    /// The statuses of the server's own refusals of a request (503 is a connection's, not a request's).
    static let refusalStatuses: Set<Int> = [400, 408, 413, 417, 431, 501, 505]
    /// The statuses a chunked body may be refused with: malformed, too large, trailers too large.
    static let chunkedBodyRefusalStatuses: Set<Int> = [400, 413, 431]

    /// How an input's bytes are used.
    enum Mode: Int, Sendable, CaseIterable {
        case head, connection, chunkedBody
    }

    /// What one input did.
    enum Verdict: String, Sendable, CaseIterable {
        /// Mode 0: the parser accepted the head.
        case parsed
        /// A whole request was read.
        case read
        /// Refused with an `HTTPRejection`.
        case refused
        /// The input ended before the request did.
        case ended
        /// The read deadline passed (only on a machine too busy to read a socket in a second).
        case timedOut
    }

    /// What one input did, with the refusal's status.
    struct Report: Sendable, Hashable {
        let mode: Mode
        let verdict: Verdict
        let status: Int?
    }

    /// A broken invariant, with what broke.
    struct Violation: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// A header field as parsed.
    struct Field: Equatable, CustomStringConvertible {
        let name: String
        let value: String
        var description: String { "\(name): \(value)" }
    }

    /// A parsed head in comparable form (`HTTPRequestHead` holds its fields as tuples).
    struct Head: Equatable {
        let method: String
        let target: String
        let version: HTTPRequestHead.Version
        let fields: [Field]
        let framing: HTTPRequestHead.BodyFraming
        let wantsKeepAlive: Bool
        let expectsContinue: Bool

        init(_ head: HTTPRequestHead) {
            method = head.method
            target = head.target
            version = head.version
            fields = head.headers.map { Field(name: $0.name, value: $0.value) }
            framing = head.framing
            wantsKeepAlive = head.wantsKeepAlive
            expectsContinue = head.expectsContinue
        }
    }

    /// Why a read stopped short.
    enum Failure: Equatable {
        case refused(status: Int, message: String)
        case closed
        case timedOut
        case woken
    }

    /// What the reader made of a connection's bytes: the head if it got one, the body if it got
    /// that too, else the failure.
    struct ReadOutcome: Equatable {
        var head: Head?
        var body: [UInt8]?
        var failure: Failure?
    }

    /// What the independent chunked decoder reads.
    enum ChunkedReading: Equatable {
        /// The chunk data, all chunks and trailers complete.
        case body([UInt8])
        /// The input ends first.
        case incomplete
        /// Not chunked framing (with no control byte in a chunk line or a trailer), or past the body limit.
        case invalid
    }

    private static let carriageReturn: UInt8 = 0x0D
    private static let lineFeed: UInt8 = 0x0A
    private static let space: UInt8 = 0x20
    private static let tab: UInt8 = 0x09
    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)

    /// Runs one input; a broken invariant is the failure.
    func run(_ bytes: [UInt8]) -> Result<Report, Violation> {
        do {
            let rest = Array(bytes.dropFirst())
            switch Mode(rawValue: Int((bytes.first ?? 0) % 3)) ?? .head {
            case .head: return .success(try runHead(rest))
            case .connection: return .success(try runConnection(Array(rest.prefix(Self.socketByteCountMax)), mode: .connection))
            case .chunkedBody:
                let stream = Self.chunkedHead + rest.prefix(Self.socketByteCountMax - Self.chunkedHead.count)
                return .success(try runConnection(stream, mode: .chunkedBody))
            }
        } catch let violation as Violation {
            return .failure(violation)
        } catch {
            return .failure(Violation(description: "the harness failed: \(error)"))
        }
    }

    // MARK: - Mode 0: the parser

    private func runHead(_ bytes: [UInt8]) throws -> Report {
        let first = Self.parse(bytes[...])
        try expect(Self.parse(bytes[...]) == first, "parsing the same head twice gave two results")
        switch first {
        case .success(let head):
            try check(head, content: bytes[...])
            return Report(mode: .head, verdict: .parsed, status: nil)
        case .failure(let rejection):
            try check(rejection, among: Self.refusalStatuses)
            return Report(mode: .head, verdict: .refused, status: rejection.status)
        }
    }

    private static func parse(_ content: ArraySlice<UInt8>) -> Result<Head, HTTPRejection> {
        do throws(HTTPRejection) {
            return .success(Head(try HTTPRequestHeadParser.parse(content, limits: limits)))
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Modes 1 and 2: the reader on a socket

    private func runConnection(_ stream: [UInt8], mode: Mode) throws -> Report {
        let outcome = try read(stream)
        let again = try read(stream)
        // A timeout is the machine's doing, not the input's, so it is not compared.
        if outcome.failure != .timedOut, again.failure != .timedOut {
            try expect(again == outcome, "reading the same bytes twice gave \(outcome), then \(again)")
        }
        let start = Self.afterLeadingLineEnds(stream)
        try checkHead(of: outcome, stream: stream, start: start)
        if mode == .chunkedBody, let head = outcome.head {
            try expect(head.framing == .chunked, "the fixed chunked head was read as \(head.framing)")
        }
        switch outcome.failure {
        case nil:
            try checkBody(of: outcome, stream: stream, start: start)
            return Report(mode: mode, verdict: .read, status: nil)
        case .refused(let status, _):
            if let head = outcome.head {
                try expect(
                    head.framing == .chunked && Self.chunkedBodyRefusalStatuses.contains(status),
                    "a \(head.framing) body refused with \(status)")
            }
            return Report(mode: mode, verdict: .refused, status: status)
        case .closed:
            try checkEndedEarly(outcome, stream: stream, start: start)
            return Report(mode: mode, verdict: .ended, status: nil)
        case .timedOut:
            return Report(mode: mode, verdict: .timedOut, status: nil)
        case .woken:
            throw Violation(description: "the reader was woken with no wake descriptor")
        }
    }

    /// Writes `stream` to a socket pair, closes the writing end, and reads one request off the
    /// other end, non-blocking as the server's accepted sockets are.
    private func read(_ stream: [UInt8]) throws -> ReadOutcome {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Self.streamType, 0, &ends) == 0 else {
            throw Violation(description: "socketpair failed: errno \(errno)")
        }
        defer { close(ends[0]) }
        SocketSystem.setNonBlocking(ends[0])
        SocketSystem.setNonBlocking(ends[1])
        let written = try Self.writeAll(stream, to: ends[1])
        close(ends[1])
        try expect(written == stream.count, "the socket buffer took \(written) of \(stream.count) bytes")
        let reader = HTTPRequestReader(channel: ConnectionChannel(descriptor: ends[0]), limits: Self.limits)
        let deadline = ContinuousClock.now + .milliseconds(Self.readTimeoutMilliseconds)
        var outcome = ReadOutcome()
        do throws(ConnectionFailure) {
            // As a connection does before each request: drop leading line ends. No wake
            // descriptor: poll ignores a negative one.
            try reader.awaitRequest(before: deadline, wake: -1)
            let head = try reader.readHead(before: deadline)
            outcome.head = Head(head)
            outcome.body = Array(try reader.readBody(head.framing, before: deadline))
        } catch {
            switch error {
            case .rejected(let rejection):
                try check(rejection, among: Self.refusalStatuses)
                outcome.failure = .refused(status: rejection.status, message: rejection.message)
            case .closed: outcome.failure = .closed
            case .timedOut: outcome.failure = .timedOut
            case .woken: outcome.failure = .woken
            }
        }
        return outcome
    }

    /// `SOCK_STREAM` as `socketpair` takes it on this platform.
    private static var streamType: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// Sends `bytes` on the non-blocking `descriptor` until all are sent or the buffer is full;
    /// how many were sent. Each round sends at least one byte, so `bytes.count` bounds the rounds.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws -> Int {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, 0) }
            if count > 0 {
                offset += count
            } else if errno != EINTR {
                break
            }
        }
        return offset
    }

    /// The reader's head against the parser's on the bytes before the first blank line, and the
    /// head limit: a head that ends past it, or none within it, is 431; one that never ends is
    /// the input ending early.
    private func checkHead(of outcome: ReadOutcome, stream: [UInt8], start: Int) throws {
        let limit = Self.limits.headerByteCountMax
        guard let end = Self.headEnd(stream, from: start) else {
            if stream.count - start >= limit {
                try expect(outcome.failure?.status == 431, "a head with no end past \(limit) bytes: \(outcome)")
            } else {
                try expect(outcome.head == nil && outcome.failure == .closed, "a head with no end was read: \(outcome)")
            }
            return
        }
        guard end - start <= limit else {
            try expect(outcome.failure?.status == 431, "a head of \(end - start) bytes: \(outcome)")
            return
        }
        // Zero-based, as the reader hands the parser the bytes it consumed.
        let content = Array(Self.withoutBlankLine(stream[start..<end]))[...]
        switch Self.parse(content) {
        case .success(let head):
            try expect(outcome.head == head, "the reader read \(String(describing: outcome.head)), the parser \(head)")
            try check(head, content: content)
        case .failure(let rejection):
            try expect(
                outcome.head == nil && outcome.failure == .refused(status: rejection.status, message: rejection.message),
                "the reader gave \(outcome), the parser \(rejection)")
        }
    }

    /// The body against the head's framing and the input: within the limit, a `Content-Length`
    /// body the bytes after the head, a chunked body what the independent decoder reads.
    private func checkBody(of outcome: ReadOutcome, stream: [UInt8], start: Int) throws {
        guard let head = outcome.head, let body = outcome.body, let end = Self.headEnd(stream, from: start) else {
            throw Violation(description: "a request read without a head, a body or a head end: \(outcome)")
        }
        try expect(body.count <= Self.limits.bodyByteCountMax, "a body of \(body.count) bytes")
        switch head.framing {
        case .none: try expect(body.isEmpty, "a body of \(body.count) bytes without framing")
        case .length(let count):
            try expect(
                body == Array(stream[end...].prefix(count)), "the Content-Length body is not the \(count) bytes after the head")
            try expect(body.count == count, "a Content-Length body of \(body.count) bytes, not \(count)")
        case .chunked:
            let reading = Self.decodeChunked(stream[end...])
            try expect(reading == .body(body), "the reader read \(body.count) chunked bytes, the decoder \(reading)")
        }
    }

    /// When the input ended early, the head or body it declared was longer than it.
    private func checkEndedEarly(_ outcome: ReadOutcome, stream: [UInt8], start: Int) throws {
        guard let head = outcome.head, let end = Self.headEnd(stream, from: start) else { return }
        switch head.framing {
        case .none: throw Violation(description: "the input ended early for a request without a body")
        case .length(let count):
            try expect(stream.count - end < count, "the input holds the \(count) body bytes the reader missed")
        case .chunked:
            let reading = Self.decodeChunked(stream[end...])
            try expect(reading == .incomplete || reading == .invalid, "the input holds a whole chunked body: \(reading)")
        }
    }

    private func check(_ rejection: HTTPRejection, among statuses: Set<Int>) throws {
        try expect(statuses.contains(rejection.status), "a refusal with status \(rejection.status): \(rejection.message)")
        try expect(!rejection.message.isEmpty, "a refusal without a message")
    }

    // MARK: - A parsed head against its bytes

    /// The head's parts against `content`, the head without its blank line, read again by RFC
    /// 9110/9112 rules: ASCII case, only spaces and tabs as whitespace.
    private func check(_ head: Head, content: ArraySlice<UInt8>) throws {
        try expect(
            !head.method.isEmpty && head.method.utf8.allSatisfy(Self.isTokenByte), "method \(head.method.debugDescription)")
        try expect(
            !head.target.isEmpty && head.target.utf8.allSatisfy { $0 > Self.space && $0 < 0x7F },
            "target \(head.target.debugDescription)")
        let version = head.version == .http11 ? "HTTP/1.1" : "HTTP/1.0"
        var requestLine = Array(content.prefix { $0 != Self.lineFeed })
        if requestLine.last == Self.carriageReturn { requestLine.removeLast() }
        try expect(
            requestLine == Array("\(head.method) \(head.target) \(version)".utf8),
            "the request line \(String(decoding: requestLine, as: UTF8.self).debugDescription) read as "
                + "\(head.method) \(head.target) \(version)")
        let lineCount = content.count { $0 == Self.lineFeed } + 1
        try expect(head.fields.count == lineCount - 1, "\(lineCount) lines read as \(head.fields.count) fields")
        try expect(head.fields.count <= Self.limits.headerFieldCountMax, "\(head.fields.count) fields")
        for field in head.fields {
            try expect(
                !field.name.isEmpty && field.name.utf8.allSatisfy(Self.isTokenByte), "field name \(field.name.debugDescription)")
            try expect(
                field.value.unicodeScalars.allSatisfy { $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }
                    && !Self.isWhitespace(field.value.utf8.first) && !Self.isWhitespace(field.value.utf8.last),
                "field value \(field.value.debugDescription)")
        }
        try expect(head.values("host").count <= 1, "two Host fields")
        try checkFraming(head)
        let connection = Set(Self.elements(head.values("connection")).map(Self.asciiLowercased))
        let keepAlive =
            head.version == .http11
            ? !connection.contains("close") : connection.contains("keep-alive") && !connection.contains("close")
        try expect(head.wantsKeepAlive == keepAlive, "keep-alive \(head.wantsKeepAlive) with Connection \(connection)")
        let expectations = head.values("expect").map(Self.asciiLowercased)
        try expect(expectations.isEmpty || expectations == ["100-continue"], "Expect \(expectations) accepted")
        try expect(
            head.expectsContinue == (!expectations.isEmpty && head.version == .http11 && head.framing != .none),
            "expects 100-continue: \(head.expectsContinue)")
    }

    /// The framing against `Transfer-Encoding` (exactly `chunked`, HTTP/1.1, no `Content-Length`)
    /// and `Content-Length` (1*DIGIT, repeats equal, within the body limit).
    private func checkFraming(_ head: Head) throws {
        let codings = Self.elements(head.values("transfer-encoding")).filter { !$0.isEmpty }
        let lengths = Self.elements(head.values("content-length"))
        if !head.values("transfer-encoding").isEmpty {
            try expect(
                head.framing == .chunked && head.version == .http11 && lengths.isEmpty
                    && codings.map(Self.asciiLowercased) == ["chunked"],
                "framing \(head.framing) from Transfer-Encoding \(codings), Content-Length \(lengths)")
        } else if let length = lengths.first {
            let count = Int(length)
            try expect(
                lengths.allSatisfy { $0 == length } && !length.isEmpty
                    && length.utf8.allSatisfy { (0x30...0x39).contains($0) } && (count ?? .max) <= Self.limits.bodyByteCountMax
                    && head.framing == (count == 0 ? .none : .length(count ?? -1)),
                "framing \(head.framing) from Content-Length \(lengths.map(\.debugDescription))")
        } else {
            try expect(head.framing == .none, "framing \(head.framing) without a framing field")
        }
    }

    // MARK: - Independent readings

    /// Where the first request's head starts: after any `CR LF` before it, as a connection drops them.
    static func afterLeadingLineEnds(_ bytes: [UInt8]) -> Int {
        var index = 0
        while index + 1 < bytes.count, bytes[index] == carriageReturn, bytes[index + 1] == lineFeed { index += 2 }
        return index
    }

    /// The index just past the head starting at `start`: past its first empty line (each line
    /// ends at LF, a CR before the LF not counting) after at least one other line.
    static func headEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var lineStart = start
        var lineIndex = 0
        for index in bytes.indices.dropFirst(start) where bytes[index] == lineFeed {
            let line = bytes[lineStart..<index]
            if lineIndex > 0, line.isEmpty || (line.count == 1 && line.first == carriageReturn) { return index + 1 }
            lineStart = index + 1
            lineIndex += 1
        }
        return nil
    }

    /// A head without the line end of its last line and its blank line.
    static func withoutBlankLine(_ head: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var content = head
        for _ in 0..<2 {
            if content.last == lineFeed { content.removeLast() }
            if content.last == carriageReturn { content.removeLast() }
        }
        return content
    }

    /// Chunked framing read by RFC 9112, 7.1: `hex-size [ext] CRLF data CRLF` up to a zero size,
    /// then trailer lines up to an empty one. As the server, whitespace after the size and any
    /// extension text are accepted, but no control byte but a tab in a size line or a trailer.
    static func decodeChunked(_ bytes: ArraySlice<UInt8>) -> ChunkedReading {
        var rest = bytes
        var data: [UInt8] = []
        // Every round takes at least one line of `rest`, so its length bounds the rounds.
        while true {
            guard let line = takeLine(&rest) else { return .incomplete }
            guard isFieldText(line) else { return .invalid }
            let digits = line.prefix { hexValue($0) != nil }
            guard !digits.isEmpty, digits.count == line.count || [0x3B, space, tab].contains(line[digits.count]) else {
                return .invalid
            }
            // Saturates past the limit: such a size is refused before it is read.
            let size = digits.reduce(0) { min($0 * 16 + (hexValue($1) ?? 0), limits.bodyByteCountMax + 1) }
            if size == 0 {
                while true {
                    guard let trailer = takeLine(&rest) else { return .incomplete }
                    guard isFieldText(trailer) else { return .invalid }
                    if trailer.isEmpty { return .body(data) }
                }
            }
            guard size <= limits.bodyByteCountMax - data.count else { return .invalid }
            guard rest.count >= size + 2 else { return .incomplete }
            data += rest.prefix(size)
            rest = rest.dropFirst(size)
            guard rest.first == carriageReturn, rest.dropFirst().first == lineFeed else { return .invalid }
            rest = rest.dropFirst(2)
        }
    }

    /// Removes and returns the first line of `bytes`, ended by `CR LF`; nil when none ends.
    private static func takeLine(_ bytes: inout ArraySlice<UInt8>) -> [UInt8]? {
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == carriageReturn, bytes[index + 1] == lineFeed {
                let line = Array(bytes[..<index])
                bytes = bytes[(index + 2)...]
                return line
            }
            index += 1
        }
        return nil
    }

    private static func isFieldText(_ line: [UInt8]) -> Bool {
        line.allSatisfy { $0 == tab || ($0 >= space && $0 != 0x7F) }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || tokenPunctuation.contains(byte)
    }

    /// Whether `byte` is a space or a tab, the only whitespace of HTTP's grammar.
    static func isWhitespace(_ byte: UInt8?) -> Bool { byte == space || byte == tab }

    /// The comma-separated elements of `values`, split and trimmed byte by byte: spaces and tabs
    /// around each dropped.
    static func elements(_ values: [String]) -> [String] {
        values.flatMap { Array($0.utf8).split(separator: 0x2C, omittingEmptySubsequences: false) }.map { element in
            let start = element.firstIndex { !isWhitespace($0) } ?? element.endIndex
            let end = element.lastIndex { !isWhitespace($0) }.map { $0 + 1 } ?? start
            return String(decoding: element[start..<max(start, end)], as: UTF8.self)
        }
    }

    /// `text` with ASCII capitals made small and every other character kept.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Violation(description: message()) }
    }
}

extension HTTPRequestFuzzBody.Head {
    /// The values of the fields named `name`, compared in ASCII case.
    func values(_ name: String) -> [String] {
        fields.filter { HTTPRequestFuzzBody.asciiLowercased($0.name) == name }.map(\.value)
    }
}

extension HTTPRequestFuzzBody.Failure {
    /// The refusal's status, if a refusal.
    var status: Int? {
        if case .refused(let status, _) = self { return status }
        return nil
    }
}
