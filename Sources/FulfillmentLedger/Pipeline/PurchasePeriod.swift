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
    ///
    /// Plain day arithmetic rather than `Calendar`: it runs inside every grant, and the
    /// calendar and `String(format:)` cost more than the rest of the key's work together.
    /// Tests check it against the ISO 8601 calendar over centuries of dates.
    public static func weekKey(for date: Date) -> String {
        let secondsPerDay = 86_400.0
        let day = Int((date.timeIntervalSince1970 / secondsPerDay).rounded(.down))
        // 1970-01-01 was a Thursday: Monday is 0.
        let weekday = ((day + 3) % 7 + 7) % 7
        // An ISO week belongs to the year of its Thursday.
        let thursday = day - weekday + 3
        let (year, dayOfYear) = civilYearAndDayOfYear(daysSince1970: thursday)
        let week = (dayOfYear - 1) / 7 + 1
        return padded(year, width: 4) + "-W" + padded(week, width: 2)
    }

    /// The proleptic Gregorian year of a day and its 1-based day of that year.
    static func civilYearAndDayOfYear(daysSince1970 day: Int) -> (year: Int, dayOfYear: Int) {
        // Days since 0000-03-01, in 400-year eras of 146,097 days (Hinnant's civil_from_days).
        let shifted = day + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfMarchYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfMarchYear + 2) / 153
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, day - daysSince1970(januaryFirstOf: year) + 1)
    }

    /// Days from 1970-01-01 to January 1 of `year`.
    static func daysSince1970(januaryFirstOf year: Int) -> Int {
        // Counted from March 1 of the year before, which puts the leap day last.
        let marchYear = year - 1
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        // January 1 is day 306 of a year that starts on March 1.
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + 306
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `value` in decimal with leading zeros to `width` digits.
    private static func padded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return value < 0 || digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
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
}
