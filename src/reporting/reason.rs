//! Why a submission was likely not judged as its package expects, as data: the kind of reason
//! (`Kind`, the JSON's `reason.kind`), its one line (`Display`, the human report's "likely
//! because"), and the evidence `verify --explain` and the JSON show. Made by
//! `verification::explain`, rendered by the reporters.

use std::fmt;
use std::time::Duration;

use super::seconds;
use crate::escape::visible_line;
use crate::judging::Verdict;
use crate::model::{How, TimeLimit};
use crate::package::languages::Python3;

/// The kind of a reason, by what it blames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Python 3 ran under CPython where the contest systems run PyPy (here, or in the accepted
    /// run the time limit was computed from), or the reverse.
    Interpreter,
    /// The tool its language needs is not installed.
    MissingTool,
    /// The build decided otherwise: a compile error not expected, or a build that passed where
    /// a compile error was expected.
    Compile,
    /// The output validator rejected an output.
    Checker,
    /// A run near the time limit, on the wrong side of it.
    TimeLimit,
    /// A run just over the time limit that had under half a core: the machine's load.
    BusyMachine,
    Memory,
    /// A crash the way a stack overflow ends, or a run-time error expected of a run that went on.
    Stack,
    OutputLimit,
    /// Wall-clock time against CPU time: grundy's limit is CPU time, its wall clock a backstop.
    WallBackstop,
    /// The box ended what a contest system's sandbox lets run on (too many processes).
    Sandbox,
    /// It ended itself with a non-zero exit status where no run-time error was due: a program
    /// that checks the judge's machine does so where that machine is not the contest system's.
    ExitStatus,
    Unknown,
}

impl Kind {
    const ALL: [Kind; 13] = [
        Kind::Interpreter,
        Kind::MissingTool,
        Kind::Compile,
        Kind::Checker,
        Kind::TimeLimit,
        Kind::BusyMachine,
        Kind::Memory,
        Kind::Stack,
        Kind::OutputLimit,
        Kind::WallBackstop,
        Kind::Sandbox,
        Kind::ExitStatus,
        Kind::Unknown,
    ];

    /// The kind the JSON names `name`, for a report read back.
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The kind as the JSON names it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Interpreter => "interpreter",
            Kind::MissingTool => "missing_tool",
            Kind::Compile => "compile",
            Kind::Checker => "checker",
            Kind::TimeLimit => "time_limit",
            Kind::BusyMachine => "busy_machine",
            Kind::Memory => "memory",
            Kind::Stack => "stack",
            Kind::OutputLimit => "output_limit",
            Kind::WallBackstop => "wall_backstop",
            Kind::Sandbox => "sandbox",
            Kind::ExitStatus => "exit_status",
            Kind::Unknown => "unknown",
        }
    }
}

/// The accepted run a computed time limit came from: its submission, case, time and tool.
#[derive(Clone, Debug, PartialEq)]
pub struct LimitRun {
    pub submission: String,
    pub case: String,
    pub time: Duration,
    pub tool: Option<String>,
    /// It ran under CPython.
    pub cpython: bool,
}

/// What a reason is drawn from: the case it looked at and that run's measures, the time limit
/// and how it came about, the checker's or the run's message, the tool.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evidence {
    pub case: Option<String>,
    pub verdict: Option<Verdict>,
    pub cpu: Option<Duration>,
    pub wall: Option<Duration>,
    pub peak_memory_bytes: Option<u64>,
    pub message: Option<String>,
    pub time_limit: Option<TimeLimit>,
    /// Where the limit is computed: the accepted run it came from, when judged in this run.
    pub limit_from: Option<LimitRun>,
    /// The tool that built or ran it, and its version.
    pub tool: Option<String>,
    /// The interpreter a Python 3 submission ran under.
    pub interpreter: Option<Python3>,
}

/// Why a submission was likely not as expected.
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    pub kind: Kind,
    /// Whether it, rather than the run the limit came from, ran under the other interpreter
    /// (`Interpreter`); whether it must end with a run-time error and did not (`Stack`).
    pub own: bool,
    pub evidence: Evidence,
}

impl Reason {
    /// The evidence, one `label: value` a line, for `verify --explain`.
    pub fn evidence_lines(&self) -> Vec<String> {
        let e = &self.evidence;
        let mut lines = vec![];
        if let Some(case) = &e.case {
            let verdict = e.verdict.map(|v| format!(" ({v})")).unwrap_or_default();
            lines.push(format!("case: {}{verdict}", visible_line(case)));
        }
        if let (Some(cpu), Some(wall)) = (e.cpu, e.wall) {
            // A run that ended well may have no peak measured (it reads 0): left out then.
            let memory = match e.peak_memory_bytes.filter(|bytes| *bytes > 0) {
                Some(bytes) => format!(", peak memory {:.1} MiB", bytes as f64 / 1048576.0),
                None => String::new(),
            };
            lines.push(format!(
                "run: {} CPU, {} wall{memory}",
                seconds(cpu),
                seconds(wall)
            ));
        }
        if let Some(limit) = &e.time_limit {
            lines.push(format!("time limit: {limit}"));
        }
        if let Some(from) = &e.limit_from {
            lines.push(format!("limit from: {}", from_run(from)));
        }
        if let Some(message) = &e.message {
            lines.push(format!("message: {}", visible_line(message)));
        }
        if let Some(tool) = &e.tool {
            lines.push(format!("tool: {}", visible_line(tool)));
        }
        lines
    }
}

/// `accepted/slow.py on secret/2: 0.9s (python3: Python 3.11.2)`.
fn from_run(run: &LimitRun) -> String {
    let tool = run
        .tool
        .as_deref()
        .map(|t| format!(" ({})", visible_line(t)))
        .unwrap_or_default();
    format!(
        "{} on {}: {}{tool}",
        visible_line(&run.submission),
        visible_line(&run.case),
        seconds(run.time)
    )
}

/// `2.1s of 2s (105%)`: a time against the limit.
fn against(time: Duration, limit: &TimeLimit) -> String {
    match limit.limit {
        Ok(limit) if !limit.is_zero() => format!(
            "{} of the {} limit ({:.0}%)",
            seconds(time),
            seconds(limit),
            time.as_secs_f64() / limit.as_secs_f64() * 100.0
        ),
        _ => seconds(time),
    }
}

/// Where the limit comes from, in a few words.
fn limit_source(e: &Evidence) -> String {
    match (e.time_limit.as_ref().map(|l| l.how), &e.limit_from) {
        (Some(How::Fixed(source)), _) => format!("fixed by {source}"),
        (_, Some(from)) => format!(
            "computed from {} on {}",
            visible_line(&from.submission),
            visible_line(&from.case)
        ),
        _ => "computed from the accepted runs".into(),
    }
}

/// The one "likely because" line.
impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.evidence;
        let case = e.case.as_deref().map(visible_line).unwrap_or_default();
        let time = e.cpu.unwrap_or_default();
        let limit = e.time_limit.as_ref();
        match self.kind {
            Kind::Interpreter if self.own => match e.interpreter {
                Some(Python3::PyPy) => f.write_str(
                    "it ran under PyPy; a contest system running Python 3 under CPython is \
                     several times slower (`--python3 cpython`)",
                ),
                _ => f.write_str(
                    "it ran under CPython; problemtools, BAPCtools and Kattis run Python 3 \
                     under PyPy, often several times faster (install pypy3, or `--python3 pypy3`)",
                ),
            },
            Kind::Interpreter => write!(
                f,
                "the time limit was computed from {} run under CPython; under PyPy, as \
                 problemtools, BAPCtools and Kattis run it, the limit would likely be lower",
                e.limit_from
                    .as_ref()
                    .map_or("an accepted submission".into(), from_run)
            ),
            Kind::MissingTool => f.write_str("the tool its language needs is not installed"),
            Kind::Compile if e.verdict.is_none() && e.message.is_none() => f.write_str(
                "its build passed; the contest system's build may check more (DOMjudge checks \
                 the syntax of every source file of a script)",
            ),
            Kind::Compile => write!(
                f,
                "the build failed: {}",
                e.message.as_deref().map(visible_line).unwrap_or_default()
            ),
            Kind::Checker if e.verdict == Some(Verdict::AC) => f.write_str(
                "the output validator accepted its output on every judged case: the data may \
                 not hold a case that catches it",
            ),
            Kind::Checker => write!(
                f,
                "the output validator rejected {case}: {}",
                e.message.as_deref().map(visible_line).unwrap_or_default()
            ),
            Kind::TimeLimit => match (e.verdict, limit) {
                (Some(Verdict::TLE), Some(limit)) => write!(
                    f,
                    "{case} ran {}, {}",
                    against(time, limit),
                    limit_source(e)
                ),
                (_, Some(limit)) => write!(
                    f,
                    "its slowest run, {case}, is {}, {}, and it must exceed it",
                    against(time, limit),
                    limit_source(e)
                ),
                _ => write!(f, "{case} ran {}", seconds(time)),
            },
            Kind::BusyMachine => write!(
                f,
                "{case} ran {} in {} of wall time: it had under half a core, and on a machine \
                 that busy CPU time runs slower too (shared cores and caches); judge it again on \
                 a quieter machine",
                limit.map_or_else(|| seconds(time), |limit| against(time, limit)),
                seconds(e.wall.unwrap_or_default())
            ),
            Kind::Memory => write!(
                f,
                "{case} went over the memory limit{}",
                e.peak_memory_bytes
                    .map(|b| format!(" (peak {} MiB)", b >> 20))
                    .unwrap_or_default()
            ),
            Kind::Stack if self.own => write!(
                f,
                "it must end with a run-time error but ran {} on {case}: a deep recursion that a \
                 smaller stack limit would end",
                seconds(time)
            ),
            Kind::Stack => write!(
                f,
                "{case} was killed by SIGSEGV, the way a stack overflow ends: a deep recursion \
                 for the stack limit"
            ),
            Kind::OutputLimit => write!(
                f,
                "{case} was ended at the output limit; DOMjudge truncates the output there and \
                 lets the program run on"
            ),
            Kind::WallBackstop => write!(
                f,
                "{case} took {} of wall time but {} of CPU: grundy's limit is CPU time (the \
                 wall clock a backstop), where a wall-clock limit equal to the time limit ends it",
                seconds(e.wall.unwrap_or_default()),
                seconds(time)
            ),
            Kind::Sandbox => write!(
                f,
                "{case} was ended for starting too many processes; a contest system's process \
                 limit makes fork fail and lets it run on"
            ),
            Kind::ExitStatus => write!(
                f,
                "{case} {} where no run-time error was expected: it ended itself, as a program \
                 that checks the judge's machine (a file, a permission, CPU pinning, a read-only \
                 working folder) does where that machine is not the contest system's",
                e.message.as_deref().map(visible_line).unwrap_or_default()
            ),
            Kind::Unknown if e.verdict == Some(Verdict::AC) => f.write_str(
                "every run ended well where a run-time error was expected: what fails elsewhere \
                 (undefined behaviour, a probe of the judge's machine) did not fail here",
            ),
            Kind::Unknown => f.write_str("no likelier reason found (see --explain)"),
        }
    }
}
