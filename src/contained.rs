//! Every run of a program in the sandbox is asked for here ([`Contained`]): the program, the
//! limits it runs under (a judged program's, a judge's, a compiler's, a generator's, a
//! validator's: [`crate::limits::Limits`] made into the sandbox's), its stdin and stdout, the
//! variables judged programs get (`--env`), the files placed in its working folder and those read
//! back or copied out after it, and the token that cancels it. Nothing else in grundy makes a
//! sandbox [`Spec`], so every run is contained the same way; what a run's end means is its
//! caller's (a [`crate::running::Run`], a judge's verdict, a build).

use std::ffi::OsString;
use std::path::PathBuf;

use grundy_sandbox::{BoxFile, Cancel, Limits, Outcome, Program, SpawnError, Spec, Stdin, Stdout};

/// One run to make, built up from the program and its limits: stdin empty and stdout captured
/// unless set.
#[must_use = "a run is made only by `run`"]
pub struct Contained<'a> {
    program: &'a Program,
    limits: Limits,
    env: &'a [(OsString, OsString)],
    stdin: Stdin,
    stdout: Stdout,
    files: Vec<BoxFile>,
    collect: Vec<PathBuf>,
    export: Vec<(PathBuf, PathBuf)>,
    cancel: Option<Cancel>,
}

impl<'a> Contained<'a> {
    /// `program` under `limits` (see [`crate::limits::Limits::program`] and
    /// [`crate::limits::Limits::judge`]).
    pub fn new(program: &'a Program, limits: Limits) -> Contained<'a> {
        Contained {
            program,
            limits,
            env: &[],
            stdin: Stdin::Null,
            stdout: Stdout::Capture,
            files: Vec::new(),
            collect: Vec::new(),
            export: Vec::new(),
            cancel: None,
        }
    }

    pub fn stdin(self, stdin: Stdin) -> Contained<'a> {
        Contained { stdin, ..self }
    }

    pub fn stdout(self, stdout: Stdout) -> Contained<'a> {
        Contained { stdout, ..self }
    }

    /// Variables the program gets besides PATH, HOME and LANG.
    pub fn env(self, env: &'a [(OsString, OsString)]) -> Contained<'a> {
        Contained { env, ..self }
    }

    /// Files placed in its working folder before it starts.
    pub fn files(self, files: Vec<BoxFile>) -> Contained<'a> {
        Contained { files, ..self }
    }

    /// Files of its working folder read back after it (into [`Outcome::collected`]).
    pub fn collect(self, collect: Vec<PathBuf>) -> Contained<'a> {
        Contained { collect, ..self }
    }

    /// Files or folders of its working folder copied out to host paths after it.
    pub fn export(self, export: Vec<(PathBuf, PathBuf)>) -> Contained<'a> {
        Contained { export, ..self }
    }

    pub fn cancel(self, cancel: Cancel) -> Contained<'a> {
        Contained {
            cancel: Some(cancel),
            ..self
        }
    }

    /// Runs it in the sandbox: how it ended, or why it could not start.
    pub fn run(self) -> Result<Outcome, SpawnError> {
        grundy_sandbox::run(Spec {
            program: self.program,
            stdin: self.stdin,
            stdout: self.stdout,
            limits: &self.limits,
            env: self.env,
            files: self.files,
            collect: self.collect,
            export: self.export,
            cancel: self.cancel,
        })
    }
}
