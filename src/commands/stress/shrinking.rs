//! Greedy shrinking of a counterexample: ask the problem's shrinker for smaller inputs, keep the
//! first one (in the shrinker's order, most aggressive first) that still fails, and repeat until
//! none does or the budget runs out. Candidates are tried in parallel, but the one kept is always
//! the first failing one in order, so the result does not depend on thread timing (unless the
//! budget cuts the search short).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use grundy_problems::{Constraints, Problem};
use rayon::prelude::*;

use super::Trial;

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

/// Shrinks `input` (which fails as `trial` says). `still_fails` runs a candidate and returns its
/// trial when it fails too; `on_step` hears of every accepted step (steps, attempts so far).
pub fn shrink(
    problem: &Problem,
    input: Vec<u8>,
    trial: Trial,
    budget: Budget,
    still_fails: impl Fn(&[u8]) -> Result<Option<Trial>> + Sync,
    on_step: impl Fn(usize, usize),
) -> Result<Shrunk> {
    let started = Instant::now();
    let runs = AtomicUsize::new(0);
    let cut_short = AtomicBool::new(false);
    let mut shrunk = Shrunk {
        input,
        trial,
        steps: 0,
        attempts: 0,
        cut_short: false,
    };
    loop {
        // A shrinker promises valid candidates; checking costs little and keeps a shrinker bug
        // from turning a real counterexample into an invalid input.
        let mut candidates: Vec<Vec<u8>> = (problem.shrink)(&shrunk.input)
            .into_iter()
            .filter(|c| {
                *c != shrunk.input
                    && (problem.validate)(&mut c.as_slice(), Constraints::Extended).is_ok()
            })
            .collect();
        let found = candidates
            .par_iter()
            .enumerate()
            .find_map_first(|(index, candidate)| {
                if runs.load(Ordering::Relaxed) >= budget.attempts
                    || started.elapsed() >= budget.time
                {
                    cut_short.store(true, Ordering::Relaxed);
                    return None;
                }
                runs.fetch_add(1, Ordering::Relaxed);
                match still_fails(candidate) {
                    Ok(Some(trial)) => Some(Ok((index, trial))),
                    Ok(None) => None,
                    Err(error) => Some(Err(error)),
                }
            });
        match found {
            Some(Ok((index, trial))) => {
                shrunk.attempts += index + 1;
                shrunk.input = candidates.swap_remove(index);
                shrunk.trial = trial;
                shrunk.steps += 1;
                on_step(shrunk.steps, shrunk.attempts);
            }
            Some(Err(error)) => return Err(error),
            None => {
                shrunk.attempts += candidates.len();
                break;
            }
        }
    }
    shrunk.cut_short = cut_short.into_inner();
    Ok(shrunk)
}
