//! Checker programs of a problem's author, in the two protocols judges use:
//! - Kattis (`kattis:CMD`): `CMD <input> <answer> <feedback_dir> [args] < program_output`; exit
//!   42 accepts, 43 rejects, and `feedback_dir/judgemessage.txt` says why;
//! - testlib (`testlib:CMD`): `CMD <input> <output> <answer> [args]`; exit 0 accepts, 1 is a wrong
//!   answer, 2 a presentation error, 3 the checker's own failure, 7 a partial score; the message
//!   is on its stdout/stderr.
//!
//! Any other exit, a crash, or overrunning the checker's own limits is a judge error. The checker
//! runs contained like a judged program, in its own empty working folder, and gets the case's
//! files and nothing more.

use std::fmt;
use std::path::{Path, PathBuf};

use grundy_sandbox::{End, Limits, Program};

use super::{Judgement, Submitted};
use crate::running::{parse_command_in, Input};

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
#[derive(Clone, Debug)]
pub struct ExternalJudge {
    pub protocol: Protocol,
    /// The command with its relative paths made absolute; arguments after the program's own
    /// path are passed after the protocol's files.
    pub program: Program,
    /// `kattis:CMD` as written.
    text: String,
}

impl PartialEq for ExternalJudge {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
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
    pub fn parse(protocol: Protocol, command: &str, base: &Path) -> Result<Self, String> {
        let text = format!("{}:{command}", protocol.name());
        let program = parse_command_in(command, base).map_err(|e| format!("`{text}`: {e:#}"))?;
        crate::running::startable(&program).map_err(|e| format!("`{text}`: {e}"))?;
        Ok(ExternalJudge {
            protocol,
            program,
            text,
        })
    }

    /// The judgement of this checker on `submitted`.
    pub fn check(&self, submitted: &Submitted<'_>, limits: &Limits) -> Judgement {
        match self.run_check(submitted, limits) {
            Ok(judgement) => judgement,
            Err(message) => Judgement::JudgeError(format!("the checker `{self}` {message}")),
        }
    }

    fn run_check(&self, submitted: &Submitted<'_>, limits: &Limits) -> Result<Judgement, String> {
        let folder = tempfile::Builder::new()
            .prefix("grundy-check-")
            .tempdir()
            .map_err(|e| format!("could not be prepared: {e}"))?;
        let write = |name: &str, bytes: &[u8]| -> Result<PathBuf, String> {
            let path = folder.path().join(name);
            std::fs::write(&path, bytes).map_err(|e| format!("could not be prepared: {e}"))?;
            Ok(path)
        };
        let input = match submitted.input {
            // The checker runs in a folder of its own: a relative path would not reach the file.
            Input::File(path) => {
                std::path::absolute(path).map_err(|e| format!("could not be prepared: {e}"))?
            }
            Input::Bytes(bytes) => write("input", bytes)?,
        };
        let answer = write("answer", submitted.expected)?;
        let output = write("output", submitted.output)?;
        let feedback = folder.path().join("feedback");
        std::fs::create_dir(&feedback).map_err(|e| format!("could not be prepared: {e}"))?;
        let (files, stdin) = match self.protocol {
            Protocol::Kattis => ([input, answer, feedback.join("")], output),
            Protocol::Testlib => ([input, output, answer], write("empty", b"")?),
        };
        let mut argv = vec![self.program.argv[0].clone()];
        argv.extend(files.into_iter().map(Into::into));
        argv.extend(self.program.argv[1..].iter().cloned());
        let outcome = grundy_sandbox::run(&Program { argv }, &stdin, limits)
            .map_err(|e| format!("cannot be started: {e}"))?;
        let exit = match outcome.end {
            End::Exited(code) => code,
            End::Signaled { name, .. } => return Err(format!("was killed by signal {name}")),
            End::TimeLimit => {
                return Err(format!(
                    "did not finish within its time limit of {} ms (judge_time_limit_ms)",
                    limits.time.as_millis()
                ))
            }
            End::MemoryLimit => return Err("ran out of memory".into()),
            End::OutputLimit => return Err("wrote more than its output limit".into()),
            End::ProcessLimit => return Err("started too many processes".into()),
        };
        let said = || message_of(&outcome.stdout, &outcome.stderr);
        match (self.protocol, exit) {
            (Protocol::Kattis, 42) => Ok(Judgement::Accepted),
            (Protocol::Kattis, 43) => Ok(Judgement::WrongAnswer(kattis_feedback(&feedback))),
            (Protocol::Testlib, 0) => Ok(Judgement::Accepted),
            (Protocol::Testlib, 1) => Ok(Judgement::WrongAnswer(said())),
            (Protocol::Testlib, 2) => Ok(Judgement::PresentationError(said())),
            (Protocol::Testlib, 3) => Err(format!("reported its own failure: {}", said())),
            (Protocol::Testlib, 7) => Ok(Judgement::WrongAnswer(format!(
                "partially accepted (points): {}",
                said()
            ))),
            (protocol, code) => Err(format!(
                "exited with status {code}, which the {} protocol does not know ({}); it said: {}",
                protocol.name(),
                match protocol {
                    Protocol::Kattis => "42 accepts, 43 rejects",
                    Protocol::Testlib =>
                        "0 accepts, 1 wrong answer, 2 presentation error, 3 \
                                          failure, 7 points",
                },
                said()
            )),
        }
    }
}

/// `judgemessage.txt`, and `teammessage.txt` when there is one, for a Kattis rejection.
fn kattis_feedback(feedback: &Path) -> String {
    let read = |name: &str| {
        std::fs::read(feedback.join(name))
            .map(|bytes| clipped(&bytes))
            .unwrap_or_default()
    };
    let (judge, team) = (read("judgemessage.txt"), read("teammessage.txt"));
    match (judge.is_empty(), team.is_empty()) {
        (true, true) => "the checker rejected the output (exit 43) without a message".into(),
        (false, true) => judge,
        (true, false) => format!("team message: {team}"),
        (false, false) => format!("{judge} (team message: {team})"),
    }
}

/// What a testlib checker printed (stderr first, where testlib writes), or a note that it was
/// silent.
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
