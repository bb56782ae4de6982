use super::*;
use grundy_problems::InputError;

fn echo(input: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    out.extend_from_slice(input);
    Ok(())
}

fn panics(_: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
    panic!("boom {}", 42)
}

fn spins(_: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
    loop {
        thread::park();
    }
}

fn rejects(input: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
    Err(InputError::at(input, 2, "bad"))
}

fn deep(_: &[u8], out: &mut Vec<u8>) -> Result<(), InputError> {
    // About 40 MiB of stack: fine on a judge's stack, fatal on the default 8 MiB.
    fn down(n: u32) -> u32 {
        let pad = std::hint::black_box([n as u8; 400]);
        if n == 0 {
            0
        } else {
            down(n - 1) + u32::from(pad[7] & 1)
        }
    }
    out.extend_from_slice(down(100_000).to_string().as_bytes());
    Ok(())
}

const LIMIT: TimeLimits = TimeLimits {
    cpu: Duration::from_secs(5),
    wall: Duration::from_secs(11),
};

/// Limits whose CPU limit a computing solver reaches long before the wall-clock one, even
/// on a machine busy enough to give it a small share of a core.
const SHORT: TimeLimits = TimeLimits {
    cpu: Duration::from_millis(100),
    wall: Duration::from_secs(60),
};

/// Limits that stop a blocked solver soon.
const BLOCKED: TimeLimits = TimeLimits {
    cpu: Duration::from_millis(100),
    wall: Duration::from_millis(1000),
};

/// Computes without end (for a few seconds: then the abandoned thread frees its core).
fn computes(_: &[u8], _: &mut Vec<u8>) -> Result<(), InputError> {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        std::hint::spin_loop();
    }
    Ok(())
}

#[test]
fn output_and_time_come_back() {
    let run = run_in_process(echo, b"7 8".to_vec(), LIMIT);
    assert_eq!(run.output, b"7 8");
    assert_eq!(run.failure, None);
}

#[test]
fn panic_is_a_failure_with_message_and_location() {
    install_panic_hook();
    let run = run_in_process(panics, Vec::new(), LIMIT);
    let Some(Failure::Panicked(message)) = run.failure else {
        panic!("{:?}", run.failure)
    };
    assert!(message.contains("boom 42"), "{message}");
    assert!(message.contains("in_process_tests.rs"), "{message}");
    // The same worker keeps serving.
    assert_eq!(run_in_process(echo, b"ok".to_vec(), LIMIT).output, b"ok");
}

#[test]
fn a_blocked_solver_is_stopped_by_the_wall_clock_and_the_next_case_still_runs() {
    let run = run_in_process(spins, Vec::new(), BLOCKED);
    assert_eq!(run.failure, Some(Failure::TimeLimit(Clock::Wall)));
    assert!(run.wall >= BLOCKED.wall, "{run:?}");
    assert!(
        run.cpu < BLOCKED.cpu,
        "parked, it computed nothing: {run:?}"
    );
    assert_eq!(
        run_in_process(echo, b"next".to_vec(), LIMIT).output,
        b"next"
    );
}

#[test]
fn a_computing_solver_is_stopped_by_its_cpu_time() {
    let run = run_in_process(computes, Vec::new(), SHORT);
    assert_eq!(run.failure, Some(Failure::TimeLimit(Clock::Cpu)), "{run:?}");
    assert!(run.cpu > SHORT.cpu, "{run:?}");
    assert_eq!(run.time(), run.cpu);
}

#[test]
fn rejected_input_keeps_line_and_column() {
    let run = run_in_process(rejects, b"1\n2 3".to_vec(), LIMIT);
    assert_eq!(
        run.failure,
        Some(Failure::RejectedInput("line 2, column 1: bad".into()))
    );
}

/// Runs `body` on a thread set up as the pool's workers are: a solver stack.
fn on_worker_thread<T: Send + 'static>(
    watch: &Arc<SolveWatch>,
    body: impl FnOnce(&SolveWatch) -> T + Send + 'static,
) -> thread::JoinHandle<T> {
    let watch = Arc::clone(watch);
    thread::Builder::new()
        .stack_size(SOLVER_STACK)
        .spawn(move || body(&watch))
        .unwrap()
}

#[test]
fn watched_runs_give_the_same_results_and_watch_nothing_between_solves() {
    install_panic_hook();
    let watch = SolveWatch::new();
    let runs = on_worker_thread(&watch, |watch| {
        let echo = run_watched(echo, b"7 8".to_vec(), LIMIT, watch);
        let panic = run_watched(panics, Vec::new(), LIMIT, watch);
        let rejected = run_watched(rejects, b"1\n2 3".to_vec(), LIMIT, watch);
        let deep = run_watched(
            deep,
            Vec::new(),
            TimeLimits::cpu(Duration::from_secs(30)),
            watch,
        );
        [echo, panic, rejected, deep]
    })
    .join()
    .unwrap();
    let [echo, panic, rejected, deep] = runs;
    assert_eq!((echo.output, echo.failure), (b"7 8".to_vec(), None));
    assert!(matches!(panic.failure, Some(Failure::Panicked(m)) if m.contains("boom 42")));
    assert_eq!(
        rejected.failure,
        Some(Failure::RejectedInput("line 2, column 1: bad".into()))
    );
    assert_eq!((deep.output, deep.failure), (b"50000".to_vec(), None));
    assert_eq!(watch.overdue(), None);
}

#[test]
fn a_watched_solver_past_a_limit_shows_as_overdue_by_that_limit() {
    let cases = [
        (spins as SolveFn, BLOCKED, Clock::Wall),
        (computes, SHORT, Clock::Cpu),
    ];
    for (solve, limits, by) in cases {
        let watch = SolveWatch::new();
        let _abandoned = on_worker_thread(&watch, move |watch| {
            run_watched(solve, Vec::new(), limits, watch)
        });
        let started = Instant::now();
        let overrun = loop {
            if let Some(overrun) = watch.overdue() {
                break overrun;
            }
            assert!(started.elapsed() < Duration::from_secs(60), "never overdue");
            thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(overrun.by, by, "{overrun:?}");
        match by {
            Clock::Cpu => assert!(overrun.cpu > limits.cpu, "{overrun:?}"),
            Clock::Wall => assert!(overrun.wall > limits.wall, "{overrun:?}"),
        }
    }
}

#[test]
fn solvers_get_a_large_stack() {
    let run = run_in_process(deep, Vec::new(), TimeLimits::cpu(Duration::from_secs(30)));
    assert_eq!(run.failure, None);
    assert_eq!(run.output, b"50000");
}
