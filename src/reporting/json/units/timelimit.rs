//! `timelimit`'s line of a package: the accepted submissions' runs, the limit or why none,
//! and each bound.

use serde_json::{json, Value};

use crate::reporting::json::{all, clean};
use crate::reporting::millis;
use crate::reporting::timed::PackageTiming;

/// A package of `timelimit`: each accepted submission's slowest case per run and what kept a
/// run from timing the limit; the limit, or why none; each bound and whether it is kept.
pub(in crate::reporting::json) fn timed_object(timing: &PackageTiming) -> Value {
    let submissions: Vec<Value> = timing
        .submissions
        .iter()
        .map(|timed| {
            let runs: Vec<Value> = timed
                .slowest
                .iter()
                .map(|(time, case)| json!({"case": clean(case), "time_ms": millis(*time)}))
                .collect();
            json!({"submission": clean(&timed.id), "runs": runs, "trouble": all(&timed.trouble)})
        })
        .collect();
    let bounds: Vec<Value> = timing
        .bounds
        .iter()
        .map(|(id, bound)| {
            json!({"submission": clean(id), "kept": bound.kept(), "message": clean(&bound.to_string())})
        })
        .collect();
    let (limit, fixed, why) = match &timing.limit {
        Ok(limit) => (Some(millis(limit.limit)), limit.fixed.map(millis), None),
        Err(why) => (None, None, Some(clean(&why.to_string()))),
    };
    json!({
        "package": clean(&timing.name),
        "origin": clean(&timing.origin),
        "submissions": submissions,
        "time_limit_ms": limit,
        "problem_yaml_ms": fixed,
        "no_limit": why,
        "bounds": bounds,
        "written": timing.written.as_deref().map(clean),
        "ok": timing.fine(),
    })
}
