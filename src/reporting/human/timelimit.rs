//! `timelimit`'s human view: a block per package, as soon as its timing is known: each accepted
//! submission's slowest case in every run and their spread, what kept a run from timing the
//! limit (an error: the limit is not had), the limit the format's rule makes and what
//! `problem.yaml` has, each other submission that bounds the limit and whether it keeps its side
//! (a warning naming it when it does not), and what `--write` did.

use std::fmt::Write as _;

use crate::escape::visible_line;
use crate::reporting::seconds;
use crate::reporting::timed::PackageTiming;

pub(super) fn package(timing: &PackageTiming) -> String {
    let mut text = format!(
        "{} ({})\n",
        visible_line(&timing.name),
        visible_line(&timing.origin)
    );
    for timed in &timing.submissions {
        let _ = writeln!(text, "  {}", visible_line(&timed.id));
        if let (Some(low), Some(high)) = (
            timed.slowest.iter().map(|s| s.0).min(),
            timed.slowest.iter().max_by_key(|s| s.0),
        ) {
            let spread = match low.is_zero() {
                true => 0.0,
                false => (high.0.as_secs_f64() / low.as_secs_f64() - 1.0) * 100.0,
            };
            let runs: Vec<String> = timed.slowest.iter().map(|s| seconds(s.0)).collect();
            let _ = writeln!(
                text,
                "    slowest case {} (CPU time, in {} run(s): {}; spread {spread:.1}%)",
                visible_line(&high.1),
                runs.len(),
                runs.join(", ")
            );
        }
        for trouble in &timed.trouble {
            let _ = writeln!(
                text,
                "    error: not timed as accepted: {trouble} (an accepted submission must be \
                 accepted on every case for the limit to be had from it)"
            );
        }
    }
    match &timing.limit {
        Err(why) => {
            let _ = writeln!(text, "  time limit: none: {why}");
        }
        Ok(limit) => {
            let _ = writeln!(text, "  time limit: {limit}");
            for (submission, bound) in &timing.bounds {
                let warning = if bound.kept() { "" } else { "warning: " };
                let _ = writeln!(text, "  {warning}{}: {bound}", visible_line(submission));
            }
        }
    }
    if let Some(written) = &timing.written {
        let _ = writeln!(text, "  {written}");
    }
    text
}
