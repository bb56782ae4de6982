//! Human output: failures with their message and diff as they are reached in sorted order, a
//! per-problem table, the wall time, and the closing `N passed, M failed` line.

use std::collections::BTreeMap;
use std::io::Write;

use super::{millis, Reporter, Summary};
use crate::diffing::Paint;
use crate::judging::{CaseResult, Verdict};

/// How much is printed: `-q` only the summary, default failures and summary, `-v` every case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    Quiet,
    Normal,
    Verbose,
}

pub struct HumanReporter<W: Write> {
    out: W,
    paint: Paint,
    color: bool,
    verbosity: Verbosity,
    /// Per problem: cases judged and cases failed.
    problems: BTreeMap<String, (usize, usize)>,
}

impl<W: Write> HumanReporter<W> {
    pub fn new(out: W, color: bool, verbosity: Verbosity) -> Self {
        HumanReporter {
            out,
            paint: if color { Paint::colored() } else { Paint::plain() },
            color,
            verbosity,
            problems: BTreeMap::new(),
        }
    }

    fn styled(&self, style: anstyle::Style, text: &str) -> String {
        if self.color {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_string()
        }
    }

    fn verdict_style(verdict: Verdict) -> anstyle::Style {
        use anstyle::{AnsiColor, Effects};
        let color = match verdict {
            Verdict::AC => AnsiColor::Green,
            Verdict::NOEXP => AnsiColor::Yellow,
            _ => AnsiColor::Red,
        };
        color.on_default().effects(Effects::BOLD)
    }
}

impl<W: Write> Reporter for HumanReporter<W> {
    fn case_finished(&mut self, result: &CaseResult) {
        let entry = self.problems.entry(result.case.problem.clone()).or_default();
        entry.0 += 1;
        entry.1 += usize::from(!result.verdict.passed());
        let mut text = String::new();
        if let Some(path) = &result.blessed {
            if self.verbosity > Verbosity::Quiet {
                let tag = self.styled(anstyle::AnsiColor::Cyan.on_default(), "BLESS");
                text += &format!("{tag} {} wrote {}\n", result.case.id, path.display());
            }
        } else if !result.verdict.passed() && self.verbosity > Verbosity::Quiet {
            let verdict = self.styled(
                Self::verdict_style(result.verdict),
                &format!("{:<5}", result.verdict),
            );
            text += &format!(
                "FAIL {verdict} {} ({} ms, {})\n",
                result.case.id,
                millis(result.time),
                result.verdict.meaning()
            );
            if let Some(message) = &result.message {
                text += &format!("      {message}\n");
            }
            if let Some(diff) = &result.diff {
                text += &diff.render(&self.paint, "      ");
            }
            if let Some(stderr) = &result.stderr {
                text += "      stderr:\n";
                for line in stderr.lines().take(20) {
                    text += &format!("      | {line}\n");
                }
            }
        } else if self.verbosity == Verbosity::Verbose {
            let verdict = self.styled(Self::verdict_style(result.verdict), "AC   ");
            let memory = result
                .peak_memory_bytes
                .map(|b| format!(", {:.1} MiB", b as f64 / f64::from(1 << 20)))
                .unwrap_or_default();
            text += &format!(
                "PASS {verdict} {} ({} ms{memory})\n",
                result.case.id,
                millis(result.time)
            );
        }
        let _ = self.out.write_all(text.as_bytes());
    }

    fn finish(&mut self, summary: &Summary) {
        let mut text = String::new();
        if self.verbosity > Verbosity::Quiet {
            let width = self.problems.keys().map(String::len).max().unwrap_or(0);
            for (problem, (judged, failed)) in &self.problems {
                let state = if *failed == 0 {
                    self.styled(anstyle::AnsiColor::Green.on_default(), "all passed")
                } else {
                    self.styled(
                        anstyle::AnsiColor::Red.on_default(),
                        &format!("{failed} failed"),
                    )
                };
                text += &format!("  {problem:<width$}  {judged:>5} cases  {state}\n");
            }
        }
        if let Some((bucket, suite)) = &summary.partition {
            text += &format!(
                "Partition {bucket}: {} of the suite's {suite} cases.\n",
                summary.total()
            );
        }
        text += &format!(
            "Judged {} cases in {:.2}s with {} jobs.\n",
            summary.total() - summary.skipped,
            summary.wall_time.as_secs_f64(),
            summary.jobs
        );
        text += &summary.closing_line();
        text += "\n";
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
    }
}
