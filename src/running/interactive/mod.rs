//! Interactive runs: the program under test and the problem's judge, joined line by line. The
//! judge (a built-in problem's, or an interactor program) decides; the program's own end (its
//! exit, a crash, its time limit) is recorded with the moment it came, so the verdict can follow
//! the Kattis rule that the side that failed first decides (see `judging::judge_interactive`).
//!
//! This file holds what every pairing shares (the exchange transcript, the record of a run); the
//! pairings live beside it: built-in judge and player in memory, and those with processes.

mod interactor;
pub mod memory;
pub mod pipes;
pub mod processes;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use grundy_problems::{Decision, Link};

use super::run::{Failure, Run};
use crate::checking::Judgement;

/// Lines of the exchange kept for the report, and characters of each.
const TRANSCRIPT_LINES: usize = 20;
const TRANSCRIPT_LINE_CHARS: usize = 160;
/// The longest line a judge is handed; a longer one arrives cut (and will not parse).
pub const MAX_LINE: usize = 1 << 20;

/// The last lines of an exchange, both directions, oldest first.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    lines: VecDeque<(Direction, String)>,
    /// Lines that fell out of the window.
    earlier: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the judge to the program.
    ToProgram,
    /// From the program to the judge.
    FromProgram,
}

impl Transcript {
    pub fn record(&mut self, direction: Direction, line: &[u8]) {
        let text = String::from_utf8_lossy(line);
        let text = match text.char_indices().nth(TRANSCRIPT_LINE_CHARS) {
            Some((at, _)) => format!("{}… ({} more bytes)", &text[..at], text.len() - at),
            None => text.into_owned(),
        };
        self.lines.push_back((direction, text));
        if self.lines.len() > TRANSCRIPT_LINES {
            self.lines.pop_front();
            self.earlier += 1;
        }
    }

    /// `> judge to program` and `< program to judge` lines, with a first line saying how many
    /// earlier ones are left out; empty when nothing was exchanged.
    pub fn render(&self) -> String {
        let mut text = String::new();
        if self.earlier > 0 {
            text += &format!("({} earlier lines not shown)\n", self.earlier);
        }
        for (direction, line) in &self.lines {
            let mark = match direction {
                Direction::ToProgram => '>',
                Direction::FromProgram => '<',
            };
            text += &format!("{mark} {line}\n");
        }
        text
    }
}

/// What happened in one interactive run.
#[derive(Debug)]
pub struct InteractiveRun {
    /// The program's own run: its time, its failure (crash, limit), its stderr. Its output is the
    /// exchange, not kept here.
    pub program: Run,
    /// When the program ended (`None`: it did not end before it was stopped).
    pub program_ended: Option<Instant>,
    /// What the judge concluded, and when.
    pub judge: Judgement,
    pub judge_ended: Instant,
    /// The judge waited for the program past the program's time limit.
    pub program_silent_past_limit: bool,
    pub transcript: Transcript,
}

/// One side's end of an exchange that keeps the transcript: the judge's end (it reads what
/// comes from the program) or the built-in player's (it reads what goes to the program).
pub struct Recorded<L: Link> {
    pub inner: L,
    pub transcript: Arc<Mutex<Transcript>>,
    /// The direction of what this side reads.
    pub reads: Direction,
}

impl<L: Link> Link for Recorded<L> {
    fn read_line(&mut self) -> Option<Vec<u8>> {
        let line = self.inner.read_line();
        if let Some(line) = &line {
            lock(&self.transcript).record(self.reads, line);
        }
        line
    }

    fn write_line(&mut self, line: &[u8]) -> bool {
        let writes = match self.reads {
            Direction::FromProgram => Direction::ToProgram,
            Direction::ToProgram => Direction::FromProgram,
        };
        lock(&self.transcript).record(writes, line);
        self.inner.write_line(line)
    }
}

fn lock(transcript: &Mutex<Transcript>) -> std::sync::MutexGuard<'_, Transcript> {
    transcript.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a built-in judge's decision (or its panic) means for the case.
pub fn judgement_of(decision: Result<Decision, Failure>) -> Judgement {
    match decision {
        Ok(Decision::Accept) => Judgement::Accepted,
        Ok(Decision::Reject(message)) => Judgement::WrongAnswer(message),
        Ok(Decision::JudgeError(message)) => Judgement::JudgeError(message),
        Err(panic) => Judgement::JudgeError(format!("the built-in judge {panic}")),
    }
}

/// The transcript, once no side records into it any more.
pub fn take(transcript: Arc<Mutex<Transcript>>) -> Transcript {
    Arc::try_unwrap(transcript)
        .map(|t| t.into_inner().unwrap_or_else(|e| e.into_inner()))
        .unwrap_or_else(|shared| lock(&shared).clone())
}
