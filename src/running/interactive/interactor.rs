//! An interactor program's side of its protocol (Kattis or testlib): the files it is given and
//! where it writes (and [`Files`], a run's files, which the program's side uses too), how long
//! it may outlive the program, and what its end says of the program. Starting it, relaying its exchange
//! with the program and the deadlines are [`super::processes`]'.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use grundy_sandbox::{BoxFile, End, Limits, Outcome, Program};

use crate::checking::external::{feedback_folder, FEEDBACK};
use crate::checking::external::{judgement_of, Role};
use crate::checking::score;
use crate::checking::{ExternalJudge, Feedback, Judgement, Protocol};
use crate::run_input::Input;
use crate::running::run::Run;

/// How long an interactor may take to end once the program has ended.
pub(super) const INTERACTOR_GRACE: Duration = Duration::from_secs(2);

/// The files of a run: placed in its working folder before it, read back and copied out after.
#[derive(Default)]
pub(super) struct Files {
    pub placed: Vec<BoxFile>,
    pub collect: Vec<PathBuf>,
    pub export: Vec<(PathBuf, PathBuf)>,
}

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
            files.collect = ["judgemessage.txt", score::SCORE, score::MULTIPLIER]
                .map(|name| Path::new(FEEDBACK).join(name))
                .to_vec();
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

/// What an interactor's end says: by its protocol, as a checker's ([`judgement_of`]), except
/// that an interactor killed by SIGPIPE after the program ended is not at fault (the program
/// left the exchange before it was over) and one that outlived the program's end by
/// [`INTERACTOR_GRACE`] was stopped by grundy.
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
    judgement_of(
        interactor.protocol,
        Role::Interactor,
        outcome,
        limits,
        feedback,
    )
    .unwrap_or_else(|why| Judgement::JudgeError(format!("the interactor `{interactor}` {why}")))
}
