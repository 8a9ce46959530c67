import FulfillmentLedger
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    private static func at(_ line: Int, _ column: Int, _ offset: Int) -> JSONPosition {
        JSONPosition(line: line, column: column, offset: offset)
    }

    private static func parseError(_ text: String, limits: JSONParser.Limits = .init()) -> JSONParseError? {
        parseError(Array(text.utf8), limits: limits)
    }

    private static func parseError(_ bytes: [UInt8], limits: JSONParser.Limits = .init()) -> JSONParseError? {
        do {
            _ = try JSONParser(limits: limits).parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Valid documents

    @Test(
        "a lone value of each type",
        arguments: [
            ("null", JSONValue.null(at(1, 1, 0))),
            ("true", .bool(true, at(1, 1, 0))),
            ("false", .bool(false, at(1, 1, 0))),
            ("0", .integer(0, at(1, 1, 0))),
            ("-0", .integer(0, at(1, 1, 0))),
            ("-17", .integer(-17, at(1, 1, 0))),
            ("2.5", .number(2.5, at(1, 1, 0))),
            ("\"hi\"", .string("hi", at(1, 1, 0))),
            ("\"\"", .string("", at(1, 1, 0))),
            ("[]", .array([], at(1, 1, 0))),
            ("{}", .object(JSONObject(), at(1, 1, 0))),
            (" \t 7 \r\n", .integer(7, at(1, 4, 3))),
        ])
    func scalarDocuments(text: String, expected: JSONValue) throws {
        #expect(try JSONParser().parse(text) == expected)
    }

    @Test("a document with every type keeps structure, order and positions")
    func everyTypeTogether() throws {
        let text = #"{"a": [1, 2.5, "x", true, null, {}], "b": {"c": false}}"#
        let inner = JSONObject(members: [
            JSONObject.Member(key: "c", keyPosition: Self.at(1, 44, 43), value: .bool(false, Self.at(1, 49, 48)))
        ])
        let expected = JSONValue.object(
            JSONObject(members: [
                JSONObject.Member(
                    key: "a", keyPosition: Self.at(1, 2, 1),
                    value: .array(
                        [
                            .integer(1, Self.at(1, 8, 7)), .number(2.5, Self.at(1, 11, 10)),
                            .string("x", Self.at(1, 16, 15)), .bool(true, Self.at(1, 21, 20)),
                            .null(Self.at(1, 27, 26)), .object(JSONObject(), Self.at(1, 33, 32)),
                        ], Self.at(1, 7, 6))),
                JSONObject.Member(key: "b", keyPosition: Self.at(1, 38, 37), value: .object(inner, Self.at(1, 43, 42))),
            ]),
            Self.at(1, 1, 0))
        #expect(try JSONParser().parse(text) == expected)
    }

    @Test("a nested value on line 3 reports its line, column and offset")
    func nestedPositions() throws {
        let text = "{\n  \"items\": [\n    {\"id\": \"gem\", \"amount\": 5}\n  ]\n}\n"
        let root = try JSONParser().parse(text)
        guard case .object(let object, _) = root, case .array(let items, let itemsPosition)? = object["items"],
            case .object(let item, let itemPosition)? = items.first
        else {
            Issue.record("unexpected shape: \(root)")
            return
        }
        #expect(itemsPosition == Self.at(2, 12, 13))
        #expect(itemPosition == Self.at(3, 5, 19))
        #expect(item.keys == ["id", "amount"])
        #expect(item.members[1].keyPosition == Self.at(3, 19, 33))
        #expect(item["amount"] == .integer(5, Self.at(3, 29, 43)))
        #expect(item["missing"] == nil)
    }

    @Test("CR, LF and CRLF each end one line")
    func lineBreaks() throws {
        let value = try JSONParser().parse("[\r\n1,\r2,\n3]")
        let expected = JSONValue.array(
            [.integer(1, Self.at(2, 1, 3)), .integer(2, Self.at(3, 1, 6)), .integer(3, Self.at(4, 1, 9))],
            Self.at(1, 1, 0))
        #expect(value == expected)
    }

    @Test("columns count UTF-8 bytes")
    func columnsCountBytes() throws {
        let value = try JSONParser().parse("[\"é\", 1]")
        #expect(value == .array([.string("é", Self.at(1, 2, 1)), .integer(1, Self.at(1, 8, 7))], Self.at(1, 1, 0)))
    }

    @Test(
        "Int64 bounds are read exactly",
        arguments: [
            ("9223372036854775807", Int64.max),
            ("-9223372036854775808", Int64.min),
            ("9007199254740993", 9_007_199_254_740_993),
        ])
    func int64Bounds(text: String, expected: Int64) throws {
        #expect(try JSONParser().parse(text) == .integer(expected, Self.at(1, 1, 0)))
    }

    @Test(
        "integers beyond Int64 keep their literal text",
        arguments: ["9223372036854775808", "-9223372036854775809", "99999999999999999999"])
    func integerOverflow(text: String) throws {
        let value = try JSONParser().parse("[\(text)]")
        #expect(value == .array([.integerOverflow(text, Self.at(1, 2, 1))], Self.at(1, 1, 0)))
        #expect(JSONValue.integerOverflow(text, Self.at(1, 2, 1)).typeName == "integer")
    }

    @Test(
        "fractions and exponents make numbers",
        arguments: [
            ("1.5", 1.5), ("-0.25", -0.25), ("1e3", 1000), ("2E-2", 0.02), ("1.25e+2", 125), ("0.1", 0.1),
            ("-0.0", 0), ("0e0", 0), ("1e-400", 0), ("1.7976931348623157e308", Double.greatestFiniteMagnitude),
        ])
    func floatingPoint(text: String, expected: Double) throws {
        #expect(try JSONParser().parse(text) == .number(expected, Self.at(1, 1, 0)))
    }

    @Test(
        "escapes and surrogate pairs decode",
        arguments: [
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
            (#""\u0041\u00e9\u20AC\u0000""#, "Aé€\u{0}"),
            (#""\uD83D\uDE00 \ud83c\udf81""#, "😀 🎁"),
            (#""caf\u00e9 ☕ \"ok\"""#, "café ☕ \"ok\""),
            ("\"raw é€😀\"", "raw é€😀"),
        ])
    func escapes(text: String, expected: String) throws {
        #expect(try JSONParser().parse(text) == .string(expected, Self.at(1, 1, 0)))
    }

    @Test("a UTF-8 byte-order mark is skipped without shifting columns")
    func byteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)
        let expected = JSONValue.array([.integer(1, Self.at(1, 2, 4))], Self.at(1, 1, 3))
        #expect(try JSONParser().parse(bytes) == expected)
        #expect(try JSONParser().parse("\u{FEFF}[1]") == expected)
        let bomOnly = Self.parseError([0xEF, 0xBB, 0xBF])
        #expect(bomOnly == JSONParseError(kind: .unexpectedEndOfInput, position: Self.at(1, 1, 3)))
        let bomInside = Self.parseError("[\u{FEFF}]")
        #expect(bomInside == JSONParseError(kind: .unexpectedCharacter("\u{FEFF}"), position: Self.at(1, 2, 1)))
    }

    @Test("typeName names each JSON type")
    func typeNames() {
        let position = Self.at(1, 1, 0)
        let values: [JSONValue] = [
            .null(position), .bool(true, position), .integer(1, position), .number(1.5, position),
            .string("", position), .array([], position), .object(JSONObject(), position),
        ]
        #expect(values.map(\.typeName) == ["null", "boolean", "integer", "number", "string", "array", "object"])
    }
}

// MARK: - Rejected documents

extension JSONParserTests {
    @Test(
        "each error kind is reported at the offending position",
        arguments: [
            ("", JSONParseError.Kind.unexpectedEndOfInput, 1, 1),
            ("  \n ", .unexpectedEndOfInput, 2, 2),
            ("[1, 2", .unexpectedEndOfInput, 1, 6),
            (#"{"a": "#, .unexpectedEndOfInput, 1, 7),
            (#""abc"#, .unexpectedEndOfInput, 1, 5),
            ("tru", .unexpectedEndOfInput, 1, 4),
            (#""\u00"#, .unexpectedEndOfInput, 1, 6),
            ("[1 2]", .unexpectedCharacter("2"), 1, 4),
            ("[1,]", .unexpectedCharacter("]"), 1, 4),
            (#"{"a":1,}"#, .unexpectedCharacter("}"), 1, 8),
            (#"{"a" 1}"#, .unexpectedCharacter("1"), 1, 6),
            ("{1: 2}", .unexpectedCharacter("1"), 1, 2),
            ("{'a': 2}", .unexpectedCharacter("'"), 1, 2),
            ("trux", .unexpectedCharacter("x"), 1, 4),
            ("+1", .unexpectedCharacter("+"), 1, 1),
            (".5", .unexpectedCharacter("."), 1, 1),
            ("NaN", .unexpectedCharacter("N"), 1, 1),
            ("[é]", .unexpectedCharacter("é"), 1, 2),
            ("[1,\u{C}2]", .unexpectedCharacter("\u{C}"), 1, 4),
            ("\n\n  [1, x]", .unexpectedCharacter("x"), 3, 7),
            ("01", .invalidNumber, 1, 1),
            ("[-01]", .invalidNumber, 1, 2),
            ("-", .invalidNumber, 1, 1),
            ("[-]", .invalidNumber, 1, 2),
            ("-a", .invalidNumber, 1, 1),
            ("1.", .invalidNumber, 1, 1),
            ("1.e3", .invalidNumber, 1, 1),
            ("1e", .invalidNumber, 1, 1),
            ("1e+", .invalidNumber, 1, 1),
            ("1e400", .invalidNumber, 1, 1),
            ("-1e400", .invalidNumber, 1, 1),
            (#""\x""#, .invalidEscape, 1, 2),
            (#""\U0041""#, .invalidEscape, 1, 2),
            (#""ab\u12G4""#, .invalidEscape, 1, 4),
            (#""\u12""#, .invalidEscape, 1, 2),
            (#""\uD800""#, .invalidUnicodeScalar, 1, 2),
            (#""\uDC00\uD800""#, .invalidUnicodeScalar, 1, 2),
            (#""\uD800\u0041""#, .invalidUnicodeScalar, 1, 2),
            (#""x\uD83D\n""#, .invalidUnicodeScalar, 1, 3),
            (#""\uD83D\uD83D""#, .invalidUnicodeScalar, 1, 2),
            ("\"a\tb\"", .controlCharacterInString, 1, 3),
            ("[\"a\nb\"]", .controlCharacterInString, 1, 4),
            ("\"\u{0}\"", .controlCharacterInString, 1, 2),
            (#"{"a": 1, "a": 2}"#, .duplicateKey("a"), 1, 10),
            ("{\"b\": {}, \"c\": 1,\n \"b\": []}", .duplicateKey("b"), 2, 2),
            (#"{"\u00e9": 1, "e\u0301": 2}"#, .duplicateKey("\u{E9}"), 1, 15),
            ("[1] 2", .trailingContent, 1, 5),
            ("{}}", .trailingContent, 1, 3),
            ("1 x", .trailingContent, 1, 3),
            ("1x", .trailingContent, 1, 2),
            ("nulll", .trailingContent, 1, 5),
            ("\"a\"\n\"b\"", .trailingContent, 2, 1),
        ])
    func errorKinds(text: String, kind: JSONParseError.Kind, line: Int, column: Int) {
        let error = Self.parseError(text)
        #expect(error?.kind == kind)
        #expect(error?.position.line == line)
        #expect(error?.position.column == column)
    }

    @Test(
        "ill-formed UTF-8 is rejected at its first byte",
        arguments: [
            ([0x22, 0xFF, 0x22], 2),  // never valid in UTF-8
            ([0x22, 0x61, 0x80, 0x22], 3),  // continuation byte without a lead byte
            ([0x22, 0xC0, 0x80, 0x22], 2),  // overlong encoding of U+0000
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 2),  // overlong encoding of "/"
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),  // encoded surrogate U+D800
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2),  // beyond U+10FFFF
            ([0x22, 0xE2, 0x82, 0x22], 2),  // truncated before the closing quote
            ([0x22, 0xE2, 0x82], 2),  // truncated at the end of input
            ([0x5B, 0xFF, 0x5D], 2),  // outside a string
        ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], column: Int) {
        let error = Self.parseError(bytes)
        #expect(error == JSONParseError(kind: .invalidUTF8, position: Self.at(1, column, column - 1)))
    }

    @Test("nesting is limited to depthMax")
    func depthLimit() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser().parse(deepest) }
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(Self.parseError(tooDeep) == JSONParseError(kind: .depthLimitExceeded, position: Self.at(1, 65, 64)))

        let shallow = JSONParser.Limits(depthMax: 2)
        #expect(Self.parseError("[[1], {}]", limits: shallow) == nil)
        let objects = Self.parseError(#"{"a": {"b": {}}}"#, limits: shallow)
        #expect(objects == JSONParseError(kind: .depthLimitExceeded, position: Self.at(1, 13, 12)))
    }

    @Test("input, string and member counts are limited")
    func sizeLimits() {
        let sizeLimit = { (line: Int, column: Int, offset: Int) in
            JSONParseError(kind: .sizeLimitExceeded, position: Self.at(line, column, offset))
        }
        let fourBytes = JSONParser.Limits(byteCountMax: 4)
        #expect(Self.parseError("[12]", limits: fourBytes) == nil)
        #expect(Self.parseError("[1,2]", limits: fourBytes) == sizeLimit(1, 1, 0))

        let threeByteStrings = JSONParser.Limits(stringByteCountMax: 3)
        #expect(Self.parseError(#"["abc", "ab\n"]"#, limits: threeByteStrings) == nil)
        #expect(Self.parseError(#"[1, "abcd"]"#, limits: threeByteStrings) == sizeLimit(1, 5, 4))
        #expect(Self.parseError(#"["ab\nc"]"#, limits: threeByteStrings) == sizeLimit(1, 2, 1))
        #expect(Self.parseError(#"["\u00e9\u00e9"]"#, limits: threeByteStrings) == sizeLimit(1, 2, 1))
        #expect(Self.parseError(#"{"long": 1}"#, limits: threeByteStrings) == sizeLimit(1, 2, 1))
        #expect(Self.parseError("\"éé\"", limits: threeByteStrings) == sizeLimit(1, 1, 0))

        let threeMembers = JSONParser.Limits(memberCountMax: 3)
        #expect(Self.parseError("[1, 2, 3]", limits: threeMembers) == nil)
        #expect(Self.parseError("[1, 2, 3, 4]", limits: threeMembers) == sizeLimit(1, 11, 10))
        #expect(Self.parseError("[[1], [2]]", limits: threeMembers) == sizeLimit(1, 8, 7))
        #expect(Self.parseError(#"{"a": 1, "b": [2, 3]}"#, limits: threeMembers) == sizeLimit(1, 19, 18))
    }

    @Test("the description gives line, column and a readable message")
    func errorDescriptions() {
        let duplicate = Self.parseError("{\n  \"amount\": 1,\n      \"amount\": 2\n}")
        #expect(duplicate?.description == #"line 3, column 7: duplicate key "amount""#)
        let control = Self.parseError("[\u{1}]")
        #expect(control?.description == #"line 1, column 2: unexpected character "\u0001""#)
        let end = Self.parseError("[")
        #expect(end?.description == "line 1, column 2: unexpected end of input")
    }
}

// MARK: - Encoding strings

extension JSONParserTests {
    @Test("encodeString escapes quotes, backslashes and control characters the canonical way")
    func encodeStringExact() {
        #expect(JSONValue.encodeString("a\"b\\c\n\u{1}\u{1F}/é") == #""a\"b\\c\n\u0001\u001f/é""#)
        #expect(JSONValue.encodeString("") == #""""#)
        #expect(JSONValue.encodeString("\u{8}\u{C}\r\t") == #""\b\f\r\t""#)
    }

    @Test("encodeString output parses back to the same text")
    func encodeStringRoundTrip() throws {
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let text = controls + "\"quoted\" \\ / \u{7F} é € 😀 \u{2028} \u{FEFF}"
        let encoded = JSONValue.encodeString(text)
        #expect(try JSONParser().parse(encoded) == .string(text, Self.at(1, 1, 0)))
        #expect(!encoded.unicodeScalars.contains { $0.value < 0x20 })
    }
}
