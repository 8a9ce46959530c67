import Foundation

/// An amount of money as Google's APIs carry it (`google.type.Money`): a currency code, whole
/// `units` (an int64 written as a JSON string) and `nanos` (10⁻⁹ units). Google's rules: `nanos`
/// lies within ±999,999,999 and has the sign of `units` when `units` is not zero ($-1.75 is
/// `units` -1, `nanos` -750,000,000).
public struct PlayMoney: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The ISO 4217 currency code, such as `USD`.
    public var currencyCode: String?
    /// Whole units, a decimal integer.
    public var units: String?
    /// Nano units, -999,999,999 to 999,999,999.
    public var nanos: Int?

    /// Nanos in one unit.
    public static let nanosPerUnit: Int64 = 1_000_000_000

    /// Creates an amount.
    public init(currencyCode: String?, units: String?, nanos: Int?) {
        self.currencyCode = currencyCode
        self.units = units
        self.nanos = nanos
    }

    /// An amount of `totalNanos` nano units of `currencyCode`.
    public init(currencyCode: String, totalNanos: Int64) {
        self.currencyCode = currencyCode
        units = String(totalNanos / Self.nanosPerUnit)
        let remainder = Int(totalNanos % Self.nanosPerUnit)
        nanos = remainder == 0 ? nil : remainder
    }

    /// The checked amount: its currency and its value in nano units. Throws `malformedMoney`
    /// when it breaks Google's rules or does not fit in 64 bits of nanos (about 9.2 billion units).
    public func checked(field: String) throws(PlayPayloadError) -> (currencyCode: String, totalNanos: Int64) {
        guard let currencyCode, currencyCode.utf8.count == 3, currencyCode.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw .malformedMoney(field: field, detail: "currencyCode \(currencyCode.map { "\"\($0)\"" } ?? "missing") is not an ISO 4217 code")
        }
        let unitText = units ?? "0"
        guard unitText.utf8.count <= 20, let whole = Int64(unitText) else {
            throw .malformedMoney(field: field, detail: "units \"\(unitText.prefix(32))\" is not a decimal integer")
        }
        let fraction = Int64(nanos ?? 0)
        guard abs(fraction) < Self.nanosPerUnit else {
            throw .malformedMoney(field: field, detail: "nanos \(fraction) is outside ±999,999,999")
        }
        guard whole == 0 || fraction == 0 || (whole > 0) == (fraction > 0) else {
            throw .malformedMoney(field: field, detail: "nanos \(fraction) has the other sign than units \(whole)")
        }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: Self.nanosPerUnit)
        let (total, carry) = scaled.addingReportingOverflow(fraction)
        guard !overflow, !carry else { throw .malformedMoney(field: field, detail: "\(unitText) units overflow") }
        return (currencyCode, total)
    }

    /// `1.99 USD`, `-0.5 EUR`; Google's fields as they are when they do not check.
    public var description: String {
        guard let (code, total) = try? checked(field: "") else {
            return "\(units ?? "?") units \(nanos ?? 0) nanos \(currencyCode ?? "?")"
        }
        let sign = total < 0 ? "-" : ""
        let magnitude = total.magnitude
        let whole = magnitude / UInt64(Self.nanosPerUnit)
        var digits = String(magnitude % UInt64(Self.nanosPerUnit))
        guard digits != "0" else { return "\(sign)\(whole) \(code)" }
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits) \(code)"
    }
}
