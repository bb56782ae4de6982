//! The line of each kind of unit, as its command reports it: `check`'s cases ([`case`]),
//! `verify`'s submissions ([`submission`]) and packages ([`package`]), `validate`'s inputs and
//! packages ([`validate`]), `generate`'s ([`generate`]) and `timelimit`'s ([`timelimit`])
//! packages, `stress`'s cases and its counterexample ([`stress`]), `list`'s problems
//! ([`list`]), `mutants`' mutants and summary ([`mutants`]); here, the shapes several of them
//! share. What every line has (`type`, `id`), and the summary, are added by the reporter
//! ([`super::JsonReporter`]).

mod case;
mod generate;
mod list;
mod mutants;
mod package;
mod stress;
mod submission;
mod timelimit;
mod validate;

use serde_json::{json, Value};

use crate::model::{How, TimeLimit};
use crate::reporting::millis;

pub(super) use case::case_object;
pub(super) use generate::generated_object;
pub(super) use list::listed_object;
pub(super) use mutants::{mutant_object, mutation_summary};
pub(super) use package::{contest_object, heading_object, package_object};
pub(super) use stress::{counterexample_object, tried_object};
pub(super) use submission::submission_object;
pub(super) use timelimit::timed_object;
pub(super) use validate::{input_object, validation_object};

/// A time limit in milliseconds, `None` without one.
pub(super) fn limit_ms(limit: &TimeLimit) -> Option<f64> {
    limit.limit.as_ref().ok().copied().map(millis)
}

/// How a time limit came about, as data (`report merge` reads it back): `{"fixed": SOURCE}`,
/// or `{"computed": {factor, step_ms, near_step, cached}}`.
pub(super) fn how_object(how: &How) -> Value {
    match how {
        How::Fixed(source) => json!({ "fixed": source.to_string() }),
        How::Computed {
            factor,
            step,
            near_step,
            cached,
        } => json!({ "computed": {
            "factor": factor,
            "step_ms": millis(*step),
            "near_step": near_step,
            "cached": cached,
        }}),
    }
}

/// A seed of `stress`, as a string: a 64-bit number, which JSON readers that hold numbers as
/// doubles (JavaScript, jq) would round.
pub(in crate::reporting::json) fn seed(seed: u64) -> Value {
    seed.to_string().into()
}
