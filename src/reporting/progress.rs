//! The progress bar a person at a terminal sees on a long run: cases done of the total, failures
//! so far and the cases in flight, drawn with indicatif on stderr and cleared before the summary.
//! It wraps the stdout reporter and hides itself while that reporter prints, so lines and bar
//! never mix.
//!
//! Only when stdout is a terminal and `CI` is not set: logs and pipes get plain lines, never a
//! `\r` or a cursor movement. indicatif also draws nothing when stderr is not a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Reporter;
use crate::discovery::Case;
use crate::escape::visible_line;
use crate::judging::CaseResult;
use crate::reporting::Summary;

/// Case names shown in the bar; the rest are counted.
const NAMES_SHOWN: usize = 3;

/// Whether a progress bar is wanted: stdout on a terminal, and not on CI.
pub fn on_a_terminal() -> bool {
    std::io::stdout().is_terminal()
        && std::env::var_os("CI").is_none_or(|v| v.is_empty())
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// grundy's one progress style: a bar of `total` steps (a spinner alone for `None`), drawn on
/// stderr when [`on_a_terminal`] (hidden otherwise), ticking so the spinner and the elapsed time
/// move while one long step runs.
pub fn bar(total: Option<u64>, color: bool) -> ProgressBar {
    let target = if on_a_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    styled_bar(total, color, target)
}

fn styled_bar(total: Option<u64>, color: bool, target: ProgressDrawTarget) -> ProgressBar {
    let template = match (total, color) {
        (None, _) => "{spinner} {elapsed:>4} {wide_msg}",
        (Some(_), true) => {
            "{spinner:.cyan} {elapsed:>4} [{bar:25.cyan/blue}] {pos}/{len} {wide_msg}"
        }
        (Some(_), false) => "{spinner} {elapsed:>4} [{bar:25}] {pos}/{len} {wide_msg}",
    };
    let style = ProgressStyle::with_template(template)
        .expect("a valid progress template")
        .progress_chars("=> ");
    let bar = ProgressBar::with_draw_target(total, target).with_style(style);
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

pub struct ProgressReporter {
    inner: Box<dyn Reporter>,
    bar: ProgressBar,
    /// Cases started and not yet reported, oldest first. Reports come in sorted order, so the
    /// oldest is the one the report is waiting for.
    in_flight: Vec<String>,
    failed: usize,
}

impl ProgressReporter {
    pub fn new(inner: Box<dyn Reporter>, cases: usize, color: bool) -> Self {
        Self::with_target(inner, cases, color, ProgressDrawTarget::stderr())
    }

    fn with_target(
        inner: Box<dyn Reporter>,
        cases: usize,
        color: bool,
        target: ProgressDrawTarget,
    ) -> Self {
        let bar = styled_bar(Some(cases as u64), color, target);
        ProgressReporter {
            inner,
            bar,
            in_flight: Vec::new(),
            failed: 0,
        }
    }

    fn update(&self) {
        self.bar.set_message(status(self.failed, &self.in_flight));
    }
}

/// `1 failed · running a/x, a/y, b/z +2 more`.
fn status(failed: usize, in_flight: &[String]) -> String {
    let mut text = format!("{failed} failed");
    if !in_flight.is_empty() {
        let shown = &in_flight[..in_flight.len().min(NAMES_SHOWN)];
        text += &format!(" · running {}", shown.join(", "));
        if in_flight.len() > shown.len() {
            text += &format!(" +{} more", in_flight.len() - shown.len());
        }
    }
    text
}

impl Reporter for ProgressReporter {
    fn case_started(&mut self, case: &Case) {
        self.in_flight.push(visible_line(&case.id).into_owned());
        self.update();
        self.inner.case_started(case);
    }

    fn case_finished(&mut self, result: &CaseResult) -> Result<()> {
        let id = visible_line(&result.case.id);
        self.in_flight.retain(|shown| *shown != id);
        self.failed += usize::from(!result.verdict.passed());
        let inner = &mut self.inner;
        self.bar.suspend(|| inner.case_finished(result))?;
        self.bar.inc(1);
        self.update();
        Ok(())
    }

    fn finish(&mut self, summary: &Summary) -> Result<()> {
        self.bar.finish_and_clear();
        self.inner.finish(summary)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use crate::judging::Verdict;
    use crate::reporting::tests::case;

    #[test]
    fn the_status_counts_failures_and_names_the_oldest_cases_in_flight() {
        assert_eq!(status(0, &[]), "0 failed");
        let names: Vec<String> = ["p/a", "p/b", "p/c", "p/d", "p/e"].map(String::from).into();
        assert_eq!(status(1, &names[..2]), "1 failed · running p/a, p/b");
        assert_eq!(
            status(2, &names),
            "2 failed · running p/a, p/b, p/c +2 more"
        );
    }

    struct Count(Rc<RefCell<(usize, usize, usize)>>);

    impl Reporter for Count {
        fn case_started(&mut self, _case: &Case) {
            self.0.borrow_mut().0 += 1;
        }
        fn case_finished(&mut self, _result: &CaseResult) -> Result<()> {
            self.0.borrow_mut().1 += 1;
            Ok(())
        }
        fn finish(&mut self, _summary: &Summary) -> Result<()> {
            self.0.borrow_mut().2 += 1;
            Ok(())
        }
    }

    #[test]
    fn every_event_reaches_the_wrapped_reporter() {
        let counts = Rc::new(RefCell::new((0, 0, 0)));
        let inner = Box::new(Count(counts.clone()));
        let mut progress =
            ProgressReporter::with_target(inner, 2, false, ProgressDrawTarget::hidden());
        let (a, b) = (case("p/a"), case("p/b"));
        progress.case_started(&a);
        progress.case_started(&b);
        progress
            .case_finished(&CaseResult::new(a, Verdict::WA, None))
            .unwrap();
        assert_eq!(progress.in_flight, ["p/b"]);
        assert_eq!(progress.failed, 1);
        progress
            .case_finished(&CaseResult::new(b, Verdict::AC, None))
            .unwrap();
        assert_eq!(progress.bar.position(), 2);
        progress.finish(&Summary::default()).unwrap();
        assert!(progress.bar.is_finished());
        assert_eq!(*counts.borrow(), (2, 2, 1));
    }
}
