use super::*;
use crate::running::in_process::run_watched;
use crate::running::{Clock, Failure, TimeLimits};
use grundy_problems::{InputError, SolveFn};

/// Jobs whose behaviour is chosen by index: most echo their index after a delay that makes
/// later jobs finish first; some fail, block or compute forever in a solver, panic or error.
struct Script {
    steps: Vec<Step>,
    /// The limits of a solver that computes (its CPU limit comes first, however busy the
    /// machine) and of one that blocks (the wall clock stops it soon).
    computing: TimeLimits,
    blocked: TimeLimits,
}

#[derive(Clone, Copy, PartialEq)]
enum Step {
    Done(u64),
    Fail,
    Block,
    Busy,
    Panic,
    Error,
}

fn blocks(_: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
    loop {
        thread::park();
    }
}

/// Computes far past the CPU limit, then stops, so the abandoned thread does not keep a
/// core busy for the rest of the tests.
fn busy(_: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
    let started = std::time::Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        std::hint::spin_loop();
    }
    Ok(())
}

impl Jobs for Script {
    type Output = String;

    fn run(&self, index: usize, watch: &SolveWatch) -> Result<String> {
        match self.steps[index] {
            Step::Done(millis) => {
                thread::sleep(Duration::from_millis(millis));
                Ok(format!("done {index}"))
            }
            Step::Fail => Ok(format!("fail {index}")),
            Step::Block | Step::Busy => {
                let (solve, limits) = if self.steps[index] == Step::Block {
                    (blocks as SolveFn, self.blocked)
                } else {
                    (busy as SolveFn, self.computing)
                };
                let run = run_watched(solve, Vec::new(), limits, watch);
                assert!(matches!(run.failure, Some(Failure::TimeLimit(_))));
                Ok(format!("late {index}"))
            }
            Step::Panic => panic!("a bug in job {index}"),
            Step::Error => anyhow::bail!("job {index} cannot start"),
        }
    }

    fn failed(&self, output: &String) -> bool {
        !output.starts_with("done")
    }
}

impl Watched for Script {
    fn overdue(&self, index: usize, overrun: Overrun) -> String {
        match overrun.by {
            Clock::Cpu => assert!(overrun.cpu > self.computing.cpu, "{overrun:?}"),
            Clock::Wall => assert!(overrun.wall > self.blocked.wall, "{overrun:?}"),
        }
        format!("overdue {index} by {:?}", overrun.by)
    }
}

fn options(jobs: usize, fail_fast: bool) -> PoolOptions {
    PoolOptions {
        jobs,
        fail_fast,
        cancel: Arc::new(AtomicBool::new(false)),
    }
}

/// What a pool run of a script showed.
struct Ran {
    outcome: Result<(), Stop>,
    /// The outputs of the `Finished` events, in the order they came.
    finished: Vec<Option<String>>,
    /// How many `Started` events came.
    started: usize,
}

fn run(steps: &[Step], options: &PoolOptions) -> Ran {
    let script = Arc::new(Script {
        steps: steps.to_vec(),
        computing: TimeLimits {
            cpu: Duration::from_millis(50),
            wall: Duration::from_secs(60),
        },
        blocked: TimeLimits {
            cpu: Duration::from_millis(50),
            wall: Duration::from_secs(1),
        },
    });
    let mut finished = Vec::new();
    let mut started = 0;
    let outcome = super::run_with_watchdog(script, steps.len(), options, |event| match event {
        Event::Started(_) => started += 1,
        Event::Finished(output) => finished.push(output),
    });
    Ran {
        outcome,
        finished,
        started,
    }
}

#[test]
fn results_come_in_job_order_whatever_order_they_finish_in() {
    let steps: Vec<Step> = (0..12).map(|i| Step::Done(12 - i)).collect();
    let ran = run(&steps, &options(4, false));
    ran.outcome.unwrap();
    let expected: Vec<Option<String>> = (0..12).map(|i| Some(format!("done {i}"))).collect();
    assert_eq!(ran.finished, expected);
    assert_eq!(ran.started, 12);
}

#[test]
fn an_overrunning_solver_is_reported_overdue_and_its_worker_replaced() {
    let steps = [
        Step::Done(0),
        Step::Busy,
        Step::Done(0),
        Step::Block,
        Step::Done(0),
    ];
    let ran = run(&steps, &options(1, false));
    ran.outcome.unwrap();
    let outputs: Vec<String> = ran.finished.into_iter().map(Option::unwrap).collect();
    assert_eq!(
        outputs,
        [
            "done 0",
            "overdue 1 by Cpu",
            "done 2",
            "overdue 3 by Wall",
            "done 4"
        ]
    );
}

#[test]
fn fail_fast_skips_what_has_not_started() {
    let mut steps = vec![Step::Done(0), Step::Fail];
    steps.extend([Step::Done(0); 20]);
    let ran = run(&steps, &options(1, true));
    ran.outcome.unwrap();
    assert_eq!(ran.finished.len(), 22, "every job is accounted for");
    assert_eq!(ran.finished[1].as_deref(), Some("fail 1"));
    assert!(ran.finished[2..].iter().all(Option::is_none));
    assert_eq!(ran.started, 2);
}

#[test]
fn an_error_stops_the_run_and_is_returned() {
    let steps = [Step::Done(0), Step::Error, Step::Done(0), Step::Done(0)];
    let ran = run(&steps, &options(1, false));
    let Err(Stop::Failed(error)) = ran.outcome else {
        panic!("the job's error is the run's");
    };
    let error = error.to_string();
    assert!(error.contains("job 1 cannot start"), "{error}");
    assert_eq!(ran.finished.len(), 4);
    assert!(ran.finished[1..].iter().all(Option::is_none));
}

#[test]
fn a_panic_in_a_job_is_raised_again_on_the_caller() {
    let steps = [Step::Done(0), Step::Panic, Step::Done(0)];
    let caught = panic::catch_unwind(|| run(&steps, &options(2, false)));
    let payload = caught.err().expect("the panic comes back");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(message.contains("a bug in job 1"), "{message}");
}

#[test]
fn a_cancel_skips_everything_not_yet_done() {
    let options = options(2, false);
    options.cancel.store(true, Ordering::SeqCst);
    let ran = run(&[Step::Done(0); 5], &options);
    assert!(matches!(ran.outcome, Err(Stop::Cancelled)));
    assert!(ran.finished.iter().all(Option::is_none));
    assert_eq!((ran.finished.len(), ran.started), (5, 0));
}

#[test]
fn outputs_come_out_in_job_order_and_an_overdue_verdict_wins() {
    let mut pending = InOrder::default();
    pending.put(2, Some("two"), false);
    pending.put(1, None, false);
    assert_eq!(pending.take_next(), None, "job 0 is not in");
    // Job 0 reported overdue, then its late solver's own output: the first stays.
    pending.put(0, Some("overdue"), true);
    pending.put(0, Some("late"), false);
    pending.put(2, Some("ignored"), false);
    let order: Vec<_> = std::iter::from_fn(|| pending.take_next()).collect();
    assert_eq!(order, [Some("overdue"), None, Some("two")]);
    // An output whose turn has passed is dropped; one far ahead waits.
    pending.put(1, Some("too late"), false);
    pending.put(5, Some("five"), false);
    assert_eq!(pending.take_next(), None);
    for index in 3..5 {
        pending.put(index, None, true);
    }
    let rest: Vec<_> = std::iter::from_fn(|| pending.take_next()).collect();
    assert_eq!(rest, [None, None, Some("five")]);
    assert_eq!(pending.next, 6);
}
