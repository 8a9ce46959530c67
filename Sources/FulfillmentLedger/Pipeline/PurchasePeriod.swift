import Foundation

/// Names the periods purchases are counted in.
///
/// A week is an ISO 8601 week in UTC: it starts Monday 00:00:00 UTC and ends just before
/// the next Monday. Its key is `YYYY-Www` using the ISO week-numbering year, so
/// 2026-12-31 (a Thursday) is in `2026-W53` and 2027-01-01 in `2026-W53` too.
public enum PurchasePeriod {
    /// The key of the lifetime period.
    public static let lifetime = "lifetime"

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    /// The week key of a date, such as `2026-W48`.
    public static func weekKey(for date: Date) -> String {
        let components = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: date)
        let year = components.yearForWeekOfYear ?? 0
        let week = components.weekOfYear ?? 0
        return String(format: "%04d-W%02d", year, week)
    }

    /// The start of the next week after `date` (Monday 00:00 UTC), when weekly limits reset.
    public static func nextWeekStart(after date: Date) -> Date {
        let start = calendar.dateInterval(of: .weekOfYear, for: date)?.start ?? date
        return start.addingTimeInterval(7 * 24 * 60 * 60)
    }

    /// The key of the period a limit counts in at `date`.
    public static func key(for period: LimitPeriod, at date: Date) -> String {
        switch period {
        case .lifetime: lifetime
        case .week: weekKey(for: date)
        }
    }

    /// Every period a purchase at `date` counts toward.
    static func keys(for date: Date) -> [String] { [lifetime, weekKey(for: date)] }
}
