//! Interactive runs: the program under test and the problem's judge, joined line by line. The
//! judge (a built-in problem's, or an interactor program) decides; the program's own end (its
//! exit, a crash, its time limit) is recorded with the moment it came, so the verdict can follow
//! the Kattis rule that the side that failed first decides (see `judging::judge_interactive`).
//!
//! This file holds what every pairing shares (the exchange transcript, the record of a run) and
//! the in-memory pairing of a built-in judge with the built-in player; the pairings with
//! processes live beside it.

pub mod pipes;
pub mod processes;

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use grundy_problems::{Decision, Interaction, Link};

use super::in_process::{catching_panics, SolveWatch, SOLVER_STACK};
use super::{Failure, Run};
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

/// One side of an in-memory exchange between two built-in sides.
struct MemoryLink {
    incoming: Receiver<Vec<u8>>,
    outgoing: Sender<Vec<u8>>,
    deadline: Instant,
    /// Set when a read gave up at the deadline.
    timed_out: Arc<Mutex<bool>>,
}

impl Link for MemoryLink {
    fn read_line(&mut self) -> Option<Vec<u8>> {
        let wait = self.deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(wait) {
            Ok(mut line) => {
                line.truncate(MAX_LINE);
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => {
                *self.timed_out.lock().unwrap_or_else(|e| e.into_inner()) = true;
                None
            }
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    fn write_line(&mut self, line: &[u8]) -> bool {
        self.outgoing.send(line.to_vec()).is_ok()
    }
}

/// The built-in judge of `interaction` against its built-in player, in memory: the player on a
/// thread of its own, the judge on this one (a pool worker, watched through `watch` for
/// `time_limit + judge_time` in case the judge itself never returns).
pub fn built_in_pair(
    interaction: Interaction,
    input: &[u8],
    answer: &[u8],
    time_limit: Duration,
    judge_time: Duration,
    watch: Option<&SolveWatch>,
) -> InteractiveRun {
    let started = Instant::now();
    let deadline = started + time_limit;
    let (to_player, player_in) = mpsc::channel();
    let (to_judge, judge_in) = mpsc::channel();
    let judge_timed_out = Arc::new(Mutex::new(false));
    // Only the judge's side keeps the time: the program is too slow when the judge waits for it
    // past the limit.
    let player_link = MemoryLink {
        incoming: player_in,
        outgoing: to_judge,
        deadline: deadline + judge_time,
        timed_out: Arc::new(Mutex::new(false)),
    };
    let (done, player_done) = mpsc::channel::<(Instant, Option<Failure>)>();
    let player = thread::Builder::new()
        .name("grundy-player".into())
        .stack_size(SOLVER_STACK)
        .spawn(move || {
            let mut link = player_link;
            let failure = match catching_panics(|| (interaction.play)(&mut link)) {
                Ok(Ok(())) => None,
                Ok(Err(message)) => Some(Failure::GaveUp(message)),
                Err(panic) => Some(panic),
            };
            let _ = done.send((Instant::now(), failure));
        });
    let transcript = Arc::new(Mutex::new(Transcript::default()));
    let mut judge_link = Recorded {
        inner: MemoryLink {
            incoming: judge_in,
            outgoing: to_player,
            deadline,
            timed_out: Arc::clone(&judge_timed_out),
        },
        transcript: Arc::clone(&transcript),
        reads: Direction::FromProgram,
    };
    let judge = |link: &mut Recorded<MemoryLink>| {
        catching_panics(|| (interaction.judge)(input, answer, link))
    };
    let decision = match (&player, watch) {
        (Err(_), _) => Ok(Decision::JudgeError(
            "cannot start the player's thread".into(),
        )),
        (Ok(_), Some(watch)) => watch.during(time_limit + judge_time, || judge(&mut judge_link)),
        (Ok(_), None) => judge(&mut judge_link),
    };
    let judge_ended = Instant::now();
    // The judge is done: the player reads the end of the exchange and should stop.
    drop(judge_link);
    let waited = deadline.saturating_duration_since(Instant::now()) + Duration::from_millis(100);
    let (program_ended, failure) = match player_done.recv_timeout(waited) {
        Ok((at, failure)) => (Some(at), failure),
        // Still playing past its limit: abandoned, as any overrunning built-in code.
        Err(_) => (None, Some(Failure::TimeLimit)),
    };
    let program = Run {
        time: program_ended.unwrap_or_else(Instant::now) - started,
        failure,
        ..Run::default()
    };
    let silent = *judge_timed_out.lock().unwrap_or_else(|e| e.into_inner());
    InteractiveRun {
        program,
        program_ended,
        judge: judgement_of(decision),
        judge_ended,
        program_silent_past_limit: silent,
        transcript: take(transcript),
    }
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
