//! The settings a problem's cases are judged under, by one rule for every command that judges
//! them (`check` and `list` through the plan, `verify`, `timelimit`, `stress`, `mutants`):
//! [`judged_under`]. What the problem says of itself wins over runner.toml, and the flags win
//! over both:
//!
//! - memory and output: the flag's; else the problem's (a package's own, or the format's
//!   defaults where it leaves them to the judge; a built-in problem's or fixtures folder's are
//!   runner.toml's, which it was made from);
//! - passes: the problem's (a multi-pass package's `validation_passes`, 1 for every other);
//! - checker and interactor: the flag's; else the problem's judge (a built-in problem's or
//!   fixtures folder's, from runner.toml); a package brings its own output validator, per case,
//!   and its interactor, so runner.toml's are not its;
//! - the time limit: the flag's; else the problem's as [`super::TimeLimit`]'s rule gives it,
//!   where it is known;
//! - the wall-clock backstop, a checker's or interactor's time (`judge_time_limit_ms`) and the
//!   variables judged programs get: runner.toml's (the problem's table, else its top level),
//!   flags over them, whatever the problem is: they are the machine's and the runner's, which
//!   no package format fixes.

use std::time::Duration;

use super::{Judging, Problem};
use crate::checking::Checker;
use crate::config::{Overrides, Settings};

/// The settings `problem`'s cases are judged under: `base` (runner.toml's settings for it with
/// the flags over them, as [`crate::config::Config::settings`] gives them; the defaults with
/// the flags where a command reads no runner.toml) with what `problem` says laid over them,
/// where `overrides` (the flags) do not say otherwise; its time limit `time` where it is known,
/// else `base`'s until it is.
pub fn judged_under(
    problem: &Problem,
    base: &Settings,
    overrides: &Overrides,
    time: Option<Duration>,
) -> Settings {
    let mut settings = base.clone();
    let limits = &mut settings.limits;
    limits.memory_mib = overrides.memory_limit_mb.unwrap_or(problem.memory_mib);
    limits.output_mib = overrides.output_limit_mb.unwrap_or(problem.output_mib);
    limits.passes = problem.passes;
    if let (None, Some(time)) = (overrides.time_limit, time) {
        limits.time = time;
    }
    let (checker, interactor) = match &problem.judging {
        Judging::Settings(judge) => (judge.checker.clone(), judge.interactor.clone()),
        // Its own validator judges each case, and plays an interactive package's cases, once
        // built: what is left here judges nothing of it unless a flag names it.
        Judging::Package { .. } => (Checker::TOKENS, None),
    };
    settings.checker = overrides.checker.clone().unwrap_or(checker);
    settings.interactor = overrides.interactor.clone().or(interactor);
    settings
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
