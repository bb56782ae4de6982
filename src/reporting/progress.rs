//! The progress bar a person at a terminal sees on a long run: cases done of the total, failures
//! so far and the cases in flight, drawn with indicatif on stderr and cleared before the summary.
//! It wraps the stdout reporter and hides itself while that reporter prints, so lines and bar
//! never mix.
//!
//! [`Stages`] is the bar of a command that runs in stages (`verify`'s building, validating and
//! judging, `stress`'s cases and shrinking), one bar at a time, which the reports printed
//! meanwhile suspend.
//!
//! Only when stdout is a terminal and `CI` is not set: logs and pipes get plain lines, never a
//! `\r` or a cursor movement. indicatif also draws nothing when stderr is not a terminal.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::events::{Detail, Event, Finished, RunKind};
use super::{ReportError, Reporter};
use crate::escape::visible_line;

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

/// The bars of a command's stages, one at a time; clones share them. Hidden unless `shown`.
#[derive(Clone)]
pub struct Stages {
    shown: bool,
    color: bool,
    current: Arc<Mutex<Option<ProgressBar>>>,
}

impl Stages {
    pub fn new(shown: bool, color: bool) -> Stages {
        Stages {
            shown,
            color,
            current: Arc::new(Mutex::new(None)),
        }
    }

    /// The bar of a stage of `count` steps doing `what`, until [`Stages::end`].
    pub fn start(&self, what: &str, count: usize) -> ProgressBar {
        self.begin(what, Some(count as u64))
    }

    /// The spinner of a stage of steps not known in advance (`stress`'s shrinking), until
    /// [`Stages::end`].
    pub fn spinner(&self, what: &str) -> ProgressBar {
        self.begin(what, None)
    }

    fn begin(&self, what: &str, count: Option<u64>) -> ProgressBar {
        let bar = match self.shown {
            true => bar(count, self.color),
            false => ProgressBar::hidden(),
        };
        bar.set_message(what.to_string());
        *self.current.lock().expect("never poisoned") = Some(bar.clone());
        bar
    }

    /// Clears the stage's bar.
    pub fn end(&self) {
        if let Some(bar) = self.current.lock().expect("never poisoned").take() {
            bar.finish_and_clear();
        }
    }

    /// Runs `print` with the current stage's bar out of the way.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        match &*self.current.lock().expect("never poisoned") {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }
}

/// The bar of `check`'s cases, drawn from the run's start to its end; it passes every event on
/// to the reporter it wraps.
pub struct ProgressReporter {
    inner: Box<dyn Reporter>,
    color: bool,
    target: fn() -> ProgressDrawTarget,
    /// Drawn once a `check` run starts (`verify` shows its stages instead).
    bar: Option<ProgressBar>,
    /// Cases started and not yet reported, oldest first. Reports come in sorted order, so the
    /// oldest is the one the report is waiting for.
    in_flight: Vec<String>,
    failed: usize,
}

impl ProgressReporter {
    pub fn new(inner: Box<dyn Reporter>, color: bool) -> Self {
        Self::with_target(inner, color, ProgressDrawTarget::stderr)
    }

    fn with_target(
        inner: Box<dyn Reporter>,
        color: bool,
        target: fn() -> ProgressDrawTarget,
    ) -> Self {
        ProgressReporter {
            inner,
            color,
            target,
            bar: None,
            in_flight: Vec::new(),
            failed: 0,
        }
    }

    fn update(&self) {
        if let Some(bar) = &self.bar {
            bar.set_message(status(self.failed, &self.in_flight));
        }
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
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
        match event {
            Event::RunStarted(RunKind::Check { cases, .. }) => {
                self.bar = Some(styled_bar(Some(*cases as u64), self.color, (self.target)()));
            }
            Event::CaseStarted(case) => {
                self.in_flight.push(visible_line(&case.id).into_owned());
                self.update();
            }
            Event::Finished(Finished {
                detail: Detail::Case(result),
                ..
            }) => {
                let id = visible_line(&result.case.id);
                self.in_flight.retain(|shown| *shown != id);
                self.failed += usize::from(!result.verdict.passed());
            }
            Event::Cancelled | Event::RunFinished(_) => {
                if let Some(bar) = &self.bar {
                    bar.finish_and_clear();
                }
            }
            _ => {}
        }
        let inner = &mut self.inner;
        match self.bar.as_ref().filter(|bar| !bar.is_finished()) {
            Some(bar) => bar.suspend(|| inner.report(event))?,
            None => inner.report(event)?,
        }
        if let (Event::Finished(_), Some(bar)) = (event, &self.bar) {
            bar.inc(1);
            self.update();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use crate::judging::{CaseResult, Verdict};
    use crate::reporting::tests::case;
    use crate::reporting::Summary;

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

    struct Count(Rc<RefCell<usize>>);

    impl Reporter for Count {
        fn report(&mut self, _event: &Event<'_>) -> Result<(), ReportError> {
            *self.0.borrow_mut() += 1;
            Ok(())
        }
    }

    #[test]
    fn every_event_reaches_the_wrapped_reporter() {
        let count = Rc::new(RefCell::new(0));
        let inner = Box::new(Count(count.clone()));
        let mut progress = ProgressReporter::with_target(inner, false, ProgressDrawTarget::hidden);
        let (a, b) = (case("p/a"), case("p/b"));
        progress
            .report(&Event::RunStarted(&RunKind::Check {
                cases: 2,
                time_limits: Default::default(),
            }))
            .unwrap();
        progress.report(&Event::CaseStarted(&a)).unwrap();
        progress.report(&Event::CaseStarted(&b)).unwrap();
        let wrong = CaseResult::new(a, Verdict::WA, None);
        progress.report(&Event::case(&wrong, None)).unwrap();
        assert_eq!(progress.in_flight, ["p/b"]);
        assert_eq!(progress.failed, 1);
        let right = CaseResult::new(b, Verdict::AC, None);
        progress.report(&Event::case(&right, None)).unwrap();
        let bar = progress.bar.clone().expect("a check run has a bar");
        assert_eq!(bar.position(), 2);
        progress
            .report(&Event::RunFinished(&Summary::default()))
            .unwrap();
        assert!(bar.is_finished());
        assert_eq!(*count.borrow(), 6);
    }

    #[test]
    fn a_verify_run_has_no_case_bar() {
        let inner = Box::new(Count(Rc::new(RefCell::new(0))));
        let mut progress = ProgressReporter::with_target(inner, false, ProgressDrawTarget::hidden);
        let kind = RunKind::Verify {
            unreadable: vec![],
            explain: false,
        };
        progress.report(&Event::RunStarted(&kind)).unwrap();
        assert!(progress.bar.is_none());
    }
}
