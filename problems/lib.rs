//! The problems grundy judges, as plain data: each problem is one folder holding its solver, a
//! brute force written from the game rules alone, a seeded input generator, a validator for the
//! exact constraints, a shrinker for counterexamples, and its statement.
//!
//! This crate knows nothing about fixtures, processes or reports; the runner (`src/`) does. Adding a
//! problem means copying a folder and adding one line to [`ALL`].

pub mod families;
pub mod scanner;
pub mod sg;
pub mod support;
#[cfg(test)]
mod test_support;

mod lieges_of_legendre;
mod nim;
mod powers_of_two;
mod s_nim;
mod s_nim_duel;
mod s_nim_move;
mod set_nim;
#[cfg(feature = "test-problems")]
mod test_problems;

pub use scanner::{InMemory, InputError, Place, Reader, Scanner, Source};

/// The signature shared by every solver and brute force: read the whole input, append the whole
/// output. Malformed input is an error naming line and column, never a panic.
pub type SolveFn = fn(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError>;

/// The signature of every validator: checks an input, read as a stream, against the exact format
/// and `limits`; the first violation is the error. A validator holds no more of the input than
/// the limits need (see [`Scanner::from_reader`]), so an input of any size is checked in bounded
/// memory. A read error of the stream ends the input: the caller, who owns the stream, reports it.
pub type ValidateFn =
    fn(input: &mut dyn std::io::BufRead, limits: Constraints) -> Result<(), InputError>;

/// Which limits a validator enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constraints {
    /// The limits of the original judge, as the problem's statement.md states them.
    Original,
    /// The larger limits the solver also handles (see the problem's statement); fixtures that use
    /// them live in an `extended/` group.
    Extended,
}

/// What a built-in checker or interactive judge concluded about a program's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The answer is right.
    Accept,
    /// The answer is wrong; the message says what and where, in one line.
    Reject(String),
    /// The judge's own data is unusable (a malformed input or answer file): the problem is at
    /// fault, not the program.
    JudgeError(String),
}

/// A checker for a problem with many right answers: the case's input, its answer file (one right
/// answer, or whatever the problem keeps there) and the program's output. It must decide from
/// the rules, never by trusting the answer file to be the only right one.
pub type CheckFn = fn(input: &[u8], answer: &[u8], output: &[u8]) -> Decision;

/// One side's end of an interactive exchange, a line at a time. The runner provides it (pipes to
/// a judged process, or to the other built-in side) and keeps the time: a read that would wait past
/// the time limit returns `None`, as a closed stream does. Lines are capped by the runner; a
/// longer one arrives cut.
pub trait Link {
    /// The next line from the other side, without its `\n` (nor a `\r` before it); `None` when the
    /// other side closed its output, ended, or ran out of time.
    fn read_line(&mut self) -> Option<Vec<u8>>;
    /// Sends `line` and a `\n`, flushed at once. `false` when the other side no longer reads.
    fn write_line(&mut self, line: &[u8]) -> bool;
}

/// An interactive problem's two built-in sides. The problems crate knows nothing of processes:
/// the runner joins the judge to the program under test (the built-in player, or any program) by
/// [`Link`]s.
#[derive(Clone, Copy)]
pub struct Interaction {
    /// The judge: it knows the case's input and answer file, talks to the program, and decides.
    pub judge: fn(input: &[u8], answer: &[u8], program: &mut dyn Link) -> Decision,
    /// The built-in player: it knows nothing but what the judge tells it. `Err` when the judge
    /// said something it cannot read.
    pub play: fn(judge: &mut dyn Link) -> Result<(), PlayError>,
}

/// Why a built-in player gave up: the judge broke off, or said what the rules do not allow.
/// What the judge said wrong is the problem's own error, kept whole.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The judge ended, or went quiet, before sending what the player waited for.
    #[error("the judge sent no {0}")]
    Silent(&'static str),
    /// The judge stopped reading before the player's `line`.
    #[error("the judge stopped reading before `{0}`")]
    Deaf(String),
    /// A line of the judge's (its `what`: the game, a move) the player cannot read.
    #[error("cannot read the judge's {what}: {reason}")]
    Unreadable {
        what: &'static str,
        reason: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The judge's `turn` breaks the rules.
    #[error("the judge's move `{turn}` is illegal: {reason}")]
    Illegal {
        turn: String,
        reason: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// One problem: everything the runner needs, behind plain function pointers so every problem has
/// the same shape.
pub struct Problem {
    /// Lowercase kebab-case id, also the fixtures folder name.
    pub id: &'static str,
    /// The title of the original problem.
    pub title: &'static str,
    /// The statement in Markdown: format, limits, origin.
    pub statement: &'static str,
    /// The fast solver.
    pub solve: SolveFn,
    /// A slow solver derived from the rules alone (explicit mex over the real moves); the reference
    /// for tests, fixtures and stress runs.
    pub brute: SolveFn,
    /// A valid input of the given scale (no count or value above `scale`, nor above the problem's
    /// own limits), the same for the same seed on every machine.
    pub generate: fn(seed: u64, scale: u64) -> Vec<u8>,
    /// Checks an input, streamed, against the exact format and limits; the first violation is the
    /// error (see [`ValidateFn`]).
    pub validate: ValidateFn,
    /// Smaller valid inputs derived from a failing one (fewer heaps, fewer test cases, smaller
    /// numbers), most aggressive first; empty when nothing smaller exists.
    pub shrink: fn(input: &[u8]) -> Vec<Vec<u8>>,
    /// For a problem with many right answers: the checker that judges an output (`solve` and
    /// `brute` then each print one right answer). `None`: the runner's checker compares with the
    /// expected file.
    pub check: Option<CheckFn>,
    /// For an interactive problem: the judge and the built-in player (`solve` and `brute` then
    /// print the answer file from the input). `None` for an ordinary problem.
    pub interact: Option<Interaction>,
}

/// Every problem the runner knows. Adding a problem: one line here.
pub static ALL: &[&Problem] = &[
    &lieges_of_legendre::PROBLEM,
    &nim::PROBLEM,
    &powers_of_two::PROBLEM,
    &s_nim::PROBLEM,
    &s_nim_duel::PROBLEM,
    &s_nim_move::PROBLEM,
    &set_nim::PROBLEM,
    #[cfg(feature = "test-problems")]
    &test_problems::PANICS,
    #[cfg(feature = "test-problems")]
    &test_problems::LOOPS,
    #[cfg(feature = "test-problems")]
    &test_problems::WRONG_NIM,
    #[cfg(feature = "test-problems")]
    &test_problems::DIVISOR,
    #[cfg(feature = "test-problems")]
    &test_problems::GUESS,
];

/// The problem with this id, if there is one.
pub fn find(id: &str) -> Option<&'static Problem> {
    ALL.iter().copied().find(|p| p.id == id)
}
