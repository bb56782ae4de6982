use super::*;
use crate::files::beneath::TreePath;

fn invalid_case() -> Case {
    Case::fixture(
        "nim/invalid/x".into(),
        "nim".into(),
        TreePath::in_memory("fixtures/nim/invalid/x.in"),
        Some(TreePath::in_memory("fixtures/nim/invalid/x.err")),
    )
}

fn rejected(message: &str) -> Run {
    Run {
        failure: Some(Failure::RejectedInput(message.into())),
        ..Run::default()
    }
}

/// `judge` with the tokens checker and a case input nobody reads.
fn judged(case: Case, run: &Run, expected: Option<&[u8]>) -> CaseResult {
    let limits = Limits {
        time: Duration::from_secs(1),
        wall: Duration::from_secs(3),
        memory_bytes: 0,
        output_bytes: 0,
    };
    let against = Against {
        input: Input::Bytes(b""),
        expected,
        checker: &Checker::TOKENS,
        judge_limits: &limits,
        feedback: None,
        submission_files: None,
    };
    judge(case, run, &against)
}

const MESSAGE: &str = "line 2, column 3: expected heap size (a non-negative integer), found `x`";

#[test]
fn an_invalid_input_passes_when_rejected_with_exactly_the_expected_message() {
    let expected = format!("{MESSAGE}\n");
    let result = judged(
        invalid_case(),
        &rejected(MESSAGE),
        Some(expected.as_bytes()),
    );
    assert_eq!((result.verdict, result.message), (Verdict::AC, None));
}

#[test]
fn accepting_an_invalid_input_or_another_message_is_a_wrong_answer() {
    let accepted = Run {
        output: b"win\n".to_vec(),
        ..Run::default()
    };
    let result = judged(invalid_case(), &accepted, Some(MESSAGE.as_bytes()));
    assert_eq!(result.verdict, Verdict::WA);
    assert!(
        result.message.as_deref().unwrap().contains("was accepted"),
        "{:?}",
        result.message
    );
    let other = "line 2, column 4: something else";
    let result = judged(invalid_case(), &rejected(other), Some(MESSAGE.as_bytes()));
    assert_eq!(result.verdict, Verdict::WA);
    let message = result.message.unwrap();
    assert!(
        message.contains(MESSAGE) && message.contains(other),
        "{message}"
    );
    assert!(result.diff.is_some());
}

#[test]
fn external_programs_reject_with_a_failing_status_and_the_message_on_stderr() {
    let run = |stderr: &str| Run {
        failure: Some(Failure::ExitCode(1)),
        stderr: stderr.as_bytes().to_vec(),
        ..Run::default()
    };
    let good = format!("error: <stdin>: {MESSAGE}\n");
    let result = judged(invalid_case(), &run(&good), Some(MESSAGE.as_bytes()));
    assert_eq!(result.verdict, Verdict::AC);
    let result = judged(
        invalid_case(),
        &run("Traceback ...\n"),
        Some(MESSAGE.as_bytes()),
    );
    assert_eq!(result.verdict, Verdict::WA);
}

#[test]
fn panics_and_timeouts_keep_their_verdicts_and_a_missing_err_file_is_noexp() {
    let timeout = Run {
        failure: Some(Failure::TimeLimit(Clock::Cpu)),
        ..Run::default()
    };
    let result = judged(invalid_case(), &timeout, Some(MESSAGE.as_bytes()));
    assert_eq!(result.verdict, Verdict::TLE);
    let mut case = invalid_case();
    case.expected = None;
    let result = judged(case, &rejected(MESSAGE), None);
    assert_eq!(result.verdict, Verdict::NOEXP);
    assert!(
        result.message.as_deref().unwrap().contains("x.err"),
        "{:?}",
        result.message
    );
}

/// `judge_passes` over a problem of `passes` passes where the judge of pass `k` (1-based)
/// decides `verdicts[k - 1]` and asks for another pass while `k < asks`; each pass takes `k`
/// × 10 ms, pass 2 takes 50 ms. Returns the result and each pass's input.
fn passes(passes: u64, verdicts: &[Verdict], asks: usize) -> (CaseResult, Vec<String>) {
    let mut inputs = vec![];
    let result = judge_passes(passes, Input::Bytes(b"first"), |input, feedback| {
        inputs.push(String::from_utf8(input.read().unwrap().into_owned()).unwrap());
        let k = inputs.len();
        assert_eq!(feedback.is_some(), passes > 1);
        if let Some(feedback) = feedback {
            let next = format!("pass {}", k + 1);
            let files: &[(&str, &[u8])] = if k < asks {
                &[(NEXT_PASS, next.as_bytes())]
            } else {
                &[]
            };
            feedback.left(files, 42).unwrap();
        }
        let verdict = verdicts[k - 1];
        let message = (!verdict.passed()).then(|| "wrong".to_string());
        let mut result = CaseResult::new(invalid_case(), verdict, message);
        result.time = Duration::from_millis(if k == 2 { 50 } else { k as u64 * 10 });
        result.peak_memory_bytes = Some(k as u64);
        Ok(result)
    })
    .unwrap();
    (result, inputs)
}

#[test]
fn each_pass_reads_what_the_judge_left_and_the_slowest_pass_is_the_cases_time() {
    let (result, inputs) = passes(3, &[Verdict::AC; 3], 3);
    assert_eq!((result.verdict, result.message), (Verdict::AC, None));
    assert_eq!(inputs, ["first", "pass 2", "pass 3"]);
    assert_eq!(result.time, Duration::from_millis(50));
    assert_eq!(result.peak_memory_bytes, Some(3));
    // A judge that asks for no other pass ends the case, however many it may have.
    let (result, inputs) = passes(5, &[Verdict::AC; 5], 1);
    assert_eq!((result.verdict, inputs.len()), (Verdict::AC, 1));
}

#[test]
fn a_failed_pass_ends_the_case_and_says_which_pass() {
    let (result, inputs) = passes(3, &[Verdict::AC, Verdict::WA, Verdict::AC], 3);
    assert_eq!(result.verdict, Verdict::WA);
    assert_eq!(result.message.as_deref(), Some("pass 2: wrong"));
    assert_eq!(inputs.len(), 2);
    // One pass: the case is the pass, as it always was.
    let (result, _) = passes(1, &[Verdict::TLE], 1);
    assert_eq!(result.message.as_deref(), Some("wrong"));
    assert_eq!(result.time, Duration::from_millis(10));
}

#[test]
fn asking_for_a_pass_beyond_the_last_is_a_judge_error() {
    let (result, inputs) = passes(2, &[Verdict::AC; 2], 3);
    assert_eq!((result.verdict, inputs.len()), (Verdict::JE, 2));
    let message = result.message.unwrap();
    assert!(
        message.contains("nextpass.in in pass 2, the last the problem allows")
            && message.contains("a judge error"),
        "{message}"
    );
}

#[test]
fn a_crash_keeps_the_start_of_what_it_printed_escaped() {
    let case = Case::fixture(
        "nim/a".into(),
        "nim".into(),
        TreePath::in_memory("fixtures/nim/a.in"),
        Some(TreePath::in_memory("fixtures/nim/a.out")),
    );
    let mut output = b"win\n\x1b[2J".to_vec();
    output.extend(std::iter::repeat_n(b'x', 3 * STDOUT_SHOWN));
    let crash = Run {
        failure: Some(Failure::Signal("SIGSEGV".into())),
        output,
        ..Run::default()
    };
    let result = judged(case.clone(), &crash, Some(b"win\nlose\n"));
    assert_eq!(result.verdict, Verdict::RE);
    let stdout = result.stdout.expect("what it printed");
    assert!(stdout.starts_with("win\n\\x1b[2J"), "{stdout}");
    assert!(stdout.len() < 2 * STDOUT_SHOWN, "cut: {}", stdout.len());
    let silent = Run {
        failure: Some(Failure::Signal("SIGSEGV".into())),
        ..Run::default()
    };
    assert_eq!(judged(case, &silent, None).stdout, None);
}

#[test]
fn only_a_small_input_is_kept_whole() {
    let dir = tempfile::tempdir().unwrap();
    let tree =
        crate::files::beneath::Tree::open(dir.path(), crate::files::beneath::Scope::Fixtures)
            .unwrap();
    let case_of = |name: &str, text: &str| {
        std::fs::write(dir.path().join(format!("{name}.in")), text).unwrap();
        Case::fixture(
            format!("nim/{name}"),
            "nim".into(),
            tree.join(format!("{name}.in")),
            None,
        )
    };
    assert_eq!(
        small_input(&case_of("small", "3\n1 2 3\n")).as_deref(),
        Some("3\n1 2 3\n")
    );
    let lines = "1\n".repeat(SMALL_INPUT_LINES + 1);
    assert_eq!(small_input(&case_of("tall", &lines)), None);
    let wide = "7 ".repeat(SMALL_INPUT_BYTES as usize);
    assert_eq!(small_input(&case_of("wide", &wide)), None);
}

#[test]
fn an_interactive_program_stopped_by_the_wall_clock_idle_is_asked_whether_it_flushed() {
    let case = Case::fixture(
        "test-guess/play".into(),
        "test-guess".into(),
        TreePath::in_memory("fixtures/test-guess/play.in"),
        Some(TreePath::in_memory("fixtures/test-guess/play.out")),
    );
    let stopped = |cpu_ms: u64| {
        let now = std::time::Instant::now();
        let run = InteractiveRun {
            program: Run {
                cpu: Duration::from_millis(cpu_ms),
                wall: Duration::from_millis(1000),
                failure: Some(Failure::TimeLimit(Clock::Wall)),
                ..Run::default()
            },
            program_ended: Some(now),
            judge: Judgement::WrongAnswer("the program's output ended".into()),
            judge_ended: now,
            program_silent_past_limit: false,
            transcript: Default::default(),
        };
        judge_interactive(case.clone(), &run)
    };
    // Under a tenth of the wall time in CPU: it was waiting.
    let idle = stopped(99);
    assert_eq!(
        (idle.verdict, idle.stopped_by),
        (Verdict::TLE, Some(Clock::Wall))
    );
    let message = idle.message.unwrap();
    assert!(message.contains("flush after every line"), "{message}");
    // More: it computed, on a machine too busy to give it a core.
    let busy = stopped(100).message.unwrap();
    assert!(
        !busy.contains("flush") && busy.contains("too busy"),
        "{busy}"
    );
}

#[test]
fn a_given_output_is_judged_by_the_checker_as_a_runs_would_be() {
    let case = Case::of_package(
        "p/valid_output/a".into(),
        "p".into(),
        TreePath::in_memory("p/data/valid_output/a.in"),
        Some(TreePath::in_memory("p/data/valid_output/a.ans")),
    );
    let trial = Trial {
        case: &case,
        built_in: None,
        input: Input::Bytes(b"1 2\n"),
        expected: Some(b"3\n"),
    };
    let limits = crate::limits::Limits::default().judge();
    let given = |output: &[u8]| judge_given(trial, &Checker::TOKENS, &limits, output.to_vec());
    assert_eq!(given(b"  3 \n").verdict, Verdict::AC);
    let wrong = given(b"4\n");
    assert_eq!(wrong.verdict, Verdict::WA);
    assert!(
        wrong.diff.is_some(),
        "a comparing checker's rejection shows its diff"
    );
}
