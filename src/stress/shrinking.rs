//! Greedy shrinking of a counterexample: ask the problem's shrinker for smaller inputs, keep the
//! first one (in the shrinker's order, most aggressive first) that still fails, and repeat until
//! none does or the budget runs out. Candidates are tried in parallel on the worker pool, but the
//! one kept is always the first failing one in order, so the result does not depend on thread
//! timing (unless the budget cuts the search short).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use grundy_problems::{Constraints, Problem};

use super::Trial;
use crate::running::pool::{self, Event, Jobs, PoolOptions, Stop};
use crate::running::SolveWatch;

/// How much shrinking may cost: candidate runs, and wall time (candidates that time out cost a
/// whole time limit each).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub attempts: usize,
    pub time: Duration,
}

pub const BUDGET: Budget = Budget {
    attempts: 20_000,
    time: Duration::from_secs(60),
};

/// A counterexample after shrinking.
pub struct Shrunk {
    pub input: Vec<u8>,
    pub trial: Trial,
    /// Smaller inputs accepted, one per round.
    pub steps: usize,
    /// Candidates tried, counted as a sequential search would (up to the first failing one in
    /// each round), so the count does not depend on how many ran in parallel.
    pub attempts: usize,
    /// The budget ran out before a round found nothing smaller that fails.
    pub cut_short: bool,
}

/// Whether a candidate still fails: its trial when it does.
pub type StillFails = Arc<dyn Fn(&[u8]) -> Result<Option<Trial>> + Send + Sync>;

/// Shrinks `input` (which fails as `trial` says). `still_fails` runs a candidate and returns its
/// trial when it fails too; each round's candidates run on the worker pool (`options`), and the
/// first failing one in order is kept. `on_step` hears of every accepted step (steps, attempts
/// so far).
pub fn shrink(
    problem: &Problem,
    (input, trial): (Vec<u8>, Trial),
    budget: Budget,
    still_fails: StillFails,
    options: &PoolOptions,
    on_step: impl Fn(usize, usize),
) -> Result<Shrunk, Stop> {
    let spent = Arc::new(Spent {
        started: Instant::now(),
        runs: AtomicUsize::new(0),
        cut_short: AtomicBool::new(false),
        budget,
    });
    let mut shrunk = Shrunk {
        input,
        trial,
        steps: 0,
        attempts: 0,
        cut_short: false,
    };
    loop {
        // A shrinker promises valid candidates; checking costs little and keeps a shrinker bug
        // from turning a real counterexample into an invalid input (or one beyond the original
        // limits, where every stress input stays).
        let candidates: Vec<Vec<u8>> = (problem.shrink)(&shrunk.input)
            .into_iter()
            .filter(|c| {
                *c != shrunk.input
                    && (problem.validate)(&mut c.as_slice(), Constraints::Original).is_ok()
            })
            .collect();
        let round = Arc::new(Round {
            candidates,
            still_fails: Arc::clone(&still_fails),
            spent: Arc::clone(&spent),
        });
        let mut found = None;
        let mut index = 0;
        pool::run_all(
            Arc::clone(&round),
            round.candidates.len(),
            options,
            |event| {
                if let Event::Finished(output) = event {
                    if found.is_none() {
                        if let Some(Some(trial)) = output {
                            found = Some((index, trial));
                        }
                    }
                    index += 1;
                }
            },
        )?;
        match found {
            Some((index, trial)) => {
                shrunk.attempts += index + 1;
                shrunk.input = round.candidates[index].clone();
                shrunk.trial = trial;
                shrunk.steps += 1;
                on_step(shrunk.steps, shrunk.attempts);
            }
            None => {
                shrunk.attempts += round.candidates.len();
                break;
            }
        }
    }
    shrunk.cut_short = spent.cut_short.load(Ordering::Relaxed);
    Ok(shrunk)
}

/// What shrinking has spent of its budget, across rounds.
struct Spent {
    started: Instant,
    runs: AtomicUsize,
    cut_short: AtomicBool,
    budget: Budget,
}

/// One round: a pool job per candidate, its output the candidate's trial when it still fails.
struct Round {
    candidates: Vec<Vec<u8>>,
    still_fails: StillFails,
    spent: Arc<Spent>,
}

impl Jobs for Round {
    type Output = Option<Trial>;

    fn run(&self, index: usize, _: &SolveWatch) -> Result<Option<Trial>> {
        let spent = &self.spent;
        if spent.runs.load(Ordering::Relaxed) >= spent.budget.attempts
            || spent.started.elapsed() >= spent.budget.time
        {
            spent.cut_short.store(true, Ordering::Relaxed);
            return Ok(None);
        }
        spent.runs.fetch_add(1, Ordering::Relaxed);
        (self.still_fails)(&self.candidates[index])
    }

    fn failed(&self, trial: &Option<Trial>) -> bool {
        trial.is_some()
    }
}
