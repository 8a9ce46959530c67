import Foundation

/// Reads one request off a connection — the head, then the body its framing declares — with
/// every byte counted against the limits and every wait against the request's deadline.
/// Package-visible, with the parser and the channel, so the HTTP fuzz body can drive it over a
/// socket pair exactly as a connection does.
package struct HTTPRequestReader {
    /// Most bytes of a chunk-size line, extensions included.
    static let chunkLineByteCountMax = 1024

    /// The connection read.
    let channel: ConnectionChannel
    /// The bounds kept.
    let limits: LedgerHTTPServerLimits

    /// A reader of `channel` within `limits`.
    package init(channel: ConnectionChannel, limits: LedgerHTTPServerLimits) {
        self.channel = channel
        self.limits = limits
    }

    /// Waits before `deadline` for the first byte of a request (line ends before it are
    /// dropped); `.woken` when `wake` turns readable first, `.timedOut` when nothing came.
    package func awaitRequest(before deadline: ContinuousClock.Instant, wake: Int32) throws(ConnectionFailure) {
        channel.dropLeadingLineEnds()
        while channel.buffer.isEmpty {
            try channel.fill(before: deadline, wake: wake)
            channel.dropLeadingLineEnds()
        }
    }

    /// Reads and parses the head, at most `headerByteCountMax` bytes with its blank line.
    package func readHead(before deadline: ContinuousClock.Instant) throws(ConnectionFailure) -> HTTPRequestHead {
        var searchStart = 0
        while true {
            if let end = channel.headEnd(from: searchStart) {
                guard end.consumedCount <= limits.headerByteCountMax else { throw .rejected(Self.headTooLarge(limits)) }
                let head = channel.consume(end.consumedCount).prefix(end.contentCount)
                do {
                    return try HTTPRequestHeadParser.parse(head, limits: limits)
                } catch {
                    throw .rejected(error)
                }
            }
            guard channel.buffer.count < limits.headerByteCountMax else { throw .rejected(Self.headTooLarge(limits)) }
            searchStart = max(0, channel.buffer.count - 2)
            try channel.fill(before: deadline)
        }
    }

    /// Reads the body `framing` declares.
    package func readBody(
        _ framing: HTTPRequestHead.BodyFraming, before deadline: ContinuousClock.Instant
    ) throws(ConnectionFailure) -> Data {
        switch framing {
        case .none: return Data()
        case .length(let count):
            try fill(atLeast: count, before: deadline)
            return Data(channel.consume(count))
        case .chunked: return try readChunkedBody(before: deadline)
        }
    }

    /// Reads chunks until the last, at most `bodyByteCountMax` bytes of data in all (413 as
    /// soon as a chunk size passes it), then skips the trailer fields.
    func readChunkedBody(before deadline: ContinuousClock.Instant) throws(ConnectionFailure) -> Data {
        var body = Data()
        while true {
            let line = try readLine(
                byteCountMax: Self.chunkLineByteCountMax, before: deadline,
                tooLong: .malformed("a chunk-size line is longer than \(Self.chunkLineByteCountMax) bytes"))
            let size = try chunkSize(line)
            if size == 0 {
                try skipTrailers(before: deadline)
                return body
            }
            guard size <= limits.bodyByteCountMax - body.count else {
                throw .rejected(.bodyTooLarge(limit: limits.bodyByteCountMax))
            }
            try fill(atLeast: size + 2, before: deadline)
            let chunk = channel.consume(size + 2)
            guard chunk[size] == 13, chunk[size + 1] == 10 else { throw .rejected(.malformed("a chunk does not end in CR LF")) }
            body.append(contentsOf: chunk[0..<size])
        }
    }

    /// The size a chunk-size line gives: hex digits, then optional whitespace and extensions,
    /// with no control byte but tabs anywhere in the line.
    private func chunkSize(_ line: [UInt8]) throws(ConnectionFailure) -> Int {
        guard HTTPRequestHeadParser.isFieldText(line) else {
            throw .rejected(.malformed("a chunk-size line holds control bytes"))
        }
        let digits = line.prefix { $0 != 0x3B && $0 != 0x20 && $0 != 0x09 }
        let hex = String(decoding: digits, as: UTF8.self)
        guard !digits.isEmpty, digits.allSatisfy({ $0 < 0x80 && Character(UnicodeScalar($0)).isHexDigit }) else {
            throw .rejected(.malformed("a chunk size is not hexadecimal"))
        }
        guard digits.count <= 15, let size = Int(hex, radix: 16) else {
            throw .rejected(.bodyTooLarge(limit: limits.bodyByteCountMax))
        }
        return size
    }

    /// Reads trailer fields up to their blank line, `headerByteCountMax` bytes at most, and drops
    /// them; a line with a control byte but tabs is malformed.
    private func skipTrailers(before deadline: ContinuousClock.Instant) throws(ConnectionFailure) {
        var byteCount = 0
        while true {
            let line = try readLine(
                byteCountMax: limits.headerByteCountMax - byteCount, before: deadline, tooLong: Self.headTooLarge(limits))
            guard HTTPRequestHeadParser.isFieldText(line) else {
                throw .rejected(.malformed("a trailer line holds control bytes"))
            }
            byteCount += line.count + 2
            if line.isEmpty { return }
        }
    }

    /// Reads one line, without its CR LF, of at most `byteCountMax` bytes.
    private func readLine(
        byteCountMax: Int, before deadline: ContinuousClock.Instant, tooLong: HTTPRejection
    ) throws(ConnectionFailure) -> [UInt8] {
        var searchStart = 0
        while true {
            if let end = channel.lineEnd(from: searchStart) {
                guard end <= byteCountMax else { throw .rejected(tooLong) }
                return Array(channel.consume(end + 2).dropLast(2))
            }
            guard channel.buffer.count <= byteCountMax else { throw .rejected(tooLong) }
            searchStart = max(0, channel.buffer.count - 1)
            try channel.fill(before: deadline)
        }
    }

    /// Reads until the buffer holds at least `count` bytes.
    private func fill(atLeast count: Int, before deadline: ContinuousClock.Instant) throws(ConnectionFailure) {
        while channel.buffer.count < count { try channel.fill(before: deadline) }
    }

    private static func headTooLarge(_ limits: LedgerHTTPServerLimits) -> HTTPRejection {
        .headerTooLarge("the request head exceeds \(limits.headerByteCountMax) bytes")
    }
}
