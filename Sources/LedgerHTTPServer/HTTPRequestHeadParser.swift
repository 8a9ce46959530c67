import Foundation

/// Parses and checks a request head: the request line and header fields, each ended by CR LF
/// or a lone LF (RFC 9112, 2.2), without the blank line that ends them. Strict where leniency
/// lets requests be read two ways: a bare CR, obsolete line folding, whitespace before a colon,
/// an empty field name, conflicting or malformed `Content-Length`, `Transfer-Encoding` beside
/// `Content-Length` and a repeated `Host` are all 400, and list elements and tokens are read by
/// HTTP's ASCII rules, never Unicode's. Lenient where nothing is ambiguous: an HTTP/1.1 request without
/// `Host` is served, and so is a line ended by LF alone.
package enum HTTPRequestHeadParser {
    private static let space: UInt8 = 0x20
    private static let tab: UInt8 = 0x09
    private static let carriageReturn: UInt8 = 0x0D
    private static let lineFeed: UInt8 = 0x0A
    private static let colon: UInt8 = 0x3A
    private static let comma: UInt8 = 0x2C
    /// The punctuation RFC 9110 allows in a token (method, field name), beside letters and digits.
    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
    /// Most decimal digits of a `Content-Length` read; longer values are too large anyway.
    private static let lengthDigitCountMax = 18

    /// The head `bytes` parsed and checked against `limits`.
    package static func parse(
        _ bytes: ArraySlice<UInt8>, limits: LedgerHTTPServerLimits
    ) throws(HTTPRejection) -> HTTPRequestHead {
        let lines = try splitLines(bytes)
        let (method, target, version) = try parseRequestLine(lines[0])
        guard lines.count - 1 <= limits.headerFieldCountMax else {
            throw .headerTooLarge("the request has more than \(limits.headerFieldCountMax) header fields")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() { headers.append(try parseField(line)) }
        func values(_ name: String) -> [String] {
            headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        }
        guard values("Host").count <= 1 else { throw .malformed("the request has more than one Host field") }
        let bodyFraming = try framing(
            transferEncodings: values("Transfer-Encoding"), contentLengths: values("Content-Length"), version: version,
            limits: limits)
        let connection = Set(list(values("Connection")).map(asciiLowercased))
        let keepAlive =
            version == .http11 ? !connection.contains("close") : connection.contains("keep-alive") && !connection.contains("close")
        let expectations = values("Expect")
        guard expectations.isEmpty || expectations.map(asciiLowercased) == ["100-continue"] else {
            throw .expectationFailed
        }
        return HTTPRequestHead(
            method: method, target: target, version: version, headers: headers, framing: bodyFraming, wantsKeepAlive: keepAlive,
            expectsContinue: !expectations.isEmpty && version == .http11 && bodyFraming != .none)
    }

    /// The lines of `bytes`, split at each CR LF or lone LF; a CR not followed by LF is malformed.
    static func splitLines(_ bytes: ArraySlice<UInt8>) throws(HTTPRejection) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == carriageReturn, index + 1 < bytes.endIndex, bytes[index + 1] == lineFeed {
                lines.append(bytes[start..<index])
                index += 2
                start = index
            } else if byte == lineFeed {
                lines.append(bytes[start..<index])
                index += 1
                start = index
            } else if byte == carriageReturn {
                throw .malformed("the head holds a CR that is not followed by LF")
            } else {
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.endIndex])
        return lines
    }

    /// `method SP target SP HTTP/x.y`: a token, visible ASCII without spaces, and 1.0 or 1.1
    /// (505 for another well-formed version).
    static func parseRequestLine(
        _ line: ArraySlice<UInt8>
    ) throws(HTTPRejection) -> (method: String, target: String, version: HTTPRequestHead.Version) {
        let parts = line.split(separator: space, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("the request line is not method SP target SP version") }
        guard !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else { throw .malformed("the method is not a token") }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > space && $0 < 0x7F }) else {
            throw .malformed("the request target is empty or holds bytes other than visible ASCII")
        }
        let version = Array(parts[2])
        if version == Array("HTTP/1.1".utf8) { return (string(parts[0]), string(parts[1]), .http11) }
        if version == Array("HTTP/1.0".utf8) { return (string(parts[0]), string(parts[1]), .http10) }
        let isDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) }
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), isDigit(version[5]), version[6] == 0x2E,
            isDigit(version[7])
        else { throw .malformed("the request line does not end in HTTP/x.y") }
        throw .versionNotSupported
    }

    /// `name: value`: a token name right before the colon, a value without control bytes
    /// (tabs aside), its surrounding spaces and tabs dropped.
    static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPRejection) -> (name: String, value: String) {
        guard let first = line.first, first != space, first != tab else {
            throw .malformed("a header line starts with whitespace (obsolete line folding)")
        }
        guard let colonIndex = line.firstIndex(of: colon) else { throw .malformed("a header line has no colon") }
        let name = line[line.startIndex..<colonIndex]
        // A token has at least one byte: a line starting with a colon names no field.
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { throw .malformed("a header field name is not a token") }
        var value = line[(colonIndex + 1)...]
        while let byte = value.first, byte == space || byte == tab { value.removeFirst() }
        while let byte = value.last, byte == space || byte == tab { value.removeLast() }
        guard isFieldText(value) else { throw .malformed("a header field value holds control bytes") }
        return (string(name), string(value))
    }

    /// The body framing the fields declare: chunked alone (501 for other codings, 400 beside
    /// `Content-Length` or in HTTP/1.0), or one `Content-Length` (repeats must agree), at most
    /// the body limit (413).
    static func framing(
        transferEncodings: [String], contentLengths: [String], version: HTTPRequestHead.Version,
        limits: LedgerHTTPServerLimits
    ) throws(HTTPRejection) -> HTTPRequestHead.BodyFraming {
        if !transferEncodings.isEmpty {
            guard version == .http11 else { throw .malformed("Transfer-Encoding in an HTTP/1.0 request") }
            guard contentLengths.isEmpty else { throw .malformed("both Transfer-Encoding and Content-Length") }
            guard list(transferEncodings).map(asciiLowercased) == ["chunked"] else { throw .unsupportedTransferCoding }
            return .chunked
        }
        let lengths = list(contentLengths, keepingEmpty: true)
        guard let length = lengths.first else { return .none }
        guard lengths.allSatisfy({ $0 == length }) else { throw .malformed("the Content-Length values differ") }
        guard !length.isEmpty, length.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw .malformed("Content-Length is not a decimal number")
        }
        guard length.utf8.count <= lengthDigitCountMax, let count = Int(length), count <= limits.bodyByteCountMax else {
            throw .bodyTooLarge(limit: limits.bodyByteCountMax)
        }
        return count == 0 ? .none : .length(count)
    }

    /// The comma-separated elements of `values`, split at each comma byte and trimmed of spaces
    /// and tabs alone, RFC 9110's optional whitespace; empty ones dropped unless `keepingEmpty`.
    /// Unicode rules would read two ways what a proxy reads one way: a no-break space is not
    /// whitespace here (`\u{A0}chunked` is no `chunked`, `1\u{A0}` no length), nor does a
    /// combining mark after a comma join it to the next element.
    private static func list(_ values: [String], keepingEmpty: Bool = false) -> [String] {
        let optionalWhitespace = CharacterSet(charactersIn: " \t")
        return values.flatMap { $0.utf8.split(separator: comma, omittingEmptySubsequences: false) }
            .map { String(Substring($0)).trimmingCharacters(in: optionalWhitespace) }
            .filter { keepingEmpty || !$0.isEmpty }
    }

    /// `text` with ASCII capitals made small and nothing else changed: HTTP's tokens are
    /// case-insensitive in ASCII only, and Unicode's mapping reads a Kelvin sign (U+212A) as `k`.
    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether `bytes` hold no control byte but tabs (RFC 9110's field text, obs-text included):
    /// also the rule for chunk-size lines and trailers, so that no bare CR or LF inside a line
    /// lets a peer that ends lines there read the body another way.
    static func isFieldText(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == tab || ($0 >= space && $0 != 0x7F) }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || tokenPunctuation.contains(byte)
    }

    /// `bytes` as UTF-8, or as Latin-1 when they are not UTF-8 (obsolete field text).
    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(bytes: bytes, encoding: .utf8) ?? String(bytes: bytes, encoding: .isoLatin1) ?? ""
    }
}
