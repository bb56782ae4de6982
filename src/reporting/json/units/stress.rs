//! `stress`'s lines: a case tried, and the shrunk counterexample that ends the run.

use serde_json::{json, Value};

use super::seed;
use crate::escape::{visible, visible_line};
use crate::reporting::json::clean;
use crate::reporting::stressed::{Counterexample, StressRun, Tried};
use crate::reporting::unit::UnitId;

/// A case of `stress`: its number and seed, and its verdict (`AC` when the program agreed).
pub(in crate::reporting::json) fn tried_object(id: &UnitId<'_>, tried: &Tried) -> Value {
    json!({
        "case": clean(&format!("{}/{}", id.problem, tried.number)),
        "problem": clean(id.problem),
        "number": tried.number,
        "seed": seed(tried.seed),
        "verdict": tried.verdict.unwrap_or(crate::judging::Verdict::AC),
    })
}

/// `stress`'s counterexample, shrunk: the input, the reference's answer and the program's
/// output (as text, what a terminal would obey made visible), how to make it again, and what
/// `--save` did with it.
pub(in crate::reporting::json) fn counterexample_object(
    run: &StressRun,
    found: &Counterexample,
) -> Value {
    let text = |bytes: &[u8]| visible(&String::from_utf8_lossy(bytes)).into_owned();
    json!({
        "case": clean(&format!("{}/{}", run.problem, found.number)),
        "problem": clean(&run.problem),
        "number": found.number,
        "verdict": found.verdict,
        "message": found.message.as_deref().map(|m| visible_line(m).into_owned()),
        "input": text(&found.input),
        "expected": text(&found.expected),
        "output": text(&found.output),
        "remake": clean(&found.remake),
        "rerun": clean(&run.rerun),
        "saved": found.saved.as_deref().map(clean),
    })
}
