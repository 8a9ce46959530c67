/// A place in JSON source text, kept so a designer can be sent to the exact spot of a problem.
///
/// `column` counts UTF-8 bytes rather than characters: it then stays consistent with `offset`
/// and costs nothing to track. On lines of plain ASCII the two counts agree.
public struct JSONPosition: Sendable, Hashable, Codable {
    /// The 1-based line; a line ends at LF, at CRLF, or at a CR that no LF follows.
    public var line: Int
    /// The 1-based column, in UTF-8 bytes from the start of the line (a leading BOM is not counted).
    public var column: Int
    /// The 0-based byte offset from the start of the input, counting any leading BOM.
    public var offset: Int

    /// Creates a position from a line, a column and a byte offset.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }
}

/// A parsed JSON value together with the position where it starts.
public indirect enum JSONValue: Sendable, Hashable {
    /// The literal `null`.
    case null(JSONPosition)
    /// The literal `true` or `false`.
    case bool(Bool, JSONPosition)
    /// A number with neither fraction nor exponent that fits in `Int64`.
    case integer(Int64, JSONPosition)
    /// A number with neither fraction nor exponent that does not fit in `Int64`, kept as its source text.
    ///
    /// It is not rounded to a `Double`, so that a validator can quote the amount the designer actually wrote.
    case integerOverflow(String, JSONPosition)
    /// A number with a fraction or an exponent.
    case number(Double, JSONPosition)
    /// A string, with every escape sequence decoded.
    case string(String, JSONPosition)
    /// An array, with its elements in source order.
    case array([JSONValue], JSONPosition)
    /// An object, with its members in source order.
    case object(JSONObject, JSONPosition)

    /// The position of the value's first byte.
    public var position: JSONPosition {
        switch self {
        case .null(let position): return position
        case .bool(_, let position): return position
        case .integer(_, let position): return position
        case .integerOverflow(_, let position): return position
        case .number(_, let position): return position
        case .string(_, let position): return position
        case .array(_, let position): return position
        case .object(_, let position): return position
        }
    }

    /// The JSON type of the value in plain words, for messages such as "found string".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .integerOverflow: return "integer"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// The members of a JSON object in source order, each with the position of its key.
public struct JSONObject: Sendable, Hashable {
    /// One key and its value.
    public struct Member: Sendable, Hashable {
        /// The decoded key.
        public var key: String
        /// The position of the key's opening quote.
        public var keyPosition: JSONPosition
        /// The value that follows the key.
        public var value: JSONValue

        /// Creates a member.
        public init(key: String, keyPosition: JSONPosition, value: JSONValue) {
            self.key = key
            self.keyPosition = keyPosition
            self.value = value
        }
    }

    /// The members in the order they appear in the source.
    public var members: [Member]

    /// Creates an object from members in source order.
    public init(members: [Member] = []) {
        self.members = members
    }

    /// The value of the first member named `key`, or `nil` when there is none.
    public subscript(key: String) -> JSONValue? {
        // A linear scan is cheaper than a dictionary for the handful of keys a catalog object has.
        members.first { $0.key == key }?.value
    }

    /// The keys in source order.
    public var keys: [String] {
        members.map(\.key)
    }
}

extension JSONValue {
    /// Returns `text` as a JSON string literal, quoted and escaped as RFC 8785 canonical JSON expects.
    public static func encodeString(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 2)
        output.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: output.append(contentsOf: [0x5C, 0x22])
            case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
            case 0x08: output.append(contentsOf: [0x5C, 0x62])
            case 0x09: output.append(contentsOf: [0x5C, 0x74])
            case 0x0A: output.append(contentsOf: [0x5C, 0x6E])
            case 0x0C: output.append(contentsOf: [0x5C, 0x66])
            case 0x0D: output.append(contentsOf: [0x5C, 0x72])
            case 0x00..<0x20:
                // RFC 8785 spells the remaining control characters as \u00xx with lowercase hex.
                output.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])
                output.append(lowercaseHexDigits[Int(byte >> 4)])
                output.append(lowercaseHexDigits[Int(byte & 0x0F)])
            default:
                // Everything else, non-ASCII included, is written as is: canonical JSON keeps raw UTF-8.
                output.append(byte)
            }
        }
        output.append(0x22)
        return String(decoding: output, as: UTF8.self)
    }

    private static let lowercaseHexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
