//! The date of a PDN `Date` tag: today's, in UTC, as `YYYY.MM.DD`, for the
//! match runner and DXP, which record the games they play.

/// Today's date (UTC) as PDN writes it: `YYYY.MM.DD` (`????.??.??` if the
/// clock is before 1970).
pub fn today() -> String {
    match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => {
            let (y, m, day) = civil_from_days((d.as_secs() / 86_400) as i64);
            format!("{y:04}.{m:02}.{day:02}")
        }
        Err(_) => "????.??.??".into(),
    }
}

/// The civil date (year, month, day) of a day count since 1970-01-01, by
/// Howard Hinnant's `civil_from_days` algorithm (proleptic Gregorian; a
/// dozen lines, not worth a crate).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, 0..146096
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // 0..399
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // 0..365
    let mp = (5 * doy + 2) / 153; // March-based month, 0..11
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-02-29 is day 11_016; 2024-10-04 day 20_000; 2024-12-31 day 20_088.
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_000), (2024, 10, 4));
        assert_eq!(civil_from_days(20_088), (2024, 12, 31));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(today().len(), 10);
    }
}
