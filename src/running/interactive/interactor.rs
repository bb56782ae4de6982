//! An interactor program's side of its protocol (Kattis or testlib): the files it is given and
//! where it writes, and what its end says of the program. Starting it, relaying its exchange
//! with the program and the deadlines are [`super::processes`]'.

use std::ffi::OsString;
use std::path::Path;
use std::time::Instant;

use grundy_sandbox::{BoxFile, End, Limits, Outcome, Program};

use super::processes::{Files, INTERACTOR_GRACE};
use crate::checking::external::{feedback_folder, FEEDBACK};
use crate::checking::{exit_status, ExternalJudge, Feedback, Judgement, Protocol};
use crate::running::{Input, Run};

/// Where a testlib interactor writes its output file, which a checker then judges.
pub(super) const TESTLIB_OUTPUT: &str = "out/output";

/// The interactor's command with its protocol's files, and its files: placed in its working
/// folder (the feedback folder a multi-pass case's passes share, when there is one), read back
/// and copied out.
pub(super) fn interactor_files(
    interactor: &ExternalJudge,
    input: Input<'_>,
    answer: &[u8],
    feedback: Option<&Feedback>,
) -> std::io::Result<(Program, Files)> {
    let input = input.as_box_file("input")?;
    let mut files = Files {
        placed: vec![input, BoxFile::bytes("answer", answer)],
        ..Files::default()
    };
    let names = match interactor.protocol {
        Protocol::Kattis => {
            files
                .placed
                .push(feedback_folder(feedback, &mut files.export));
            files.collect = vec![Path::new(FEEDBACK).join("judgemessage.txt")];
            ["input", "answer", "feedback/"]
        }
        Protocol::Testlib => {
            files.placed.push(BoxFile::writable_dir("out"));
            files.collect = vec![TESTLIB_OUTPUT.into()];
            ["input", TESTLIB_OUTPUT, "answer"]
        }
    };
    Ok((interactor.with_files(names.map(OsString::from)), files))
}

/// What an interactor's end says, by its protocol. An interactor killed by SIGPIPE after the
/// program ended is not at fault: the program left the exchange before it was over. A Kattis
/// interactor's verdict in a pass of a multi-pass case also keeps its feedback folder for the
/// next pass.
pub(super) fn interactor_judgement(
    interactor: &ExternalJudge,
    outcome: &Outcome,
    (limits, feedback): (&Limits, Option<&Feedback>),
    program: &(Run, Option<Instant>),
) -> Judgement {
    let program_left_first = program.1.is_some_and(|ended| ended <= outcome.ended_at);
    let broken_pipe = matches!(
        outcome.end,
        End::Signaled {
            name: "SIGPIPE",
            ..
        }
    );
    if broken_pipe && program_left_first {
        return Judgement::WrongAnswer("the program ended before the interaction was over".into());
    }
    if outcome.end == End::Cancelled {
        return Judgement::JudgeError(format!(
            "the interactor `{interactor}` did not end within {} s of the program",
            INTERACTOR_GRACE.as_secs()
        ));
    }
    let exit = match exit_status(&outcome.end, limits) {
        Ok(code) => code,
        Err(why) => return Judgement::JudgeError(format!("the interactor `{interactor}` {why}")),
    };
    let said = || {
        let stderr = String::from_utf8_lossy(&outcome.stderr).trim().to_string();
        if stderr.is_empty() {
            "(nothing)".to_string()
        } else {
            stderr
        }
    };
    let judge_message = || {
        outcome
            .collected
            .iter()
            .find(|(path, _)| path.ends_with("judgemessage.txt"))
            .map(|(_, bytes)| String::from_utf8_lossy(bytes).trim().to_string())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "the interactor rejected the program (exit 43)".into())
    };
    if let (Protocol::Kattis, Some(feedback), 42 | 43) = (interactor.protocol, feedback, exit) {
        if let Err(why) = feedback.keep(outcome, exit) {
            return Judgement::JudgeError(format!("the interactor `{interactor}` {why}"));
        }
    }
    match (interactor.protocol, exit) {
        (Protocol::Kattis, 42) | (Protocol::Testlib, 0) => Judgement::Accepted,
        (Protocol::Kattis, 43) => Judgement::WrongAnswer(judge_message()),
        (Protocol::Testlib, 1 | 7) => Judgement::WrongAnswer(said()),
        (Protocol::Testlib, 2) => Judgement::PresentationError(said()),
        (Protocol::Testlib, 3) => Judgement::JudgeError(format!(
            "the interactor `{interactor}` reported its own failure: {}",
            said()
        )),
        (protocol, code) => Judgement::JudgeError(format!(
            "the interactor `{interactor}` exited with status {code}, which the {} protocol does \
             not know as a verdict; it said: {}",
            protocol.name(),
            said()
        )),
    }
}
