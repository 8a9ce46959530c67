import Foundation

/// A `Decoder` over a parsed `JSONValue`, so any `Decodable` input type reads the project's
/// strict parse: numbers are never rounded (2.0 is not an integer), dates are strict RFC 3339, and every
/// key a type asks for is logged, so the keys it never asked for are known to be unknown fields.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let log: JSONKeyLog

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object, let position) = value else { throw mismatch(Key.self, expected: "an object") }
        log.visit(object, at: position, path: codingPath)
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, position: position, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements, _) = value else { throw mismatch([JSONValue].self, expected: "a list ([...])") }
        return UnkeyedContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The decoder of a value inside this one.
    func child(_ value: JSONValue, key: any CodingKey) -> JSONValueDecoder {
        JSONValueDecoder(value: value, codingPath: codingPath + [key], log: log)
    }

    /// Decodes this value as `T`: scalars and dates directly, anything else through `T(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch T.self {
        case is String.Type:
            guard case .string(let text, _) = value else { throw mismatch(T.self, expected: "a string") }
            return try cast(text)
        case is Bool.Type:
            guard case .bool(let flag, _) = value else { throw mismatch(T.self, expected: "true or false") }
            return try cast(flag)
        case is Date.Type:
            guard case .string(let text, _) = value, let date = LedgerJSON.parseDate(text) else {
                throw corrupted("expected an RFC 3339 date such as 2026-11-29T12:00:00Z")
            }
            return try cast(date)
        case is Double.Type:
            return try cast(try number())
        case is Float.Type:
            return try cast(Float(try number()))
        case let integerType as any FixedWidthInteger.Type:
            return try cast(try integer(integerType))
        default:
            return try T(from: self)
        }
    }

    private func number() throws -> Double {
        switch value {
        case .integer(let number, _): return Double(number)
        case .number(let number, _): return number
        default: throw mismatch(Double.self, expected: "a number")
        }
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch value {
        case .integer(let number, _):
            guard let exact = I(exactly: number) else { throw corrupted("\(number) is out of range") }
            return exact
        case .integerOverflow(let literal, _): throw corrupted("\(literal) is too large")
        case .number(let number, _): throw corrupted("expected a whole number, found \(number)")
        default: throw mismatch(I.self, expected: "a whole number")
        }
    }

    private func cast<T, V>(_ value: V) throws -> T {
        guard let typed = value as? T else { throw corrupted("cannot be read as \(T.self)") }
        return typed
    }

    func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.typeName)"))
    }

    private func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }
}

extension JSONValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

/// The members of one JSON object, read by key.
private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let position: JSONPosition
    let decoder: JSONValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        // A type that lists the keys itself (a dictionary) accepts every one of them.
        decoder.log.acceptAll(at: position)
        return object.keys.compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        decoder.log.ask(key.stringValue, at: position)
        return object[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder { try member(key) }

    private func member(_ key: Key) throws -> JSONValueDecoder {
        decoder.log.ask(key.stringValue, at: position)
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "missing required field \"\(key.stringValue)\""))
        }
        return decoder.child(value, key: key)
    }
}

/// The elements of one JSON list, read in order.
private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: JSONValueDecoder
    var currentIndex = 0

    init(elements: [JSONValue], decoder: JSONValueDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }

    private mutating func next() throws -> JSONValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self, .init(codingPath: codingPath, debugDescription: "the list has only \(elements.count) entries"))
        }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], key: JSONIndexKey(intValue: currentIndex))
    }
}

/// A list index as a coding key.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(intValue: Int) {
        self.intValue = intValue
        self.stringValue = "\(intValue)"
    }

    init?(stringValue: String) { nil }
}

/// Every object a decode visited and the keys its type asked for, by the object's offset in the
/// document: whatever else an object holds is an unknown field.
final class JSONKeyLog {
    /// One visited object.
    struct Visit {
        var object: JSONObject
        var path: [any CodingKey]
        var asked: Set<String> = []
        var acceptsAll = false
    }

    private(set) var visits: [Int: Visit] = [:]

    func visit(_ object: JSONObject, at position: JSONPosition, path: [any CodingKey]) {
        if visits[position.offset] == nil { visits[position.offset] = Visit(object: object, path: path) }
    }

    func ask(_ key: String, at position: JSONPosition) { visits[position.offset]?.asked.insert(key) }

    func acceptAll(at position: JSONPosition) { visits[position.offset]?.acceptsAll = true }
}
