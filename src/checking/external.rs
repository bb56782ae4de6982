//! Checker programs of a problem's author, in the two protocols judges use:
//! - Kattis (`kattis:CMD`): `CMD <input> <answer> <feedback_dir> [args] < program_output`; exit
//!   42 accepts, 43 rejects, and `feedback_dir/judgemessage.txt` says why; in a multi-pass
//!   problem `feedback_dir` is the one the case's passes share ([`super::feedback`]);
//! - testlib (`testlib:CMD`): `CMD <input> <output> <answer> [args]`; exit 0 accepts, 1 is a wrong
//!   answer, 2 a presentation error, 3 the checker's own failure, 7 a partial score; the message
//!   is on its stdout/stderr.
//!
//! CMD is the whole command that starts the judge (`./check`, `python3 check.py`); the files
//! follow it, and `args` (a package's validator arguments) follow the files.
//!
//! Any other exit, a crash, or overrunning the checker's own limits is a judge error. The checker
//! runs contained like a judged program, in its own working folder, and gets the case's files
//! (and a multi-pass case's feedback folder) and nothing more; a 2025-09 output validator's
//! folder starts with a copy of the judged submission's files too, as that format says.

use std::ffi::OsString;
use std::fmt;
use std::path::Path;

use grundy_sandbox::{BoxFile, End, Limits, Outcome, Program, Stdin};

use super::feedback::Feedback;
use super::feedback::FeedbackError;
use super::judgement::{Judgement, NameError, Submitted};
use super::score::{self, ScoreFileError};
use crate::command_line::parse_command_in;
use crate::contained::Contained;

/// Which protocol an external judge (checker or interactor) speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Kattis,
    Testlib,
}

impl Protocol {
    /// `kattis:CMD` or `testlib:CMD` split into the protocol and CMD.
    pub fn split(text: &str) -> Option<(Protocol, &str)> {
        let (name, command) = text.split_once(':')?;
        let protocol = match name {
            "kattis" => Protocol::Kattis,
            "testlib" => Protocol::Testlib,
            _ => return None,
        };
        Some((protocol, command))
    }

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Kattis => "kattis",
            Protocol::Testlib => "testlib",
        }
    }
}

/// A checker or interactor program and its protocol.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalJudge {
    pub protocol: Protocol,
    /// The command (`./check`, `python3 check.py`), its relative paths made absolute; the
    /// protocol's files come after it.
    pub program: Program,
    /// Arguments after the protocol's files (a Kattis package's validator arguments).
    pub args: Vec<OsString>,
    /// `kattis:CMD` as written, or as [`ExternalJudge::named`] names it.
    text: String,
    /// Its working folder starts with the judged submission's files (a 2025-09 output
    /// validator's), when the run of one is judged.
    sees_submission: bool,
}

impl fmt::Display for ExternalJudge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Bytes of a checker's message kept.
const MESSAGE_BYTES: usize = 4096;

impl ExternalJudge {
    /// `CMD` of `protocol:CMD`, split like `--exec`, relative paths taken from `base`. The
    /// program must exist now: a checker that cannot start would fail every case.
    pub fn parse(protocol: Protocol, command: &str, base: &Path) -> Result<Self, NameError> {
        let text = format!("{}:{command}", protocol.name());
        let program = parse_command_in(command, base).map_err(|error| NameError::Command {
            judge: text.clone(),
            error,
        })?;
        crate::command_line::startable(&program).map_err(|reason| NameError::NotStartable {
            judge: text.clone(),
            reason,
        })?;
        Ok(ExternalJudge {
            protocol,
            program,
            args: Vec::new(),
            text,
            sees_submission: false,
        })
    }

    /// The same judge shown as `protocol:name` (a package's validator by its name in the
    /// package, not by its build in the cache).
    pub fn named(mut self, name: &str) -> Self {
        self.text = format!("{}:{name}", self.protocol.name());
        self
    }

    /// The same judge with `args` after the protocol's files.
    /// This judge, its working folder starting with the judged submission's files when `sees`.
    pub fn seeing_submission(mut self, sees: bool) -> Self {
        self.sees_submission = sees;
        self
    }

    pub fn with_args(mut self, args: impl IntoIterator<Item = impl Into<OsString>>) -> Self {
        self.args = args.into_iter().map(Into::into).collect();
        self
    }

    /// The judgement of this checker on `submitted`.
    pub fn check(&self, submitted: &Submitted<'_>, limits: &Limits) -> Judgement {
        match self.run_check(submitted, limits) {
            Ok(judgement) => judgement,
            Err(message) => Judgement::JudgeError(format!("the checker `{self}` {message}")),
        }
    }

    fn run_check(
        &self,
        submitted: &Submitted<'_>,
        limits: &Limits,
    ) -> Result<Judgement, JudgeFailure> {
        // The checker's files are placed in its own working folder, read-only; it writes only
        // in its feedback folder, read back after the run.
        let input = submitted
            .input
            .as_box_file(INPUT)
            .map_err(JudgeFailure::Input)?;
        let mut files = vec![input, BoxFile::bytes(ANSWER, submitted.expected)];
        let mut export = Vec::new();
        let (names, stdin) = match self.protocol {
            Protocol::Kattis => {
                files.push(feedback_folder(submitted.feedback, &mut export));
                let dir = format!("{FEEDBACK}/");
                (
                    [INPUT, ANSWER, dir.as_str()].map(OsString::from),
                    Stdin::Bytes(submitted.output.to_vec()),
                )
            }
            Protocol::Testlib => {
                files.push(BoxFile::bytes(OUTPUT, submitted.output));
                ([INPUT, OUTPUT, ANSWER].map(OsString::from), Stdin::Null)
            }
        };
        let mut program = self.with_files(names);
        if self.sees_submission {
            // The submission's files first, the protocol's placed after them: a submission's
            // file of the same name never stands for the case's.
            program.workdir_from = submitted.submission_files.map(Path::to_path_buf);
        }
        let collect = [JUDGE_MESSAGE, TEAM_MESSAGE, score::SCORE, score::MULTIPLIER]
            .map(|m| Path::new(FEEDBACK).join(m))
            .to_vec();
        let outcome = Contained::new(&program, limits.clone())
            .stdin(stdin)
            .files(files)
            .collect(collect)
            .export(export)
            .run()
            .map_err(JudgeFailure::NotStarted)?;
        judgement_of(
            self.protocol,
            Role::Checker,
            &outcome,
            limits,
            submitted.feedback,
        )
    }
}

/// Which judge of a problem ended: what a Kattis rejection without a message says it rejected.
#[derive(Clone, Copy, Debug)]
pub enum Role {
    Checker,
    Interactor,
}

/// What a judge's end means in its protocol, the one rule for checkers and interactors: Kattis
/// 42 accepts and 43 rejects (its feedback files say why; in a pass of a multi-pass case either
/// keeps `feedback` for the next pass); testlib 0 accepts, 1 is WA, 2 PE, 3 the judge's own
/// failure, and 7 (points, which pass-or-fail judging cannot give) WA. Any other status, or a
/// judge that did not exit, is a judge error.
pub fn judgement_of(
    protocol: Protocol,
    role: Role,
    outcome: &Outcome,
    limits: &Limits,
    feedback: Option<&Feedback>,
) -> Result<Judgement, JudgeFailure> {
    let exit = exit_status(&outcome.end, limits)?;
    if let (Protocol::Kattis, Some(feedback), 42 | 43) = (protocol, feedback, exit) {
        feedback.keep(outcome, exit)?;
    }
    let said = || message_of(&outcome.stdout, &outcome.stderr);
    match (protocol, exit) {
        (Protocol::Kattis, 42) => Ok(match kattis_score(outcome)? {
            Some(score) => Judgement::Scored(score),
            None => Judgement::Accepted,
        }),
        (Protocol::Testlib, 0) => Ok(Judgement::Accepted),
        (Protocol::Kattis, 43) => {
            match [score::SCORE, score::MULTIPLIER]
                .into_iter()
                .find(|file| collected(outcome, file).is_some())
            {
                Some(file) => Err(JudgeFailure::Score(ScoreFileError::OnRejection { file })),
                None => Ok(Judgement::WrongAnswer(kattis_feedback(outcome, role))),
            }
        }
        (Protocol::Testlib, 1) => Ok(Judgement::WrongAnswer(said())),
        (Protocol::Testlib, 2) => Ok(Judgement::PresentationError(said())),
        (Protocol::Testlib, 3) => Err(JudgeFailure::OwnFailure(said())),
        (Protocol::Testlib, 7) => Ok(Judgement::WrongAnswer(format!(
            "partially accepted (points): {}",
            said()
        ))),
        (protocol, code) => Err(JudgeFailure::UnknownStatus {
            protocol,
            code,
            said: said(),
        }),
    }
}

/// A Kattis judge's feedback folder: a fresh one, or the one the passes of a multi-pass case
/// share (then added to `export`, to be kept after the run).
pub fn feedback_folder(
    feedback: Option<&Feedback>,
    export: &mut Vec<(std::path::PathBuf, std::path::PathBuf)>,
) -> BoxFile {
    match feedback {
        None => BoxFile::writable_dir(FEEDBACK),
        Some(feedback) => {
            let (folder, back) = feedback.placed(FEEDBACK);
            export.push(back);
            folder
        }
    }
}

/// The files a checker gets in its working folder, and its feedback folder.
const INPUT: &str = "input";
const ANSWER: &str = "answer";
const OUTPUT: &str = "output";
pub const FEEDBACK: &str = "feedback";
const JUDGE_MESSAGE: &str = "judgemessage.txt";
const TEAM_MESSAGE: &str = "teammessage.txt";

impl ExternalJudge {
    /// The judge's command, then the protocol's `files`, then its extra arguments (what else the
    /// program needs, such as the folder it was built in, stays shown).
    pub fn with_files<const N: usize>(&self, files: [OsString; N]) -> Program {
        let mut program = self.program.clone();
        program.argv.extend(files);
        program.argv.extend(self.args.iter().cloned());
        program
    }
}

/// Why a checker or interactor program gave no verdict: a judge error. The message follows the
/// judge's name (`the checker `kattis:./check` was killed by signal SIGSEGV`).
#[derive(Debug, thiserror::Error)]
pub enum JudgeFailure {
    #[error("cannot be given the input: {0}")]
    Input(crate::files::beneath::OpenError),
    #[error("cannot be started: {0}")]
    NotStarted(grundy_sandbox::SpawnError),
    #[error("was killed by signal {0}")]
    Signaled(&'static str),
    #[error(
        "did not finish within its time limit of {} ms (judge_time_limit_ms){}",
        .0.as_millis(),
        match .1 {
            grundy_sandbox::Clock::Cpu => "",
            grundy_sandbox::Clock::Wall => ", stopped by the wall clock while waiting",
        }
    )]
    TimeLimit(std::time::Duration, grundy_sandbox::Clock),
    #[error("ran out of memory")]
    MemoryLimit,
    #[error("wrote more than its output limit")]
    OutputLimit,
    #[error("started too many processes")]
    ProcessLimit,
    #[error("was stopped")]
    Cancelled,
    /// What a Kattis judge left for a multi-pass case's next pass is unusable.
    #[error(transparent)]
    Feedback(#[from] FeedbackError),
    /// A score file it wrote cannot be used.
    #[error(transparent)]
    Score(ScoreFileError),
    /// testlib's exit 3, with what the checker said.
    #[error("reported its own failure: {0}")]
    OwnFailure(String),
    #[error(
        "exited with status {code}, which the {} protocol does not know ({}); it said: {said}",
        protocol.name(),
        match protocol {
            Protocol::Kattis => "42 accepts, 43 rejects",
            Protocol::Testlib => "0 accepts, 1 wrong answer, 2 presentation error, 3 failure, 7 points",
        }
    )]
    UnknownStatus {
        protocol: Protocol,
        code: i32,
        said: String,
    },
}

/// A judge's exit status, or why it did not exit normally (a judge error).
fn exit_status(end: &End, limits: &Limits) -> Result<i32, JudgeFailure> {
    match *end {
        End::Exited(code) => Ok(code),
        End::Signaled { name, .. } => Err(JudgeFailure::Signaled(name)),
        End::TimeLimit(clock) => Err(JudgeFailure::TimeLimit(limits.time, clock)),
        End::MemoryLimit => Err(JudgeFailure::MemoryLimit),
        End::OutputLimit => Err(JudgeFailure::OutputLimit),
        End::ProcessLimit => Err(JudgeFailure::ProcessLimit),
        End::Cancelled => Err(JudgeFailure::Cancelled),
    }
}

/// The bytes of the feedback file `name` the judge wrote, if it wrote it.
fn collected<'a>(outcome: &'a Outcome, name: &str) -> Option<&'a [u8]> {
    let path = Path::new(FEEDBACK).join(name);
    outcome
        .collected
        .iter()
        .find(|(collected, _)| *collected == path)
        .map(|(_, bytes)| bytes.as_slice())
}

/// The score file of a Kattis acceptance, if the judge wrote one.
fn kattis_score(outcome: &Outcome) -> Result<Option<score::ValidatorScore>, JudgeFailure> {
    score::read(
        collected(outcome, score::SCORE),
        collected(outcome, score::MULTIPLIER),
    )
    .map_err(JudgeFailure::Score)
}

/// `judgemessage.txt`, and `teammessage.txt` when there is one, for a Kattis rejection.
fn kattis_feedback(outcome: &Outcome, role: Role) -> String {
    let read = |name: &str| collected(outcome, name).map(clipped).unwrap_or_default();
    let (judge, team) = (read(JUDGE_MESSAGE), read(TEAM_MESSAGE));
    match (judge.is_empty(), team.is_empty()) {
        (true, true) => match role {
            Role::Checker => "the checker rejected the output (exit 43) without a message".into(),
            Role::Interactor => {
                "the interactor rejected the program (exit 43) without a message".into()
            }
        },
        (false, true) => judge,
        (true, false) => format!("team message: {team}"),
        (false, false) => format!("{judge} (team message: {team})"),
    }
}

/// What a testlib judge printed (stderr first, where testlib writes; an interactor's stdout is
/// the program's, never captured), or a note that it was silent.
fn message_of(stdout: &[u8], stderr: &[u8]) -> String {
    let text = [clipped(stderr), clipped(stdout)]
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" / ");
    if text.is_empty() {
        "(nothing)".into()
    } else {
        text
    }
}

/// The first [`MESSAGE_BYTES`] of a message, trimmed, lossy UTF-8.
fn clipped(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MESSAGE_BYTES)]);
    text.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(code: i32, stderr: &str, judge_message: Option<&str>) -> Outcome {
        Outcome {
            stdout: Vec::new(),
            stderr: stderr.as_bytes().to_vec(),
            wall_time: std::time::Duration::ZERO,
            ended_at: std::time::Instant::now(),
            cpu_time: std::time::Duration::ZERO,
            peak_memory_bytes: None,
            end: End::Exited(code),
            collected: judge_message
                .map(|m| {
                    (
                        Path::new(FEEDBACK).join(JUDGE_MESSAGE),
                        m.as_bytes().to_vec(),
                    )
                })
                .into_iter()
                .collect(),
            exported: Vec::new(),
            export_failures: Vec::new(),
        }
    }

    #[test]
    fn checkers_and_interactors_read_an_exit_status_alike() {
        let limits = crate::limits::Limits::default().judge();
        let judge = |protocol, role, outcome: Outcome| {
            judgement_of(protocol, role, &outcome, &limits, None).map_err(|e| e.to_string())
        };
        for role in [Role::Checker, Role::Interactor] {
            let kattis = |code, message| judge(Protocol::Kattis, role, ended(code, "", message));
            let testlib = |code| judge(Protocol::Testlib, role, ended(code, "line 3 ", None));
            assert_eq!(kattis(42, None), Ok(Judgement::Accepted));
            assert_eq!(
                kattis(43, Some("too big\n")),
                Ok(Judgement::WrongAnswer("too big".into()))
            );
            assert_eq!(testlib(0), Ok(Judgement::Accepted));
            assert_eq!(testlib(1), Ok(Judgement::WrongAnswer("line 3".into())));
            assert_eq!(
                testlib(2),
                Ok(Judgement::PresentationError("line 3".into()))
            );
            assert_eq!(
                testlib(7),
                Ok(Judgement::WrongAnswer(
                    "partially accepted (points): line 3".into()
                ))
            );
            assert_eq!(testlib(3), Err("reported its own failure: line 3".into()));
            assert_eq!(
                kattis(0, None),
                Err(
                    "exited with status 0, which the kattis protocol does not know (42 \
                     accepts, 43 rejects); it said: (nothing)"
                        .into()
                )
            );
        }
        assert_eq!(
            judge(Protocol::Kattis, Role::Interactor, ended(43, "", None)),
            Ok(Judgement::WrongAnswer(
                "the interactor rejected the program (exit 43) without a message".into()
            ))
        );
    }
}
