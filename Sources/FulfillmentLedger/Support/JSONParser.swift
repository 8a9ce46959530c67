/// A strict RFC 8259 JSON parser that records where every value starts, so catalog problems can cite line and column.
///
/// It also rejects duplicate keys: in a hand-edited file a second key silently hides the first. Keys compare as
/// Swift strings, so canonically equivalent spellings (precomposed or decomposed "é") clash, as they look the same.
public struct JSONParser: Sendable {
    /// Caps that stop a corrupt or hostile document from exhausting memory or the stack.
    public struct Limits: Sendable {
        /// The deepest nesting of arrays and objects; it also bounds the parser's recursion.
        public var depthMax = 64
        /// The largest accepted input, in bytes.
        public var byteCountMax = 8 * 1024 * 1024
        /// The largest accepted decoded string or key, in UTF-8 bytes.
        public var stringByteCountMax = 64 * 1024
        /// The most array elements plus object members in the whole document.
        public var memberCountMax = 100_000

        /// Creates limits, each defaulting to a value generous for a product catalog.
        public init(
            depthMax: Int = 64, byteCountMax: Int = 8 * 1024 * 1024, stringByteCountMax: Int = 64 * 1024,
            memberCountMax: Int = 100_000
        ) {
            self.depthMax = depthMax
            self.byteCountMax = byteCountMax
            self.stringByteCountMax = stringByteCountMax
            self.memberCountMax = memberCountMax
        }
    }

    /// The limits this parser enforces.
    public var limits: Limits

    /// Creates a parser that enforces `limits`.
    public init(limits: JSONParser.Limits = .init()) {
        self.limits = limits
    }

    /// Parses one JSON document from UTF-8 bytes, skipping a leading byte-order mark.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var cursor = JSONParserCursor(bytes: bytes, limits: limits)
        return try cursor.readDocument()
    }

    /// Parses one JSON document from text, skipping a leading byte-order mark.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// Why a document was rejected, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem the parser reports.
    public enum Kind: Sendable, Hashable {
        /// The input ended inside a value, or held no value at all.
        case unexpectedEndOfInput
        /// A character that cannot appear here; the payload is the character itself.
        case unexpectedCharacter(String)
        /// A malformed number, such as `01`, `-`, `1.` or `1e`, or one too large for a `Double`.
        case invalidNumber
        /// A backslash escape that JSON does not define, or a `\u` without four hex digits.
        case invalidEscape
        /// A `\u` escape naming a lone UTF-16 surrogate.
        case invalidUnicodeScalar
        /// A raw character below U+0020 inside a string.
        case controlCharacterInString
        /// A key that already appeared in the same object; the payload is the key.
        case duplicateKey(String)
        /// Something other than whitespace after the document's value.
        case trailingContent
        /// Arrays and objects nested deeper than `Limits.depthMax`.
        case depthLimitExceeded
        /// The input, a string, or the member count exceeded its limit.
        case sizeLimitExceeded
        /// Bytes that are not well-formed UTF-8.
        case invalidUTF8
    }

    /// What went wrong.
    public var kind: Kind
    /// Where it went wrong.
    public var position: JSONPosition

    /// Creates an error of `kind` at `position`.
    public init(kind: Kind, position: JSONPosition) {
        self.kind = kind
        self.position = position
    }

    /// A message for people, such as `line 3, column 7: duplicate key "amount"`.
    public var description: String { "line \(position.line), column \(position.column): \(message)" }

    /// The problem without its position, such as `duplicate key "amount"`.
    package var message: String {
        switch kind {
        case .unexpectedEndOfInput: return "unexpected end of input"
        case .unexpectedCharacter(let character): return "unexpected character \(JSONValue.encodeString(character))"
        case .invalidNumber: return "invalid number"
        case .invalidEscape: return "invalid escape sequence"
        case .invalidUnicodeScalar: return "invalid Unicode escape (unpaired surrogate)"
        case .controlCharacterInString: return "control character in string (write it as an escape)"
        case .duplicateKey(let key): return "duplicate key \(JSONValue.encodeString(key))"
        case .trailingContent: return "unexpected content after the JSON value"
        case .depthLimitExceeded: return "arrays and objects nested too deeply"
        case .sizeLimitExceeded: return "document, string or member count too large"
        case .invalidUTF8: return "invalid UTF-8"
        }
    }
}

/// The cursor over one document. Every loop in it is bounded by the input's byte count, which
/// `Limits.byteCountMax` caps, by `Limits.memberCountMax`, or by a fixed count.
private struct JSONParserCursor {
    let bytes: [UInt8]
    let limits: JSONParser.Limits
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    var memberCount = 0

    init(bytes: [UInt8], limits: JSONParser.Limits) {
        self.bytes = bytes
        self.limits = limits
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            // Editors show the character after a BOM in column 1, so the BOM starts no column.
            (index, lineStart) = (3, 3)
        }
    }

    var position: JSONPosition {
        JSONPosition(line: line, column: index - lineStart + 1, offset: index)
    }

    func fail(_ kind: JSONParseError.Kind, at position: JSONPosition? = nil) -> JSONParseError {
        JSONParseError(kind: kind, position: position ?? self.position)
    }

    mutating func readDocument() throws(JSONParseError) -> JSONValue {
        let documentStart = JSONPosition(line: 1, column: 1, offset: 0)
        guard bytes.count <= limits.byteCountMax else { throw fail(.sizeLimitExceeded, at: documentStart) }
        skipWhitespace()
        let value = try readValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail(.trailingContent) }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09:
                index += 1
            case 0x0A, 0x0D:
                // CRLF is one line break; a lone CR, as old Mac editors wrote, is one too.
                let isCRLF = bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A
                index += isCRLF ? 2 : 1
                (line, lineStart) = (line + 1, index)
            default:
                return
            }
        }
    }

    /// Returns the current byte, or fails when the input has run out.
    func currentByte() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw fail(.unexpectedEndOfInput) }
        return bytes[index]
    }

    /// The error for the current byte: it cannot appear here, or it does not start valid UTF-8.
    func unexpectedCharacter() -> JSONParseError {
        guard index < bytes.count else { return fail(.unexpectedEndOfInput) }
        guard let length = utf8SequenceLength(at: index) else { return fail(.invalidUTF8) }
        return fail(.unexpectedCharacter(String(decoding: bytes[index..<(index + length)], as: UTF8.self)))
    }

    mutating func consume(_ expected: UInt8) throws(JSONParseError) {
        guard try currentByte() == expected else { throw unexpectedCharacter() }
        index += 1
    }

    mutating func readValue() throws(JSONParseError) -> JSONValue {
        let start = position
        switch try currentByte() {
        case UInt8(ascii: "{"): return try readObject(start)
        case UInt8(ascii: "["): return try readArray(start)
        case UInt8(ascii: "\""): return .string(try readString(), start)
        case UInt8(ascii: "t"): return try readLiteral("true", meaning: .bool(true, start))
        case UInt8(ascii: "f"): return try readLiteral("false", meaning: .bool(false, start))
        case UInt8(ascii: "n"): return try readLiteral("null", meaning: .null(start))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber(start)
        default: throw unexpectedCharacter()
        }
    }

    mutating func readLiteral(_ literal: String, meaning value: JSONValue) throws(JSONParseError) -> JSONValue {
        for expected in literal.utf8 { try consume(expected) }
        return value
    }

    /// Steps past an opening bracket or brace; returns whether the container is empty.
    mutating func enterContainer(_ start: JSONPosition, closing: UInt8) throws(JSONParseError) -> Bool {
        guard depth < limits.depthMax else { throw fail(.depthLimitExceeded, at: start) }
        depth += 1
        index += 1
        skipWhitespace()
        guard try currentByte() == closing else { return false }
        index += 1
        return true
    }

    /// Steps past the comma or closing byte after a member; returns whether the container ended.
    mutating func readSeparator(closing: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        let separator = try currentByte()
        guard separator == UInt8(ascii: ",") || separator == closing else { throw unexpectedCharacter() }
        index += 1
        skipWhitespace()
        return separator == closing
    }

    mutating func readArray(_ start: JSONPosition) throws(JSONParseError) -> JSONValue {
        var elements: [JSONValue] = []
        let isEmpty = try enterContainer(start, closing: UInt8(ascii: "]"))
        defer { depth -= 1 }
        if isEmpty { return .array(elements, start) }
        while memberCount < limits.memberCountMax {
            memberCount += 1
            elements.append(try readValue())
            if try readSeparator(closing: UInt8(ascii: "]")) { return .array(elements, start) }
        }
        throw fail(.sizeLimitExceeded)
    }

    mutating func readObject(_ start: JSONPosition) throws(JSONParseError) -> JSONValue {
        var members: [JSONObject.Member] = []
        let isEmpty = try enterContainer(start, closing: UInt8(ascii: "}"))
        defer { depth -= 1 }
        if isEmpty { return .object(JSONObject(), start) }
        var keysSeen: Set<String> = []
        while memberCount < limits.memberCountMax {
            memberCount += 1
            let keyPosition = position
            guard try currentByte() == UInt8(ascii: "\"") else { throw unexpectedCharacter() }
            let key = try readString()
            guard keysSeen.insert(key).inserted else { throw fail(.duplicateKey(key), at: keyPosition) }
            skipWhitespace()
            try consume(UInt8(ascii: ":"))
            skipWhitespace()
            members.append(JSONObject.Member(key: key, keyPosition: keyPosition, value: try readValue()))
            if try readSeparator(closing: UInt8(ascii: "}")) { return .object(JSONObject(members: members), start) }
        }
        throw fail(.sizeLimitExceeded)
    }
}

extension JSONParserCursor {
    /// Reads a string whose opening quote is the current byte.
    mutating func readString() throws(JSONParseError) -> String {
        let start = position
        index += 1
        // Raw bytes are copied in runs, and only once an escape forces a buffer: most strings have none
        // and are decoded straight from the input.
        var decoded: [UInt8] = []
        var runStart = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: bytes[runStart..<index])
                try appendEscape(to: &decoded)
                runStart = index
            case UInt8(ascii: "\""):
                let byteCount = decoded.count + index - runStart
                guard byteCount <= limits.stringByteCountMax else { throw fail(.sizeLimitExceeded, at: start) }
                let run = bytes[runStart..<index]
                index += 1
                guard !decoded.isEmpty else { return String(decoding: run, as: UTF8.self) }
                decoded.append(contentsOf: run)
                return String(decoding: decoded, as: UTF8.self)
            case let byte:
                try skipRawCharacter(byte)
            }
        }
        throw fail(.unexpectedEndOfInput)
    }

    /// Steps over one unescaped character of a string, checking that it may appear there.
    mutating func skipRawCharacter(_ byte: UInt8) throws(JSONParseError) {
        guard byte >= 0x20 else { throw fail(.controlCharacterInString) }
        guard let length = byte < 0x80 ? 1 : utf8SequenceLength(at: index) else { throw fail(.invalidUTF8) }
        index += length
    }

    /// The length of the well-formed UTF-8 sequence at `start`, or `nil` when it is malformed.
    func utf8SequenceLength(at start: Int) -> Int? {
        // The standard decoder follows Unicode's definition of well-formed UTF-8, so overlong forms,
        // encoded surrogates and scalars above U+10FFFF all come back as errors.
        var iterator = bytes[start...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        return UTF8.width(scalar)
    }

    /// Decodes the escape sequence whose backslash is the current byte onto the end of `buffer`.
    mutating func appendEscape(to buffer: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = position
        index += 1
        let code = try currentByte()
        index += 1
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(code)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try readUnicodeEscape(escapeStart)
            UTF8.encode(scalar) { buffer.append($0) }
        default:
            throw fail(.invalidEscape, at: escapeStart)
        }
    }

    /// Reads the hex digits of a `\u` escape, plus a second escape when the first is a high surrogate.
    mutating func readUnicodeEscape(_ escapeStart: JSONPosition) throws(JSONParseError) -> Unicode.Scalar {
        let first = try readHexQuad(escapeStart)
        var value = first
        if (0xD800...0xDBFF).contains(first) {
            // Characters beyond the BMP arrive as UTF-16 surrogate pairs; half a pair names no character.
            let pairFollows = index + 1 < bytes.count
                && bytes[index] == UInt8(ascii: "\\") && bytes[index + 1] == UInt8(ascii: "u")
            guard pairFollows else { throw fail(.invalidUnicodeScalar, at: escapeStart) }
            let secondStart = position
            index += 2
            let second = try readHexQuad(secondStart)
            guard (0xDC00...0xDFFF).contains(second) else { throw fail(.invalidUnicodeScalar, at: escapeStart) }
            value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(value) else { throw fail(.invalidUnicodeScalar, at: escapeStart) }
        return scalar
    }

    mutating func readHexQuad(_ escapeStart: JSONPosition) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try currentByte()
            let digit = byte < 0x80 ? Character(Unicode.Scalar(byte)).hexDigitValue : nil
            guard let digit else { throw fail(.invalidEscape, at: escapeStart) }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Reads a number whose first byte (a digit or `-`) is the current byte.
    mutating func readNumber(_ start: JSONPosition) throws(JSONParseError) -> JSONValue {
        let numberStart = index
        _ = skipByte(ifAnyOf: "-")
        let digitStart = index
        let integerDigitCount = skipDigits()
        // The grammar rejects leading zeros rather than let "010" be read as octal by some readers.
        let hasLeadingZero = integerDigitCount > 1 && bytes[digitStart] == UInt8(ascii: "0")
        guard integerDigitCount > 0, !hasLeadingZero else { throw fail(.invalidNumber, at: start) }
        let hasFraction = skipByte(ifAnyOf: ".")
        if hasFraction {
            guard skipDigits() > 0 else { throw fail(.invalidNumber, at: start) }
        }
        let hasExponent = skipByte(ifAnyOf: "eE")
        if hasExponent {
            _ = skipByte(ifAnyOf: "+-")
            guard skipDigits() > 0 else { throw fail(.invalidNumber, at: start) }
        }
        let literal = String(decoding: bytes[numberStart..<index], as: UTF8.self)
        if !hasFraction && !hasExponent {
            // The grammar is already checked, so the only way this conversion fails is overflow.
            guard let integer = Int64(literal) else { return .integerOverflow(literal, start) }
            return .integer(integer, start)
        }
        // Infinity has no JSON spelling, so a literal beyond Double's range could never be written back out.
        guard let number = Double(literal), number.isFinite else { throw fail(.invalidNumber, at: start) }
        return .number(number, start)
    }

    /// Steps over the current byte when it is one of `choices`; returns whether it did.
    mutating func skipByte(ifAnyOf choices: String) -> Bool {
        guard index < bytes.count, choices.utf8.contains(bytes[index]) else { return false }
        index += 1
        return true
    }

    /// Steps over ASCII digits and returns how many there were.
    mutating func skipDigits() -> Int {
        let digitsStart = index
        while index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            index += 1
        }
        return index - digitsStart
    }
}
