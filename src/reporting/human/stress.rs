//! `stress`'s human view: nothing for the cases that agree (a progress bar counts them), the
//! counterexample as `stress` shows it and what `--save` did with it, then the closing line
//! (`stress nim: 300 cases, all agree ...`, or `... case 17 of 300 fails ...`); a run Ctrl-C
//! cut short says how to repeat it.

use crate::escape::visible;
use crate::reporting::stressed::{Counterexample, StressRun};
use crate::reporting::Summary;

/// The run, and the case that failed once its counterexample is shown.
pub(super) struct StressView {
    run: StressRun,
    failed: Option<u64>,
}

impl StressView {
    pub(super) fn new(run: &StressRun) -> StressView {
        StressView {
            run: run.clone(),
            failed: None,
        }
    }

    pub(super) fn counterexample(&mut self, found: &Counterexample) -> String {
        self.failed = Some(found.number);
        let mut text = found.shown.clone();
        if let Some(saved) = &found.saved {
            text += &visible(saved);
            if !text.ends_with('\n') {
                text.push('\n');
            }
        }
        text
    }

    pub(super) fn finish(&self, summary: &Summary, cancelled: bool) -> String {
        match cancelled {
            true => format!(
                "Cancelled (Ctrl-C): `{}` repeats this run.\n{}\n",
                self.run.rerun,
                summary.closing_line()
            ),
            false => self.run.closing(self.failed, summary.wall_time) + "\n",
        }
    }
}
