//! One plan, through the real binary: a Kattis package in the fixtures root is the same problem
//! to `check`, `list` and `verify`: it is read once, and its cases are judged as `verify` judges
//! them, by the checker their group's flags make.

use crate::common;

use std::mem::MaybeUninit;
use std::path::Path;

use crate::reports::json_lines;
use common::{closing_line, code, dump, stdout, verdict_of, Project};
use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};

/// What `quotient.py` prints: the quotient of the two numbers of its input, to 9 decimals.
const QUOTIENT: &str = "a, b = map(int, input().split())\nprint(f'{a / b:.9f}')\n";

/// A 2023-07 package `mixed` in the fixtures root judged by the default output validator: the
/// group `secret/exact` with no flags (tokens as written), `secret/loose` with a float tolerance
/// of 1e-3; `quotient.py` its accepted submission. The path of a copy of that program outside.
fn mixed(project: &Project) -> String {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Mixed\nlimits:\n  time_limit: 2\n",
        ),
        // 1/3 to 9 decimals is the answer as written.
        ("data/secret/exact/1.in", "1 3\n"),
        ("data/secret/exact/1.ans", "0.333333333\n"),
        // 2/3 to 9 decimals is 0.666666667: within 1e-3, but not the answer as written.
        ("data/secret/exact/2.in", "2 3\n"),
        ("data/secret/exact/2.ans", "0.666666666\n"),
        (
            "data/secret/loose/test_group.yaml",
            "output_validator_args: [float_tolerance, 1e-3]\n",
        ),
        // 22/7 to 9 decimals is 3.142857143: within 1e-3 of the answer.
        ("data/secret/loose/1.in", "22 7\n"),
        ("data/secret/loose/1.ans", "3.142857142857\n"),
        ("submissions/accepted/quotient.py", QUOTIENT),
    ];
    for (path, text) in files {
        project.file(&format!("fixtures/mixed/{path}"), text);
    }
    let program = project.file("quotient.py", QUOTIENT);
    program.display().to_string()
}

#[test]
fn check_judges_each_group_of_a_package_by_its_own_flags_as_verify_does() {
    let project = Project::new();
    let program = mixed(&project);
    let checked = project.grundy(&["check", "mixed", "-v", "--exec", &program]);
    assert_eq!(code(&checked), 1, "{}", dump(&checked));
    assert_eq!(
        closing_line(&checked),
        "2 passed, 1 failed",
        "{}",
        dump(&checked)
    );
    assert_eq!(verdict_of(&checked, "mixed/secret/exact/1"), "AC");
    assert_eq!(verdict_of(&checked, "mixed/secret/exact/2"), "WA");
    assert_eq!(verdict_of(&checked, "mixed/secret/loose/1"), "AC");
    // `list` says the flags differ by group.
    let listed = project.grundy(&["list", "mixed"]);
    assert_eq!(code(&listed), 0, "{}", dump(&listed));
    assert!(
        stdout(&listed).contains("kattis-default, flags per group"),
        "{}",
        dump(&listed)
    );
}

/// How often `file` was opened while `run` ran (inotify's IN_OPEN; every open is followed by
/// its close, so no two opens are one event).
fn opens_of(file: &Path, run: impl FnOnce()) -> usize {
    let watch = inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK).unwrap();
    inotify::add_watch(&watch, file, WatchFlags::OPEN | WatchFlags::CLOSE_NOWRITE).unwrap();
    run();
    let mut buffer = [MaybeUninit::<u8>::uninit(); 1 << 16];
    let mut events = inotify::Reader::new(&watch, &mut buffer);
    let mut opens = 0;
    while let Ok(event) = events.next() {
        opens += usize::from(event.events().contains(ReadFlags::OPEN));
    }
    opens
}

#[test]
fn check_and_list_read_a_package_once() {
    let project = Project::new();
    let program = mixed(&project);
    let package = project.path().join("fixtures/mixed");
    for args in [
        &["check", "mixed", "--exec", &program][..],
        &["list", "mixed"],
        &["list", "--cases"],
        &["validate", "mixed"],
    ] {
        // (The folder `data/` itself is opened by the sandbox too, which hides it from the
        // program judged.)
        for file in ["problem.yaml", "data/secret/loose/test_group.yaml"] {
            let opens = opens_of(&package.join(file), || {
                let output = project.grundy(args);
                assert!(
                    [0, 1].contains(&code(&output)),
                    "{args:?}\n{}",
                    dump(&output)
                );
            });
            assert_eq!(opens, 1, "{args:?} opened {file} {opens} times");
        }
    }
}

/// A 2023-07 package `hello` in the fixtures root that fixes no time limit, its limit computed
/// from `hello.py`, its accepted submission (a run of far under half a second of CPU time: 1 s
/// by the format's rule, × 2 rounded up to a whole second), unless `accepted` is false. The
/// path of a copy of that program outside.
fn untimed(project: &Project, accepted: bool) -> String {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Hello\n",
        ),
        ("data/secret/1.in", "\n"),
        ("data/secret/1.ans", "Hello\n"),
    ];
    for (path, text) in files {
        project.file(&format!("fixtures/hello/{path}"), text);
    }
    let folder = match accepted {
        true => "accepted",
        false => "wrong_answer",
    };
    let submission = format!("fixtures/hello/submissions/{folder}/hello.py");
    project.file(&submission, "print('Hello')\n");
    let program = project.file("hello.py", "print('Hello')\n");
    program.display().to_string()
}

/// `grundy ARGS` in the project, its build cache (and the timings kept there) the project's own.
fn grundy(project: &Project, args: &[&str]) -> std::process::Output {
    let mut command = project.command(args);
    command.env_remove("CARGO_TARGET_DIR");
    command.output().expect("the grundy binary runs")
}

/// The time limit `check --slowest 1` gives the one case `case`, in milliseconds.
fn limit_of(output: &std::process::Output, case: &str) -> String {
    let text = stdout(output);
    let line = text
        .lines()
        .find(|line| line.ends_with(&format!("  {case} AC")))
        .unwrap_or_else(|| panic!("no slowest line of {case}\n{}", dump(output)));
    let (_, limit) = line
        .split_once(" ms of ")
        .expect("a case judged with a limit");
    limit.split_whitespace().next().unwrap().to_string()
}

/// The TIME column of `problem` in `grundy list`.
fn listed_time(project: &Project, problem: &str) -> String {
    let listed = grundy(project, &["list"]);
    assert_eq!(code(&listed), 0, "{}", dump(&listed));
    let text = stdout(&listed);
    let row = text
        .lines()
        .find(|line| line.starts_with(&format!("{problem} ")))
        .unwrap_or_else(|| panic!("no row of {problem}\n{text}"));
    row.split_whitespace().nth(2).unwrap().to_string()
}

#[test]
fn a_package_that_fixes_no_time_limit_is_judged_at_its_computed_limit_by_every_command() {
    let project = Project::new();
    let program = untimed(&project, true);
    // Nothing timed yet: `list` says the limit is to be computed.
    assert_eq!(listed_time(&project, "hello"), "?");
    // `check` times the accepted submission, as `verify` does, and says so.
    let args = ["check", "hello", "--exec", &program, "--slowest", "1"];
    let checked = grundy(&project, &args);
    assert_eq!(code(&checked), 0, "{}", dump(&checked));
    assert!(
        common::stderr(&checked).contains("`hello` fixes no time limit"),
        "{}",
        dump(&checked)
    );
    assert_eq!(limit_of(&checked, "hello/secret/1"), "1000");
    // The timing is kept: `list` shows the limit, and `check` judges with it without timing.
    assert_eq!(listed_time(&project, "hello"), "1000ms");
    let again = grundy(&project, &args);
    assert_eq!(limit_of(&again, "hello/secret/1"), "1000");
    assert!(
        !common::stderr(&again).contains("fixes no time limit"),
        "{}",
        dump(&again)
    );
    // `verify` computes the same limit.
    let verified = project.verify(&["fixtures/hello"]);
    assert_eq!(code(&verified), 0, "{}", dump(&verified));
    assert!(
        stdout(&verified)
            .contains("time limit: 1s (computed: the slowest accepted run × 2, rounded up to 1s)"),
        "{}",
        dump(&verified)
    );
    // The flag wins over all.
    let flagged = grundy(
        &project,
        &[
            "check",
            "hello",
            "--exec",
            &program,
            "--slowest",
            "1",
            "--time-limit",
            "3000",
        ],
    );
    assert_eq!(limit_of(&flagged, "hello/secret/1"), "3000");
}

#[test]
fn timelimit_times_what_check_judges_with_and_a_package_with_nothing_to_time_has_no_limit() {
    let project = Project::new();
    let program = untimed(&project, true);
    let timed = grundy(&project, &["timelimit", "fixtures/hello", "--runs", "1"]);
    assert_eq!(code(&timed), 0, "{}", dump(&timed));
    assert!(
        stdout(&timed).contains("time limit: 1s"),
        "{}",
        dump(&timed)
    );
    assert_eq!(listed_time(&project, "hello"), "1000ms");
    let args = ["check", "hello", "--exec", &program, "--slowest", "1"];
    let checked = grundy(&project, &args);
    assert_eq!(limit_of(&checked, "hello/secret/1"), "1000");
    assert!(
        !common::stderr(&checked).contains("fixes no time limit"),
        "timed by timelimit already\n{}",
        dump(&checked)
    );

    // No accepted submission: no limit to judge with but the flag's.
    let bare = Project::new();
    let program = untimed(&bare, false);
    assert_eq!(listed_time(&bare, "hello"), "none");
    let checked = grundy(&bare, &["check", "hello", "-v", "--exec", &program]);
    assert_eq!(code(&checked), 1, "{}", dump(&checked));
    assert_eq!(verdict_of(&checked, "hello/secret/1"), "JE");
    assert!(
        stdout(&checked).contains("package hello: no time limit"),
        "{}",
        dump(&checked)
    );
    let flagged = grundy(
        &bare,
        &["check", "hello", "--exec", &program, "--time-limit", "1000"],
    );
    assert_eq!(code(&flagged), 0, "{}", dump(&flagged));
}

/// `hello` (made by [`untimed`]) given a `generators.yaml` whose solution is its submission in
/// `folder`, and its generator; then `grundy stress` of `program` on it, two cases, with `more`.
fn stress(project: &Project, folder: &str, program: &str, more: &[&str]) -> std::process::Output {
    let plan = format!(
        "solution: /submissions/{folder}/hello.py\ndata:\n  secret:\n    data:\n      random:\n        \
         generate: gen.py {{seed}}\n"
    );
    project.file("fixtures/hello/generators/generators.yaml", &plan);
    project.file("fixtures/hello/generators/gen.py", "print()\n");
    let args = [
        "stress",
        "fixtures/hello",
        "--exec",
        program,
        "--cases",
        "2",
    ];
    grundy(project, &[&args[..], more].concat())
}

#[test]
fn stress_judges_a_package_at_the_limit_the_other_commands_judge_it_at() {
    let project = Project::new();
    let program = untimed(&project, true);
    let checked = grundy(&project, &["check", "hello", "--exec", &program]);
    assert_eq!(code(&checked), 0, "{}", dump(&checked));
    // `check` timed the accepted submission: `stress` judges with the limit it kept.
    let stressed = stress(&project, "accepted", &program, &[]);
    assert_eq!(code(&stressed), 0, "{}", dump(&stressed));
    assert!(
        !common::stderr(&stressed).contains("fixes no time limit"),
        "timed by check already\n{}",
        dump(&stressed)
    );

    // No accepted submission: no limit to stress with but the flag's.
    let bare = Project::new();
    let program = untimed(&bare, false);
    let refused = stress(&bare, "wrong_answer", &program, &[]);
    assert_eq!(code(&refused), 2, "{}", dump(&refused));
    assert!(
        common::stderr(&refused).contains("`fixtures/hello` has no time limit"),
        "{}",
        dump(&refused)
    );
    let flagged = stress(&bare, "wrong_answer", &program, &["--time-limit", "1000"]);
    assert_eq!(code(&flagged), 0, "{}", dump(&flagged));
}

/// Without a limit `verify` judges none of a package's submissions, and each one's row says
/// why, in the words the plan's `check` uses for its cases.
#[test]
fn verify_skips_each_submission_of_a_package_without_a_time_limit_and_says_why() {
    let project = Project::new();
    untimed(&project, false);
    let verified = grundy(&project, &["verify", "fixtures/hello", "--format", "json"]);
    let (rows, _) = common::verify_json(&verified);
    let wrong = common::row(&rows, "wrong_answer/hello.py");
    let skipped = wrong["skipped"].as_str().unwrap_or_default();
    assert!(
        skipped.starts_with("skipped: no time limit: "),
        "{wrong}\n{}",
        dump(&verified)
    );
    assert_eq!(wrong["verdict"], serde_json::Value::Null, "{wrong}");
}

/// The runner.toml of a project whose package is judged under it: its judge's time limit (which
/// no package format fixes) applies to a package's cases; its memory and output limits do not
/// (the package fixes its own), nor does its interactor ([`under_runner_toml`] adds one).
const RUNNER: &str = "judge_time_limit_ms = 7000\nmemory_limit_mb = 300\noutput_limit_mb = 40\n";

/// What `limits.sh` prints: the memory limit it runs under (RLIMIT_AS, in KiB).
const PRINTS_ITS_MEMORY_LIMIT: &str = "read line\nulimit -v\n";

/// An output validator that accepts the answer only while its own CPU limit is runner.toml's
/// judge time (7 s; grundy's default is 30 s), and says what it saw otherwise.
const JUDGE_UNDER_RUNNER_TOML: &str = "got=$(cat)\n\
    if [ \"$got\" = \"$(cat \"$2\")\" ] && [ \"$(ulimit -t)\" -lt 20 ]; then exit 42; fi\n\
    echo \"got $got; the judge's CPU limit $(ulimit -t) s\" > \"$3/judgemessage.txt\"\n\
    exit 43\n";

/// A project with [`RUNNER`] and an interactor that rejects every program at once (the built-in
/// problems', not a package's, which brings its own or none), and a 2023-07 package `limits` in
/// its fixtures root fixing 2 s, 100 MiB and 3 MiB, judged by [`JUDGE_UNDER_RUNNER_TOML`], its
/// one case answered by 100 MiB in KiB and its accepted submission `limits.sh` printing its
/// memory limit. The path of a copy of that program outside.
fn under_runner_toml(project: &Project) -> String {
    let rejecting = common::judge_command("interact-reject-at-once");
    let interactor = format!("interactor = \"kattis:{rejecting}\"\n");
    project.file("runner.toml", format!("{RUNNER}{interactor}"));
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Limits\nlimits:\n  time_limit: 2\n  \
             memory: 100\n  output: 3\n",
        ),
        ("data/secret/1.in", "\n"),
        ("data/secret/1.ans", "102400\n"),
        ("output_validator/judge.sh", JUDGE_UNDER_RUNNER_TOML),
        ("submissions/accepted/limits.sh", PRINTS_ITS_MEMORY_LIMIT),
    ];
    for (path, text) in files {
        project.file(&format!("fixtures/limits/{path}"), text);
    }
    let program = project.file("limits.sh", PRINTS_ITS_MEMORY_LIMIT);
    program.display().to_string()
}

#[test]
fn list_check_and_verify_judge_a_package_under_the_same_settings_from_runner_toml_and_flags() {
    let project = Project::new();
    let program = under_runner_toml(&project);
    // `list`: the package's memory and output limits, not runner.toml's.
    let listed = project.grundy(&["list", "limits", "--format", "json"]);
    assert_eq!(code(&listed), 0, "{}", dump(&listed));
    let lines = json_lines(&listed);
    let row = lines.iter().find(|line| line["problem"] == "limits");
    let row = row.unwrap_or_else(|| panic!("no line of limits\n{}", dump(&listed)));
    assert_eq!(row["memory_limit_mib"], 100, "{row}");
    assert_eq!(row["output_limit_mib"], 3, "{row}");
    assert_eq!(row["time_limit_ms"], 2000.0, "{row}");
    // `check` and `verify`: the program sees the package's memory limit, the judge
    // runner.toml's time, the package's own judge and no interactor judges it, and the time
    // limit is the flag's.
    let args = ["--time-limit", "1500", "--format", "json"];
    let checked = project.grundy(
        &[
            &["check", "limits", "--exec", &program, "--slowest", "1"][..],
            &args,
        ]
        .concat(),
    );
    assert_eq!(code(&checked), 0, "{}", dump(&checked));
    let lines = json_lines(&checked);
    let case = lines.iter().find(|line| line["case"] == "limits/secret/1");
    assert_eq!(
        case.map(|case| &case["verdict"]),
        Some(&"AC".into()),
        "{}",
        dump(&checked)
    );
    let summary = lines.last().unwrap();
    assert_eq!(summary["slowest"][0]["time_limit_ms"], 1500.0, "{summary}");
    let verified = project.verify(&[&["fixtures/limits"][..], &args].concat());
    assert_eq!(code(&verified), 0, "{}", dump(&verified));
    let (rows, _) = common::verify_json(&verified);
    let row = common::row(&rows, "accepted/limits.sh");
    assert_eq!(row["verdict"], "AC", "{row}\n{}", dump(&verified));
    let lines = json_lines(&verified);
    let heading = lines.iter().find(|line| line["type"] == "heading");
    let heading = heading.unwrap_or_else(|| panic!("no heading\n{}", dump(&verified)));
    assert_eq!(heading["time_limit_ms"], 1500.0, "{heading}");
    // A flag wins over the package: the program sees the flag's memory limit.
    let flagged = project.grundy(&[
        "check",
        "limits",
        "--exec",
        &program,
        "--memory-limit",
        "150",
        "--format",
        "json",
    ]);
    assert_eq!(code(&flagged), 1, "{}", dump(&flagged));
    let lines = json_lines(&flagged);
    let case = lines
        .iter()
        .find(|line| line["case"] == "limits/secret/1")
        .unwrap();
    assert_eq!(case["verdict"], "WA", "{case}");
    let message = case["message"].as_str().unwrap_or_default();
    assert!(message.contains("got 153600; "), "{case}");
}
