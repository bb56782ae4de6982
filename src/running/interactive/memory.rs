//! The in-memory pairing of a problem's built-in judge with its built-in player.
//!
//! The player runs as a stackful coroutine on the judge's own thread: when the judge waits for a
//! line, the player is resumed until it writes one. A move is then a stack switch, not a handoff
//! between two threads, which on a small VM costs more than judging a tiny case (BENCHMARKS.md).
//! A player that waits for a line while the judge waits for one is a deadlock, seen at once: the
//! program is silent for good. Neither side can be stopped while it computes, so the pairing runs
//! under the pool worker's [`SolveWatch`], or on a thread of its own that is abandoned when late.

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use grundy_problems::{Interaction, Link};

use super::{judgement_of, take, Direction, InteractiveRun, Recorded, Transcript, MAX_LINE};
use crate::checking::Judgement;
use crate::running::in_process::{catching_panics, SolveWatch, SOLVER_STACK};
use crate::running::run::{Failure, Run, TimeLimits};
use grundy_sandbox::Clock;

/// How long past its time limit the player may take to see the end of the exchange and return
/// once the judge has decided.
const PLAYER_GRACE: Duration = Duration::from_millis(100);

thread_local! {
    /// The stack of this thread's last finished player, kept for the next one: a fresh stack is a
    /// fresh mapping, and its first pages fault in again.
    static PLAYER_STACK: Cell<Option<DefaultStack>> = const { Cell::new(None) };
}

/// The built-in judge of `interaction` against its built-in player, in memory, the judge having
/// `judge_time` beyond the player's `time_limit` for its own work. Under `watch` (a pool worker)
/// the pairing runs on this thread, which must have a solver-sized stack; without one, on a
/// thread of its own, given up when late.
pub fn built_in_pair(
    interaction: Interaction,
    input: &[u8],
    answer: &[u8],
    time_limit: Duration,
    judge_time: Duration,
    watch: Option<&SolveWatch>,
) -> InteractiveRun {
    let allowed = time_limit + judge_time + PLAYER_GRACE;
    match watch {
        // Judge and player share this thread, so its CPU clock cannot tell the player's time
        // from the judge's: the pairing is held to the wall clock alone.
        Some(watch) => watch.during(TimeLimits::wall_only(allowed), || {
            pair(interaction, input, answer, time_limit)
        }),
        None => on_a_thread_of_its_own(interaction, input, answer, time_limit, allowed),
    }
}

fn on_a_thread_of_its_own(
    interaction: Interaction,
    input: &[u8],
    answer: &[u8],
    time_limit: Duration,
    allowed: Duration,
) -> InteractiveRun {
    let started = Instant::now();
    let (input, answer) = (input.to_vec(), answer.to_vec());
    let (done, finished) = mpsc::channel();
    let spawned = thread::Builder::new()
        .name("grundy-interaction".into())
        .stack_size(SOLVER_STACK)
        .spawn(move || {
            let _ = done.send(pair(interaction, &input, &answer, time_limit));
        });
    if spawned.is_err() {
        return unplayed(started, "cannot start a thread for the game");
    }
    finished
        .recv_timeout(allowed)
        .unwrap_or_else(|_| InteractiveRun {
            program_silent_past_limit: true,
            ..unplayed(started, "the game did not end in time")
        })
}

/// A run that never got to play, with the judge at fault for `why`.
fn unplayed(started: Instant, why: &str) -> InteractiveRun {
    InteractiveRun {
        program: Run {
            wall: started.elapsed(),
            failure: Some(Failure::TimeLimit(Clock::Wall)),
            ..Run::default()
        },
        program_ended: None,
        judge: Judgement::JudgeError(why.to_string()),
        judge_ended: Instant::now(),
        program_silent_past_limit: false,
        transcript: Transcript::default(),
    }
}

/// Plays the judge against the player on this thread.
fn pair(
    interaction: Interaction,
    input: &[u8],
    answer: &[u8],
    time_limit: Duration,
) -> InteractiveRun {
    let started = Instant::now();
    let deadline = started + time_limit;
    let stack = match PLAYER_STACK
        .take()
        .map_or_else(|| DefaultStack::new(SOLVER_STACK), Ok)
    {
        Ok(stack) => stack,
        Err(error) => {
            return unplayed(started, &format!("cannot make the player's stack: {error}"))
        }
    };
    let player = Coroutine::with_stack(stack, move |yielder, _: Answer| {
        let mut link = PlayerSide { yielder };
        match catching_panics(|| (interaction.play)(&mut link)) {
            Ok(Ok(())) => None,
            Ok(Err(error)) => Some(Failure::GaveUp(error.to_string())),
            Err(panic) => Some(panic),
        }
    });
    let transcript = Arc::new(Mutex::new(Transcript::default()));
    let mut judge_link = Recorded {
        inner: JudgeSide {
            player,
            state: PlayerState::Ready,
            to_player: VecDeque::new(),
            deadline,
            silent: false,
        },
        transcript: Arc::clone(&transcript),
        reads: Direction::FromProgram,
    };
    let decision = catching_panics(|| (interaction.judge)(input, answer, &mut judge_link));
    let judge_ended = Instant::now();
    let mut side = judge_link.inner;
    side.finish(deadline + PLAYER_GRACE);
    let (program_ended, failure) = match side.state {
        PlayerState::Ended { at, failure } => (Some(at), failure),
        // Still playing past its limit: given up, as any overrunning built-in code.
        PlayerState::Ready | PlayerState::Reads => (None, Some(Failure::TimeLimit(Clock::Wall))),
    };
    if side.player.done() {
        PLAYER_STACK.set(Some(side.player.into_stack()));
    }
    InteractiveRun {
        // The player's time is its wall time (see built_in_pair), counted as both clocks.
        program: Run {
            cpu: program_ended.unwrap_or_else(Instant::now) - started,
            wall: program_ended.unwrap_or_else(Instant::now) - started,
            failure,
            ..Run::default()
        },
        program_ended,
        judge: judgement_of(decision),
        judge_ended,
        program_silent_past_limit: side.silent,
        transcript: take(transcript),
    }
}

/// Where the player stopped, handing control back to the judge's side.
enum PlayerStep {
    Wrote(Vec<u8>),
    Reads,
}

/// What the player is resumed with: the answer to its last step.
enum Answer {
    /// The line it asked for; `None` at the end of the exchange.
    Line(Option<Vec<u8>>),
    /// Whether the judge still reads what the player writes (also what starts the player).
    Listening(bool),
}

/// The player's end of the exchange, inside the coroutine.
struct PlayerSide<'a> {
    yielder: &'a Yielder<Answer, PlayerStep>,
}

impl Link for PlayerSide<'_> {
    fn read_line(&mut self) -> Option<Vec<u8>> {
        match self.yielder.suspend(PlayerStep::Reads) {
            Answer::Line(line) => line,
            Answer::Listening(_) => None,
        }
    }

    fn write_line(&mut self, line: &[u8]) -> bool {
        matches!(
            self.yielder.suspend(PlayerStep::Wrote(line.to_vec())),
            Answer::Listening(true)
        )
    }
}

/// The player as the judge's side sees it between two resumes.
enum PlayerState {
    /// Not started, or it wrote a line: resumed with whether the judge still listens.
    Ready,
    /// Waiting for a line.
    Reads,
    Ended {
        at: Instant,
        failure: Option<Failure>,
    },
}

/// The judge's end of the exchange: reading resumes the player.
struct JudgeSide {
    player: Coroutine<Answer, PlayerStep, Option<Failure>, DefaultStack>,
    state: PlayerState,
    /// Lines the judge wrote that the player has not read yet.
    to_player: VecDeque<Vec<u8>>,
    deadline: Instant,
    /// The judge waited for the player past its time limit, or while the player waited too.
    silent: bool,
}

impl JudgeSide {
    /// Resumes the player with `answer`; the line it wrote, if it stopped after writing one.
    fn resume(&mut self, answer: Answer) -> Option<Vec<u8>> {
        match self.player.resume(answer) {
            CoroutineResult::Yield(PlayerStep::Wrote(line)) => {
                self.state = PlayerState::Ready;
                Some(line)
            }
            CoroutineResult::Yield(PlayerStep::Reads) => {
                self.state = PlayerState::Reads;
                None
            }
            CoroutineResult::Return(failure) => {
                let at = Instant::now();
                self.state = PlayerState::Ended { at, failure };
                None
            }
        }
    }

    /// With the judge done: the player reads what is left and then the end of the exchange, and
    /// should return; one still going at `until` is unwound and left as it was.
    fn finish(&mut self, until: Instant) {
        // The judge read the player's last line (or the player has not started); what it writes
        // from now on nobody reads.
        let mut listening = true;
        loop {
            let answer = match self.state {
                PlayerState::Ended { .. } => return,
                _ if Instant::now() > until => return self.player.force_unwind(),
                PlayerState::Ready => Answer::Listening(listening),
                PlayerState::Reads => Answer::Line(self.to_player.pop_front()),
            };
            if self.resume(answer).is_some() {
                listening = false;
            }
        }
    }
}

impl Link for JudgeSide {
    fn read_line(&mut self) -> Option<Vec<u8>> {
        loop {
            let answer = match self.state {
                PlayerState::Ended { .. } => return None,
                PlayerState::Ready => Answer::Listening(true),
                PlayerState::Reads => match self.to_player.pop_front() {
                    Some(line) => Answer::Line(Some(line)),
                    // Each side waits for the other: the program will never say more.
                    None => {
                        self.silent = true;
                        return None;
                    }
                },
            };
            if let Some(mut line) = self.resume(answer) {
                if Instant::now() > self.deadline {
                    self.silent = true;
                    return None;
                }
                line.truncate(MAX_LINE);
                return Some(line);
            }
        }
    }

    fn write_line(&mut self, line: &[u8]) -> bool {
        if matches!(self.state, PlayerState::Ended { .. }) {
            return false;
        }
        self.to_player.push_back(line.to_vec());
        true
    }
}

#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;
