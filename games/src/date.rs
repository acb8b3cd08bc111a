//! Game dates as real files write them, normalised to `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
//!
//! The master collection alone has about 200 date shapes: `1996-04-17`, `19960417`,
//! `1996.4.17`, `1996年4月17日`, `17-4-1996`, `4/17/1996`, `96-4-17`, full-width digits,
//! times of day and notes after the date (`2009-12-04 13:0`, `1998年5月9日上午`), a letter `l`
//! typed for the digit `1`, `元月` for January. The rule here is to normalise only what is
//! unambiguous: numbers are read in the orders a date can take (year first; day-month-year;
//! month-day-year; two-digit years) and a full date is given only when exactly one reading is a
//! valid calendar date. When the orders disagree but agree on the year, the year alone is given;
//! otherwise nothing. The raw text is always kept.

/// A date as written in the file and, where its shape allows, normalised.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameDate {
    /// The text as written (entities decoded, surrounding space removed).
    pub raw: String,
    /// `YYYY-MM-DD`, `YYYY-MM` or `YYYY`, when the text has a readable date.
    pub normalized: Option<String>,
}

impl GameDate {
    /// Reads a date field; `None` when the text is empty.
    #[must_use]
    pub fn parse(raw: &str) -> Option<GameDate> {
        let raw = crate::text::clean_value(raw)?;
        let normalized = normalize(&raw);
        Some(GameDate { raw, normalized })
    }
}

/// The years a four-digit group may name; outside them it is some other number.
const YEARS: std::ops::RangeInclusive<u32> = 1800..=2100;

/// Normalises a date text to `YYYY-MM-DD`, `YYYY-MM` or `YYYY` (see the module notes).
#[must_use]
pub fn normalize(raw: &str) -> Option<String> {
    let mut text: String = raw.chars().map(crate::text::fold_full_width).collect();
    text = text.replace("元月", "1月");
    // `l` typed for `1` (`l999年`, `ll月`): only where no other Latin letters make it a word.
    if text.contains('l') && !text.chars().any(|c| c.is_ascii_alphabetic() && c != 'l') {
        text = text.replace('l', "1");
    }

    let groups: Vec<&str> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .collect();
    let first = *groups.first()?;
    let num = |g: &str| g.parse::<u32>().ok();
    let year_marked = text[text.find(first)? + first.len()..].starts_with('年');

    match first.len() {
        8 => ymd_prefix(num(&first[..4])?, num(&first[4..6]), num(&first[6..])),
        4 => ymd_prefix(
            num(first)?,
            groups.get(1).and_then(|g| num(g)),
            groups.get(2).and_then(|g| num(g)),
        ),
        1 | 2 if year_marked => ymd_prefix(
            two_digit_year(num(first)?),
            groups.get(1).and_then(|g| num(g)),
            groups.get(2).and_then(|g| num(g)),
        ),
        6 if groups.len() == 1 => {
            // YYMMDD or YYYYMM: whichever is a valid date.
            let yymmdd = full(
                two_digit_year(num(&first[..2])?),
                num(&first[2..4])?,
                num(&first[4..])?,
            );
            let yyyymm = num(&first[..4])
                .filter(|y| YEARS.contains(y))
                .and_then(|y| {
                    let m = num(&first[4..])?;
                    (1..=12).contains(&m).then(|| format!("{y:04}-{m:02}"))
                });
            match (yymmdd, yyyymm) {
                (Some(d), None) => Some(d),
                (None, Some(m)) => Some(m),
                _ => None,
            }
        }
        5.. => year_only(num(&first[..4])?),
        1 | 2 if groups.len() >= 3 => {
            let (a, b, c) = (num(first)?, num(groups[1])?, num(groups[2])?);
            if groups[2].len() == 4 {
                // Day-month-year or month-day-year.
                let readings = [full(c, b, a), full(c, a, b)];
                unique(&readings).or_else(|| year_only(c))
            } else if groups[1].len() <= 2 && groups[2].len() <= 2 {
                // Two-digit year first or last.
                let readings = [
                    full(two_digit_year(a), b, c),
                    full(two_digit_year(c), b, a),
                    full(two_digit_year(c), a, b),
                ];
                unique(&readings)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// 19yy for 50-99, 20yy for 00-49.
fn two_digit_year(yy: u32) -> u32 {
    if yy >= 100 {
        yy
    } else if yy >= 50 {
        1900 + yy
    } else {
        2000 + yy
    }
}

/// The year alone, if it is one.
fn year_only(y: u32) -> Option<String> {
    YEARS.contains(&y).then(|| format!("{y:04}"))
}

/// As much of year, month, day as is valid, from the left.
fn ymd_prefix(y: u32, m: Option<u32>, d: Option<u32>) -> Option<String> {
    if !YEARS.contains(&y) {
        return None;
    }
    match m.filter(|m| (1..=12).contains(m)) {
        None => year_only(y),
        Some(m) => match d.and_then(|d| full(y, m, d)) {
            Some(date) => Some(date),
            None => Some(format!("{y:04}-{m:02}")),
        },
    }
}

/// `YYYY-MM-DD` if it is a calendar date.
fn full(y: u32, m: u32, d: u32) -> Option<String> {
    if !YEARS.contains(&y) || !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

fn days_in_month(y: u32, m: u32) -> u32 {
    match m {
        2 if (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The one valid reading, if the valid readings all agree.
fn unique(readings: &[Option<String>]) -> Option<String> {
    let mut valid = readings.iter().flatten();
    let first = valid.next()?;
    valid.all(|r| r == first).then(|| first.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_from_the_master_collection() {
        // (raw, expected) pairs; each shape below occurs in ccpd-masters.
        let cases: &[(&str, Option<&str>)] = &[
            ("1996-04-17", Some("1996-04-17")),
            ("19960417", Some("1996-04-17")),
            ("1996.4.17", Some("1996-04-17")),
            ("1996.04.7", Some("1996-04-07")),
            ("1996年4月17日", Some("1996-04-17")),
            ("1996年12月7日", Some("1996-12-07")),
            ("２０００年１１月１２日", Some("2000-11-12")),
            ("1996年4月", Some("1996-04")),
            ("1996.4", Some("1996-04")),
            ("2002年", Some("2002")),
            ("1997", Some("1997")),
            ("4/17/1996", Some("1996-04-17")),
            ("23-9-2009", Some("2009-09-23")),
            ("20/12/2001", Some("2001-12-20")),
            ("12/12/2001", Some("2001-12-12")),
            ("10/12/2001", Some("2001")),
            ("97-11-19", Some("1997-11-19")),
            ("78-5-30", Some("1978-05-30")),
            ("10/28/99", Some("1999-10-28")),
            ("99.4.11", Some("1999-04-11")),
            ("26.5.01", None),
            ("2009-12-04 13:0", Some("2009-12-04")),
            ("20091115-09：00", Some("2009-11-15")),
            ("1998年5月9日上午", Some("1998-05-09")),
            ("2009年8月12日-14日", Some("2009-08-12")),
            ("l999年9月12日", Some("1999-09-12")),
            ("1999年ll月12日", Some("1999-11-12")),
            ("1999年元月9日", Some("1999-01-09")),
            ("2001年9月XX日", Some("2001-09")),
            ("2001年9月 日", Some("2001-09")),
            ("99年9月12日", Some("1999-09-12")),
            ("990516", Some("1999-05-16")),
            ("2009070", Some("2009")),
            ("4.19", None),
            ("12月25日", None),
            ("日弈", None),
            ("199年10月5日", None),
            ("1997-02-29", Some("1997-02")),
            ("2000-02-29", Some("2000-02-29")),
            ("????.??.??", None),
        ];
        for &(raw, want) in cases {
            assert_eq!(normalize(raw).as_deref(), want, "date {raw:?}");
        }
    }

    #[test]
    fn game_date_keeps_raw_text() {
        let d = GameDate::parse(" 4/17/1996 ").unwrap();
        assert_eq!(d.raw, "4/17/1996");
        assert_eq!(d.normalized.as_deref(), Some("1996-04-17"));
        assert_eq!(GameDate::parse("&nbsp;"), None);
        assert_eq!(GameDate::parse("   "), None);
    }
}
