//! Judging mutants: each built as its submission is (contained, into the build cache by
//! content, on the pool), then run on the package's cases by the package's own checker through
//! verification's case runner ([`crate::verification::judge::Prepared::judge`]), stopped at its
//! first failure. Mutants are judged in parallel, a wave of [`WAVE`] at a time: each wave tries
//! the cases that killed the most mutants of the waves before it first (cheap first failures),
//! and since a wave's order depends only on the waves before it, which case kills a mutant is
//! the same whatever the number of workers.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Result};

use crate::build::BuildJobs;
use crate::build::HostError;
use crate::config::Settings;
use crate::judging::Verdict;
use crate::model::Problem;
use crate::reporting::findings::first_error;
use crate::running::pool::{Jobs, Stop};
use crate::running::SolveWatch;
use crate::stages::Pool;
use crate::verification::judge::{prepared, Prepared};
use crate::verification::results::{self, Judged, NotJudged};

/// How many mutants share one order of the cases.
const WAVE: usize = 16;

/// What became of one mutant.
#[derive(Clone, Debug)]
pub enum Fate {
    /// It does not build: the compiler's first error ([`first_error`]).
    Stillborn(String),
    /// A case failed it: the case (its index), the verdict.
    Killed { case: usize, verdict: Verdict },
    /// It passed every case.
    Survived,
    /// It could not be judged: why.
    Unjudged(Unjudged),
}

/// Why a mutant could not be judged, kept as a type until its row says it.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Unjudged {
    /// Judging did not judge it, as it would not a submission (the build stage skipped it).
    #[error("{0}")]
    NotJudged(NotJudged),
    /// The host failed to build it.
    #[error("{0}")]
    Host(HostError),
    /// A case of it could not be judged at all (its run could not be prepared).
    #[error("{0}")]
    Case(Arc<results::Unjudged>),
    /// The checker failed on a case (JE): what it said.
    #[error("{}", .0.as_deref().unwrap_or_default())]
    JudgeError(Option<String>),
    /// Its judging stopped before it was.
    #[error("the run was cut short")]
    CutShort,
}

/// Judges every submission of `problem` (its mutants) under `settings` (its cases', by
/// [`crate::model::judged_under`]) with each run stopped at `timeout`, handing each fate to
/// `each` in submission order; `cancel` (Ctrl-C) stops between cases.
/// What the mutants were judged with, for running a survivor again ([`super::search`]).
pub fn judge(
    problem: &Arc<Problem>,
    settings: Settings,
    pool: &Pool,
    timeout: Duration,
    cancel: &Arc<AtomicBool>,
    mut each: impl FnMut(usize, Fate),
) -> Result<Arc<Prepared>, Stop> {
    let build_jobs = Arc::new(BuildJobs::new([&**problem]));
    let built = pool.run(
        Arc::clone(&build_jobs),
        build_jobs.len(),
        "building mutants",
    )?;
    let builds = build_jobs.collect(built);
    let (judged, ready) = prepared(problem, settings, &builds);
    let mut fates: Vec<Option<Fate>> = judged
        .into_iter()
        .map(|judged| match judged {
            Judged::Runs(_) => None,
            Judged::CompileError(message) => Some(Fate::Stillborn(first_error(&message))),
            Judged::Skipped(why) => Some(Fate::Unjudged(Unjudged::NotJudged(why))),
            Judged::HostError(error) => Some(Fate::Unjudged(Unjudged::Host(error))),
        })
        .collect();
    let to_judge: Vec<usize> = (0..fates.len()).filter(|&s| fates[s].is_none()).collect();
    let ready = Arc::new(ready);
    let mut kills = vec![0usize; problem.cases.len()];
    let mut reported = 0;
    for wave in to_judge.chunks(WAVE) {
        report_ready(&mut fates, &mut reported, &mut each);
        let mut order: Vec<usize> = (0..kills.len()).collect();
        order.sort_by_key(|&c| (std::cmp::Reverse(kills[c]), c));
        let jobs = Arc::new(MutantJobs {
            problem: Arc::clone(problem),
            prepared: Arc::clone(&ready),
            mutants: wave.to_vec(),
            order,
            timeout,
            cancel: Arc::clone(cancel),
        });
        let what = format!("judging mutants ({} to go)", to_judge.len() - reported);
        pool.run_each(Arc::clone(&jobs), wave.len(), &what, |index, fate| {
            let fate = fate.unwrap_or_else(|| Fate::Unjudged(Unjudged::CutShort));
            if let Fate::Killed { case, .. } = fate {
                kills[case] += 1;
            }
            fates[wave[index]] = Some(fate);
        })?;
    }
    report_ready(&mut fates, &mut reported, &mut each);
    Ok(ready)
}

/// Hands `each` the fates known from the next one to report on, in order.
fn report_ready(fates: &mut [Option<Fate>], next: &mut usize, each: &mut impl FnMut(usize, Fate)) {
    while let Some(fate) = fates.get_mut(*next).and_then(Option::take) {
        each(*next, fate);
        *next += 1;
    }
}

/// One wave: each job a mutant run on the cases in `order` until one fails it.
struct MutantJobs {
    problem: Arc<Problem>,
    prepared: Arc<Prepared>,
    mutants: Vec<usize>,
    order: Vec<usize>,
    timeout: Duration,
    cancel: Arc<AtomicBool>,
}

impl Jobs for MutantJobs {
    type Output = Fate;

    fn run(&self, index: usize, watch: &SolveWatch) -> Result<Fate> {
        let s = self.mutants[index];
        for &c in &self.order {
            if self.cancel.load(Ordering::SeqCst) {
                bail!("cancelled");
            }
            match self
                .prepared
                .judge(&self.problem, s, c, self.timeout, watch)
            {
                Ok(run) if run.verdict.passed() => {}
                // The checker failing is no kill: nothing is known of the mutant.
                Ok(run) if run.verdict == Verdict::JE => {
                    return Ok(Fate::Unjudged(Unjudged::JudgeError(run.message)))
                }
                Ok(run) => {
                    return Ok(Fate::Killed {
                        case: c,
                        verdict: run.verdict,
                    })
                }
                Err(why) => return Ok(Fate::Unjudged(Unjudged::Case(Arc::new(why)))),
            }
        }
        Ok(Fate::Survived)
    }

    fn failed(&self, _: &Fate) -> bool {
        // A mutant killed is the data doing its job; nothing here stops the run early.
        false
    }
}
