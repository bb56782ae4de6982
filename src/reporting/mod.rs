//! Reporting: turning the one stream of a run's [`Event`]s into human text, JSON lines, a JUnit
//! file and a progress bar, for `check` (a line per failed case) and `verify` (a line per
//! submission) alike. Events arrive in a deterministic order from the [`Dispatcher`], which
//! keeps the totals; reporters only format and print or write, they never run or judge
//! anything, and nothing else prints results.
//!
//! [`reporter`] builds the whole set for a run: the stdout format (wrapped in a progress bar on a
//! terminal), the notes on stderr, with `--junit` the JUnit file and with `--html` the HTML
//! page, each written where its [`Destination`] allows. The set also keeps the per-case timings that
//! the summary's slow-case lists and peak memory come from, so every format shows the same ones.

pub mod contest;
mod destination;
mod dispatch;
pub mod events;
pub mod findings;
pub mod fit;
pub mod generated;
mod html;
mod human;
mod json;
mod junit;
pub mod listed;
pub mod merge;
pub mod mutated;
pub mod notes;
mod progress;
pub mod reason;
pub mod stressed;
pub mod timed;
pub mod unit;
pub mod validated;
pub mod verified;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

pub use destination::{Destination, DestinationError};
pub use dispatch::{Dispatcher, Ended, Unfinished};
pub use events::{Detail, Event, Finished, RunKind};
pub use html::{failure_detail, HtmlReporter};
pub use human::{HumanReporter, Verbosity};
pub use json::JsonReporter;
pub use junit::JunitReporter;
pub use progress::{ProgressReporter, Stages};
pub use unit::{Totals, Unit};

use crate::discovery::LeftOut;
use crate::judging::{CaseResult, Verdict};

/// What a judging command prints on stdout (`--format`): the human report, or JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

/// The width human reports fit to when stdout is no terminal and `COLUMNS` is unset: logs and
/// pipes get lines of a known length whatever machine wrote them.
pub const FIXED_WIDTH: usize = 100;

/// The totals of a run: what its summary counts ([`Unit`]), that kind's counts, and every
/// kind's.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The command that ran (`check`, `verify`, ...).
    pub command: &'static str,
    /// What `passed`, `failed` and `skipped` count.
    pub unit: Unit,
    pub passed: usize,
    pub failed: usize,
    /// Units not judged: cases not started because of `--fail-fast` or Ctrl-C, submissions
    /// that could not be judged.
    pub skipped: usize,
    /// The counts of every kind of unit the run finished (`passed`, `failed` and `skipped` are
    /// those of `unit`).
    pub totals: Totals,
    pub wall_time: Duration,
    pub jobs: usize,
    /// The bucket judged and how many cases the suite held before partitioning.
    pub partition: Option<(String, usize)>,
    /// The largest peak memory of any case, when the runs measured it.
    pub peak_memory_bytes: Option<u64>,
    /// Cases that took over half their time limit, slowest first.
    pub slow: Vec<Timing>,
    /// The N slowest cases under `--slowest N`, slowest first.
    pub slowest: Vec<Timing>,
    /// Programs the host failed to build (`verify`): the run is incomplete.
    pub judge_errors: usize,
    /// Selected cases a program is not judged on by default (`check --exec`), by reason; not
    /// counted in the totals.
    pub left_out: LeftOut,
}

impl Summary {
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.skipped
    }

    pub fn judged(&self) -> usize {
        self.passed + self.failed
    }

    /// The closing line CI logs are read for, in the words of what it counts: `N passed, M
    /// failed` (`, K skipped`) for cases; `N submissions as expected, M not` (`, K not judged`)
    /// for submissions; `N packages ok, M not` (`, K skipped`) for packages.
    pub fn closing_line(&self) -> String {
        let (passed, failed) = (self.passed, self.failed);
        let (mut line, skipped) = match self.unit {
            Unit::Case => (format!("{passed} passed, {failed} failed"), "skipped"),
            Unit::Submission => (
                format!(
                    "{passed} {} as expected, {failed} not",
                    plural(passed, "submission")
                ),
                "not judged",
            ),
            Unit::Package => (
                format!("{passed} {} ok, {failed} not", plural(passed, "package")),
                "skipped",
            ),
            Unit::Mutant => (
                format!("{passed} killed, {failed} survived"),
                "stillborn, not judged or likely equivalent",
            ),
        };
        if self.skipped > 0 {
            line += &format!(", {} {skipped}", self.skipped);
        }
        line
    }
}

/// The lines saying what a program was not judged on and how to judge it, one per reason (none
/// when nothing was left out); every format says the same.
pub fn left_out_lines(left_out: &LeftOut) -> Vec<String> {
    let mut lines = vec![];
    let count = left_out.beyond_original_limits;
    if count > 0 {
        lines.push(format!(
            "{count} {} beyond the original limits left out (--extended to judge them)",
            plural(count, "case")
        ));
    }
    let count = left_out.invalid;
    if count > 0 {
        lines.push(format!(
            "{count} deliberately invalid {} left out (a filter naming an `invalid/` group \
             judges them)",
            plural(count, "case")
        ));
    }
    lines
}

/// `word`, or its plural (`word` + s) unless `count` is 1.
pub fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// `text` cut to at most `limit` bytes on a character boundary, with a note saying how much of
/// `what` was left out when it was cut: what a report keeps of a program's long output.
pub fn cut<'a>(text: &'a str, limit: usize, what: &str) -> std::borrow::Cow<'a, str> {
    if text.len() <= limit {
        return text.into();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let more = text.len() - end;
    format!("{}\n({what} truncated: {more} more bytes)\n", &text[..end]).into()
}

/// How long one case took, for the slow-case lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timing {
    pub case: String,
    pub verdict: Verdict,
    pub time: Duration,
    pub time_limit: Option<Duration>,
}

/// A consumer of a run's events (see [`Event`] for their order); it shows those it has a view
/// of and passes over the others.
pub trait Reporter {
    /// An error means the report cannot be written (stdout closed or full, a report file
    /// refused): a lost report makes the run meaningless for CI, so the dispatcher stops the
    /// run and it exits 2.
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError>;
}

/// A report that could not be written: the run's error.
#[derive(Debug)]
pub enum ReportError {
    /// Standard output would not take it.
    Lost(LostReport),
    /// The JUnit report (at its path) could not be made or written.
    Junit { path: PathBuf, error: JunitError },
    /// The HTML report (at its path) could not be written.
    Html {
        path: PathBuf,
        error: DestinationError,
    },
}

/// Why the JUnit report was not written.
#[derive(Debug, thiserror::Error)]
pub enum JunitError {
    #[error("cannot serialize the JUnit report: {0}")]
    Serialize(#[source] quick_junit::SerializeError),
    #[error(transparent)]
    Write(DestinationError),
}

impl ReportError {
    /// The report standard output would not take, when that is why (the JUnit report too may
    /// go there).
    pub fn lost(&self) -> Option<&LostReport> {
        match self {
            ReportError::Lost(lost) => Some(lost),
            ReportError::Junit {
                error: JunitError::Write(error),
                ..
            } => error.lost(),
            ReportError::Html { error, .. } => error.lost(),
            ReportError::Junit { .. } => None,
        }
    }
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReportError::Lost(lost) => lost.fmt(f),
            ReportError::Junit {
                error: error @ JunitError::Serialize(_),
                ..
            } => error.fmt(f),
            ReportError::Junit { path, error } => write!(
                f,
                "cannot write the JUnit report `{}`: {error}",
                path.display()
            ),
            ReportError::Html { path, error } => write!(
                f,
                "cannot write the HTML report `{}`: {error}",
                path.display()
            ),
        }
    }
}

impl From<LostReport> for ReportError {
    fn from(lost: LostReport) -> Self {
        ReportError::Lost(lost)
    }
}

/// What a run's reports look like; built from the command line and the settings.
pub struct ReportOptions {
    pub format: Format,
    pub color: bool,
    pub verbosity: Verbosity,
    /// `--junit FILE` (and `--follow-report-links`).
    pub junit: Option<Destination>,
    /// `--html FILE` (and `--follow-report-links`).
    pub html: Option<Destination>,
    /// `--slowest N`.
    pub slowest: Option<usize>,
}

/// Every reporter the options ask for, behind one [`Reporter`].
pub fn reporter(options: ReportOptions) -> Box<dyn Reporter> {
    let stdout = std::io::stdout();
    let mut out: Box<dyn Reporter> = match options.format {
        Format::Human => Box::new(HumanReporter::new(
            stdout,
            options.color,
            options.verbosity,
            fit::terminal_width(FIXED_WIDTH),
        )),
        Format::Json => Box::new(JsonReporter::new(stdout)),
    };
    if options.format == Format::Human
        && options.verbosity > Verbosity::Quiet
        && progress::on_a_terminal()
    {
        out = Box::new(ProgressReporter::new(out, options.color));
    }
    let mut sinks = vec![out, Box::new(notes::Notes::new(std::io::stderr()))];
    if let Some(path) = options.junit {
        sinks.push(Box::new(JunitReporter::new(path)));
    }
    if let Some(path) = options.html {
        sinks.push(Box::new(HtmlReporter::new(path)));
    }
    Box::new(Reports {
        sinks,
        slow: Vec::new(),
        slowest: options.slowest.map(Slowest::new),
        time_limits: BTreeMap::new(),
        peak_memory_bytes: None,
    })
}

/// Fans the events out to every sink and fills in the summary's timing lists. Only the timings
/// those lists can show are kept, so a suite of millions of cases costs no memory per case.
struct Reports {
    sinks: Vec<Box<dyn Reporter>>,
    /// Every passing case over half its time limit.
    slow: Vec<Timing>,
    /// Under `--slowest N`.
    slowest: Option<Slowest>,
    /// `check`'s time limit of each problem, as its run's start says.
    time_limits: BTreeMap<String, Duration>,
    peak_memory_bytes: Option<u64>,
}

/// The N slowest timings seen so far (and at most N more, sorted away in batches).
struct Slowest {
    n: usize,
    kept: Vec<Timing>,
}

impl Slowest {
    fn new(n: usize) -> Self {
        Slowest {
            n,
            kept: Vec::new(),
        }
    }

    fn add(&mut self, timing: &Timing) {
        self.kept.push(timing.clone());
        // `--slowest` may ask for any number of cases: twice it must not overflow.
        if self.kept.len() > self.n.max(16).saturating_mul(2) {
            self.kept = slowest_cases(&self.kept, self.n);
        }
    }
}

impl Reports {
    /// Keeps what the timing lists and the peak memory need of a judged case.
    fn time(&mut self, result: &CaseResult) {
        let timing = Timing {
            case: result.case.id.clone(),
            verdict: result.verdict,
            time: result.time,
            time_limit: self.time_limits.get(&result.case.problem).copied(),
        };
        if let Some(slowest) = &mut self.slowest {
            slowest.add(&timing);
        }
        if is_slow(&timing) {
            self.slow.push(timing);
        }
        self.peak_memory_bytes = self.peak_memory_bytes.max(result.peak_memory_bytes);
    }

    /// The summary with the timing lists and the peak memory filled in.
    fn completed(&self, summary: &Summary) -> Summary {
        let mut summary = summary.clone();
        summary.peak_memory_bytes = self.peak_memory_bytes;
        summary.slow = slowest_first(self.slow.clone());
        summary.slowest = self
            .slowest
            .as_ref()
            .map(|s| slowest_cases(&s.kept, s.n))
            .unwrap_or_default();
        summary
    }
}

impl Reporter for Reports {
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
        let (summary, completed);
        let event = match event {
            Event::RunStarted(RunKind::Check { time_limits, .. }) => {
                self.time_limits.clone_from(time_limits);
                event
            }
            Event::Finished(Finished {
                detail: Detail::Case(result),
                ..
            }) => {
                self.time(result);
                event
            }
            Event::RunFinished(given) => {
                summary = self.completed(given);
                completed = Event::RunFinished(&summary);
                &completed
            }
            _ => event,
        };
        // Every sink sees every event even when one fails: the summary is still printed when
        // the JUnit file cannot be written.
        let mut outcome = Ok(());
        for sink in &mut self.sinks {
            let reported = sink.report(event);
            if outcome.is_ok() {
                outcome = reported;
            }
        }
        outcome
    }
}

/// A case over half its time limit that is not TLE already: one close to becoming TLE on a
/// slower machine (CI runners are often slower than a laptop).
fn is_slow(timing: &Timing) -> bool {
    timing.verdict != Verdict::TLE
        && timing
            .time_limit
            .is_some_and(|limit| timing.time * 2 > limit)
}

/// The `n` slowest cases, slowest first; ties in case order.
fn slowest_cases(timings: &[Timing], n: usize) -> Vec<Timing> {
    let mut all = slowest_first(timings.to_vec());
    all.truncate(n);
    all
}

fn slowest_first(mut timings: Vec<Timing>) -> Vec<Timing> {
    timings.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.case.cmp(&b.case)));
    timings
}

/// A report that could not be written to stdout (closed, full, a broken pipe): the run's error.
/// A broken pipe (the reader went away, as `| head` does) ends grundy quietly with
/// [`BROKEN_PIPE_EXIT`]; any other is exit 2 with its message (`main` decides). Not an error
/// type of its own, so it cannot be folded into an `anyhow::Error` on the way up: every caller
/// passes it on typed.
#[derive(Debug)]
pub struct LostReport(std::io::Error);

impl LostReport {
    /// Whether the reader of stdout went away.
    pub fn is_broken_pipe(&self) -> bool {
        self.0.kind() == std::io::ErrorKind::BrokenPipe
    }
}

impl std::fmt::Display for LostReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write the report to standard output: {}", self.0)
    }
}

/// The exit status of a run whose stdout reader went away: 128 + SIGPIPE, what a Unix tool
/// killed by SIGPIPE gives, so `set -o pipefail` never takes a cut-short run for a passed one.
pub const BROKEN_PIPE_EXIT: u8 = 141;

impl From<std::io::Error> for LostReport {
    fn from(error: std::io::Error) -> Self {
        LostReport(error)
    }
}

/// Writes `text` to stdout and flushes it; a report that cannot be written is an error (exit 2),
/// never a panic or a silent success.
pub fn print(text: &str) -> Result<(), LostReport> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(LostReport)
}

/// The report of `list`: `problems` in `format`, the fixtures root `fixtures` under the table.
pub fn list_report(
    problems: &[listed::Listed],
    fixtures: &std::path::Path,
    format: Format,
) -> String {
    match format {
        Format::Json => json::listed(problems),
        Format::Human => human::list::table(problems, fixtures),
    }
}

/// The report of `list --cases`: the ids of `cases`, each with its problem, in `format`.
pub fn list_cases(cases: &[(&str, &str)], format: Format) -> String {
    match format {
        Format::Json => json::listed_cases(cases),
        Format::Human => human::list::cases(cases),
    }
}

/// Milliseconds with a fraction, for reports.
pub fn millis(time: Duration) -> f64 {
    (time.as_secs_f64() * 1e6).round() / 1e3
}

/// `1.5s`, `0.25s`: seconds to the millisecond, for `verify`'s reports.
pub fn seconds(time: Duration) -> String {
    format!("{}s", (time.as_secs_f64() * 1000.0).round() / 1000.0)
}

/// `12.3 MiB`, for peak memory.
pub fn mebibytes(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

#[cfg(test)]
#[path = "reporting_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "listed_tests.rs"]
mod listed_tests;
