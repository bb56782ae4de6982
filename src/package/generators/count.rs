//! `count:` (an int, a list of ints or a range `a..=b`) and the names of numbered cases and
//! groups, as `bt generate` makes them.

use crate::package::yaml::{Node, Value};

/// The most cases one `count:` may make, as `bt` allows.
pub const MAX_COUNT: i64 = 100;

/// The values of a rule's `count:` (`None`: no `count:`, one case): `3` is `1, 2, 3`; a list is
/// taken as is (no repeats); `-2..=3` counts from -2 to 3. The error says what is wrong.
pub fn parse_count(node: Option<&Node>) -> Result<Vec<i64>, CountError> {
    let Some(node) = node else {
        return Ok(vec![1]);
    };
    let values = match &node.value {
        Value::Int(n) => {
            if !(1..=MAX_COUNT).contains(n) {
                return Err(CountError::OutOfRange(*n));
            }
            (1..=*n).collect()
        }
        Value::Seq(items) => {
            let mut values = Vec::with_capacity(items.len());
            for item in items {
                let Value::Int(n) = item.value else {
                    return Err(CountError::NotANumber(item.describe()));
                };
                if values.contains(&n) {
                    return Err(CountError::Twice(n));
                }
                values.push(n);
            }
            values
        }
        Value::Str(text) => range(text)?,
        _ => return Err(CountError::Unknown(node.describe())),
    };
    if values.is_empty() || values.len() as i64 > MAX_COUNT {
        return Err(CountError::Cases(values.len()));
    }
    Ok(values)
}

fn range(text: &str) -> Result<Vec<i64>, CountError> {
    let bad = || CountError::NotARange(text.to_string());
    let (lo, hi) = text.split_once("..=").ok_or_else(bad)?;
    let number = |s: &str| {
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        s.parse::<i64>().map_err(|_| bad())
    };
    let (lo, hi) = (number(lo)?, number(hi)?);
    if lo > hi {
        return Err(CountError::Backwards(text.to_string()));
    }
    if hi.saturating_sub(lo) >= MAX_COUNT {
        return Err(CountError::LongRange(text.to_string()));
    }
    Ok((lo..=hi).collect())
}

/// What is wrong with a `count:`.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum CountError {
    #[error("count {0} must be between 1 and {MAX_COUNT}")]
    OutOfRange(i64),
    /// An item of a count list that is no whole number, described.
    #[error("a count list holds whole numbers, found {0}")]
    NotANumber(String),
    #[error("count list holds {0} twice")]
    Twice(i64),
    /// A count that is none of the forms, described.
    #[error("count must be a number, a list of numbers or a range `a..=b`, found {0}")]
    Unknown(String),
    /// How many cases a list makes.
    #[error("count makes {0} cases; it must make 1 to {MAX_COUNT}")]
    Cases(usize),
    #[error("count `{0}` is not a range like `-4..=5`")]
    NotARange(String),
    #[error("count range `{0}` starts after it ends")]
    Backwards(String),
    #[error("count range `{0}` makes more than {MAX_COUNT} cases")]
    LongRange(String),
}

/// The suffix `-<value>` a counted case's name gets: zero-padded (sign included in the width)
/// to the longest value's width when the values are consecutive, else as is.
pub fn count_suffix(values: &[i64], value: i64) -> String {
    let (min, max) = (values.iter().min(), values.iter().max());
    let consecutive = match (min, max) {
        (Some(min), Some(max)) => max - min == values.len() as i64 - 1,
        _ => false,
    };
    let width = if consecutive {
        values
            .iter()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    format!("-{value:0width$}")
}

/// The name of the `number`th (from 1) numbered case or group of `total`: the number
/// zero-padded to the width of `total`, then `-key` unless the key is empty.
pub fn numbered_name(key: &str, number: usize, total: usize) -> String {
    let width = total.to_string().len();
    if key.is_empty() {
        format!("{number:0width$}")
    } else {
        format!("{number:0width$}-{key}")
    }
}
