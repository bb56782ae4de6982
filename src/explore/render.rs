//! The three faces of an `sg` outcome: an aligned table with the pattern in words (wrapped to the
//! terminal), CSV rows, and one JSON object.

use std::fmt::Write;

use grundy_problems::families::{Family, Law, Observed, PERIOD_PROOF, PERIOD_SEARCH_LIMIT};
use serde_json::{json, Map, Value};

use super::{Check, Evaluation, Outcome, Via};

/// How many values of a preperiod or period the human text lists before cutting.
const LISTED: usize = 40;

/// How many values of the repeated window the proof lists before cutting.
const LISTED_WINDOW: usize = 12;

/// The width to wrap to: the terminal's when stdout is one, else `COLUMNS`, else 80.
pub fn terminal_width() -> usize {
    crate::reporting::fit::terminal_width(80)
}

pub fn human(outcome: &Outcome, width: usize) -> String {
    let mut text = String::new();
    let describe = outcome.family.describe();
    if let Some(table) = &outcome.table {
        text += &wrap(
            &format!("{describe}: g(x) for x = 0..={}", outcome.upto),
            width,
        );
        text.push('\n');
        text += &aligned_table(table, width);
        text.push('\n');
        for paragraph in law_paragraphs(outcome) {
            text += &wrap(&paragraph, width);
        }
    }
    for evaluation in &outcome.at {
        text += &wrap(&at_line(&outcome.law, evaluation), width);
    }
    if let Some(check) = &outcome.check {
        text += &wrap(&check_line(&outcome.law, check), width);
    }
    text
}

/// The `x` and `g(x)` rows, as many columns a line as fit in `width`, blocks separated by a blank
/// line; every column as wide as the widest number.
pub fn aligned_table(values: &[u32], width: usize) -> String {
    const LABEL: usize = 4; // "g(x)"
    let largest = values.iter().copied().max().unwrap_or(0);
    let cell = digits(values.len().saturating_sub(1) as u64).max(digits(u64::from(largest)));
    let per_line = (width.saturating_sub(LABEL) / (cell + 1)).max(1);
    let mut text = String::new();
    for (block, chunk) in values.chunks(per_line).enumerate() {
        if block > 0 {
            text.push('\n');
        }
        let start = block * per_line;
        text += "   x";
        for x in start..start + chunk.len() {
            let _ = write!(text, " {x:>cell$}");
        }
        text += "\ng(x)";
        for g in chunk {
            let _ = write!(text, " {g:>cell$}");
        }
        text.push('\n');
    }
    text
}

fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// What is proven, and what is only observed, as paragraphs of prose.
fn law_paragraphs(outcome: &Outcome) -> Vec<String> {
    let mut paragraphs = Vec::new();
    match &outcome.law {
        Law::Period(periodic) => {
            let (pre, period) = (periodic.preperiod, periodic.period);
            if pre > 0 {
                paragraphs.push(format!(
                    "preperiod {pre}: {}",
                    listed(&periodic.table[..pre])
                ));
            }
            paragraphs.push(format!(
                "period {period} from x = {pre}: {}",
                listed(&periodic.table[pre..])
            ));
            paragraphs.push(period_proof(&outcome.family, periodic));
        }
        Law::NoPeriodInReach => paragraphs.push(format!(
            "no period proven: the values of S show no repeated window within their first \
             {PERIOD_SEARCH_LIMIT} values (preperiod + period + largest take must fit), so --at \
             reaches only the direct table, up to x = {}",
            outcome.family.table_limit()
        )),
        Law::ClosedForm(_) => {}
    }
    if let Some(observed) = outcome.observed {
        let table = outcome.table.as_deref().unwrap_or_default();
        paragraphs.push(observed_sentence(observed, table, outcome.upto));
    }
    if let Some(d) = outcome.departure {
        paragraphs.push(format!(
            "that guess is wrong: at x = {} the pattern predicts {}, but the proven closed form \
             gives {}",
            d.x, d.pattern, d.law
        ));
    }
    if let Law::ClosedForm(form) = &outcome.law {
        paragraphs.push(format!(
            "proven closed form: {} (proof: {})",
            form.formula(),
            form.proof()
        ));
    }
    paragraphs
}

fn period_proof(family: &Family, periodic: &grundy_problems::families::Periodic) -> String {
    let Family::Subtraction(takes) = family else {
        unreachable!("only subtraction games have a proven period");
    };
    let m = takes.last().copied().unwrap_or(0) as usize;
    let (pre, period) = (periodic.preperiod, periodic.period);
    let window: Vec<u32> = (pre..pre + m).map(|x| periodic.at(x as u64)).collect();
    format!(
        "proven: every take is legal from heap x + {m}, so g(x + {m}) depends only on the {m} \
         values before it; the window g({pre}..={}) = {} comes back as g({}..={}), so from \
         x = {pre} on the values repeat with period {period} forever, and the first repeated \
         window gives the minimal preperiod and period (proof: {PERIOD_PROOF}).",
        pre + m - 1,
        listed_up_to(&window, LISTED_WINDOW),
        pre + period,
        pre + period + m - 1,
    )
}

fn observed_sentence(observed: Observed, table: &[u32], upto: u64) -> String {
    let pattern = match observed {
        Observed::Identity => "g(x) = x".to_string(),
        Observed::Periodic { preperiod, period } => {
            let after = match preperiod {
                0 => String::new(),
                1..=12 => format!(" (after {})", listed(&table[..preperiod])),
                _ => format!(" (after {preperiod} other values)"),
            };
            format!(
                "period {period} from x = {preperiod}: {}{after}",
                listed(&table[preperiod..preperiod + period])
            )
        }
        Observed::Nothing => {
            return format!(
                "observed for x = 0..={upto}: no period (none seen twice over at least half the \
                 table) and not g(x) = x"
            )
        }
    };
    format!("observed for x = 0..={upto}: {pattern}; observed in the table, not proven by it")
}

/// Values separated by spaces, cut after [`LISTED`] with a note.
fn listed(values: &[u32]) -> String {
    listed_up_to(values, LISTED)
}

/// Values separated by spaces, cut after `most` with a note.
fn listed_up_to(values: &[u32], most: usize) -> String {
    let shown: Vec<String> = values.iter().take(most).map(u32::to_string).collect();
    let mut text = shown.join(" ");
    if values.len() > most {
        let _ = write!(
            text,
            " ... ({} values in all; --format json lists them)",
            values.len()
        );
    }
    text
}

fn at_line(law: &Law, evaluation: &Evaluation) -> String {
    let via = match (evaluation.via, law) {
        (Via::Period, Law::Period(p)) => {
            format!(
                "by the period {} from x = {}, proven",
                p.period, p.preperiod
            )
        }
        (Via::ClosedForm, Law::ClosedForm(form)) => {
            format!("by {}, proven", form.name())
        }
        _ => "from the direct table".to_string(),
    };
    format!("g({}) = {}   ({via})", evaluation.x, evaluation.g)
}

fn check_line(law: &Law, check: &Check) -> String {
    let what = match law {
        Law::ClosedForm(form) => form.name().to_string(),
        _ => "the period".to_string(),
    };
    match check.mismatch {
        None => format!(
            "check passed: {what} agrees with the rules-only table for every x = 0..={}",
            check.upto
        ),
        Some(m) => format!(
            "check FAILED at x = {}: {what} gives {}, the rules-only table gives {}",
            m.x, m.law, m.rules
        ),
    }
}

/// Greedy word wrap; continuation lines are indented by two spaces.
fn wrap(paragraph: &str, width: usize) -> String {
    let mut text = String::new();
    let mut line = String::new();
    for word in paragraph.split(' ').filter(|w| !w.is_empty()) {
        if !line.trim().is_empty() && line.len() + 1 + word.len() > width {
            text += line.trim_end();
            text.push('\n');
            line = "  ".to_string();
        } else if !line.trim().is_empty() {
            line.push(' ');
        }
        line += word;
    }
    text += line.trim_end();
    text.push('\n');
    text
}

pub fn csv(outcome: &Outcome) -> String {
    let mut text = String::new();
    if let Some(check) = &outcome.check {
        text += "upto,agrees,mismatch_x,law,rules\n";
        let _ = match check.mismatch {
            None => writeln!(text, "{},true,,,", check.upto),
            Some(m) => writeln!(text, "{},false,{},{},{}", check.upto, m.x, m.law, m.rules),
        };
        return text;
    }
    text += "x,g\n";
    if let Some(table) = &outcome.table {
        for (x, g) in table.iter().enumerate() {
            let _ = writeln!(text, "{x},{g}");
        }
    }
    for evaluation in &outcome.at {
        let _ = writeln!(text, "{},{}", evaluation.x, evaluation.g);
    }
    text
}

pub fn json(outcome: &Outcome) -> Value {
    let mut object = Map::new();
    object.insert("game".into(), json!(outcome.game));
    object.insert("description".into(), json!(outcome.family.describe()));
    match &outcome.family {
        Family::Subtraction(takes) => drop(object.insert("takes".into(), json!(takes))),
        Family::Lieges { k } => drop(object.insert("k".into(), json!(k))),
        Family::PowersOfTwo | Family::Nim => {}
    }
    object.insert("upto".into(), json!(outcome.upto));
    if let Some(table) = &outcome.table {
        object.insert("values".into(), json!(table));
    }
    object.insert("law".into(), law_json(&outcome.law));
    if let Some(observed) = outcome.observed {
        let table = outcome.table.as_deref().unwrap_or_default();
        let mut observed = observed_json(observed, table);
        let departure = outcome
            .departure
            .map(|d| json!({"x": d.x, "pattern": d.pattern, "law": d.law}));
        observed["departure"] = departure.unwrap_or(Value::Null);
        object.insert("observed".into(), observed);
    }
    if !outcome.at.is_empty() {
        let at: Vec<Value> = outcome.at.iter().map(evaluation_json).collect();
        object.insert("at".into(), Value::Array(at));
    }
    if let Some(check) = &outcome.check {
        let mismatch = check
            .mismatch
            .map(|m| json!({"x": m.x, "law": m.law, "rules": m.rules}));
        object.insert(
            "check".into(),
            json!({"upto": check.upto, "agrees": mismatch.is_none(), "mismatch": mismatch}),
        );
    }
    Value::Object(object)
}

fn law_json(law: &Law) -> Value {
    match law {
        Law::Period(p) => json!({
            "kind": "period",
            "proven": true,
            "preperiod": p.preperiod,
            "period": p.period,
            "values": p.table,
            "proof": PERIOD_PROOF,
        }),
        Law::NoPeriodInReach => json!({
            "kind": "none",
            "proven": false,
            "search_limit": PERIOD_SEARCH_LIMIT,
        }),
        Law::ClosedForm(form) => json!({
            "kind": "closed-form",
            "proven": true,
            "formula": form.formula(),
            "proof": form.proof(),
        }),
    }
}

fn observed_json(observed: Observed, table: &[u32]) -> Value {
    match observed {
        Observed::Identity => json!({"kind": "identity", "proven": false}),
        Observed::Periodic { preperiod, period } => json!({
            "kind": "period",
            "proven": false,
            "preperiod": preperiod,
            "period": period,
            "values": table[..preperiod + period],
        }),
        Observed::Nothing => json!({"kind": "none", "proven": false}),
    }
}

fn evaluation_json(evaluation: &Evaluation) -> Value {
    let via = match evaluation.via {
        Via::Period => "period",
        Via::ClosedForm => "closed-form",
        Via::Table => "table",
    };
    json!({"x": evaluation.x, "g": evaluation.g, "via": via})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_wraps_to_the_width_with_aligned_columns() {
        let values = [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2];
        // 2 digits (x up to 11) + 1 space per column: (20 - 4) / 3 = 5 columns a line.
        let expected = "   x  0  1  2  3  4\ng(x)  0  1  0  1  2\n\n   x  5  6  7  8  9\n\
                        g(x)  3  2  0  1  0\n\n   x 10 11\ng(x)  1  2\n";
        assert_eq!(aligned_table(&values, 20), expected);
        assert_eq!(aligned_table(&[7], 80), "   x 0\ng(x) 7\n");
        // Narrower than one column still shows one column a line.
        assert_eq!(
            aligned_table(&[0, 1], 3),
            "   x 0\ng(x) 0\n\n   x 1\ng(x) 1\n"
        );
        assert_eq!(digits(0), 1);
        assert_eq!(digits(10), 2);
        assert_eq!(digits(u64::MAX), 20);
    }

    #[test]
    fn prose_wraps_at_word_boundaries() {
        assert_eq!(wrap("aaa bbb ccc", 7), "aaa bbb\n  ccc\n");
        assert_eq!(wrap("short", 80), "short\n");
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            "averyveryverylongword\n  x\n"
        );
    }

    #[test]
    fn long_sequences_are_cut_with_a_note() {
        let values: Vec<u32> = (0..100).collect();
        let text = listed(&values);
        assert!(text.starts_with("0 1 2 "));
        assert!(text.ends_with("39 ... (100 values in all; --format json lists them)"));
        assert_eq!(
            listed_up_to(&values[..3], 2),
            "0 1 ... (3 values in all; --format json lists them)"
        );
        assert_eq!(listed(&[3, 1]), "3 1");
    }
}
