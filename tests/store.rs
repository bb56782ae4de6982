//! Writes into the fixtures root survive SIGKILL and concurrent writers: `add`, `gen` and
//! `check --bless` killed at spread-out moments leave every case whole or absent and nothing
//! behind once the next run has recovered; racing writers never clobber, never fail on a name
//! they chose themselves and never leave a layout error; case files that are not regular files
//! are layout errors and never replaced.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// Kills per loop: enough to land in every stage of a write many times over, few enough for a
/// loaded two-core machine.
const KILLS: usize = 50;

/// The grundy binary, started directly so it can be killed.
fn spawn(project: &Project, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .current_dir(project.path())
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grundy binary starts")
}

/// Runs grundy and kills it with SIGKILL after `delay` (if it is still running); true when the
/// kill cut it short.
fn run_and_kill(project: &Project, args: &[&str], delay: Duration) -> bool {
    let mut child = spawn(project, args);
    std::thread::sleep(delay);
    let _ = child.kill(); // SIGKILL
    let status = child.wait().expect("grundy is reaped");
    status.code().is_none()
}

/// How long one uninterrupted run of `args` takes here (kills are spread over a bit more than
/// that, so they land from start-up to the last rename, whatever the machine's speed).
fn spread(project: &Project, args: &[&str]) -> Duration {
    let started = Instant::now();
    let output = spawn(project, args).wait_with_output().unwrap();
    assert!(output.status.code().is_some(), "{}", dump(&output));
    (started.elapsed() * 3 / 2).max(Duration::from_millis(2))
}

/// A fixed-seed xorshift: the kill moments repeat from run to run.
struct Moments(u64);

impl Moments {
    fn within(&mut self, spread: Duration) -> Duration {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        spread.mul_f64((self.0 % 10_000) as f64 / 10_000.0)
    }
}

/// Every entry below `dir` whose name starts with `.grundy`: temporary files and the journal.
fn leftovers(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with(".grundy")
        {
            found.push(path.display().to_string());
        } else if path.symlink_metadata().unwrap().is_dir() {
            found.extend(leftovers(&path));
        }
    }
    found
}

/// Case stem (below `fixtures/`, without extension) -> the extensions of its files.
fn cases(project: &Project) -> BTreeMap<String, Vec<String>> {
    let mut stems: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in tree(&project.path().join("fixtures")) {
        let (stem, extension) = file.rsplit_once('.').unwrap();
        stems
            .entry(stem.to_string())
            .or_default()
            .push(extension.to_string());
    }
    stems
}

/// The next grundy run recovers: `check` never exits 2, and nothing of an interrupted write is
/// left behind.
fn recovered(project: &Project) -> std::process::Output {
    let output = project.grundy(&["check", "-q"]);
    assert_ne!(code(&output), 2, "{}", dump(&output));
    let left = leftovers(project.path());
    assert!(left.is_empty(), "{left:?}");
    output
}

/// Runs `grundy <command(n)>` (words split at spaces), which writes the new case
/// `fixtures/<stem(n)>`, [`KILLS`] times, killing it at spread-out moments (n = 0, 1, ...). After
/// each kill and the next run's recovery the case has exactly the files `extensions` or none,
/// and then nothing stands in the way of writing it.
fn kill_case_writers(
    project: &Project,
    seed: u64,
    command: impl Fn(usize) -> String,
    stem: impl Fn(usize) -> String,
    extensions: &[&str],
) {
    let calibration = command(KILLS);
    let spread = spread(project, &calibration.split(' ').collect::<Vec<_>>());
    let mut moments = Moments(seed);
    let mut cut_short = 0;
    for kill in 0..KILLS {
        let line = command(kill);
        let args: Vec<&str> = line.split(' ').collect();
        cut_short += usize::from(run_and_kill(project, &args, moments.within(spread)));
        recovered(project);
        match cases(project).get(&stem(kill)).map(Vec::as_slice) {
            None => {
                let output = project.grundy(&args);
                assert_eq!(code(&output), 0, "kill {kill}\n{}", dump(&output));
            }
            Some(files) => assert_eq!(files, extensions, "kill {kill}"),
        }
    }
    assert!(cut_short > 0, "no run was cut short");
}

#[test]
fn add_killed_at_any_moment_leaves_the_case_whole_or_absent() {
    let project = Project::new();
    let (input, expected) = powers_case(&[1, 2, 3, 4, 5, 6, 7]);
    project.file("case.txt", &input);
    let add = |n: usize| format!("add powers-of-two k{n} --input case.txt");
    kill_case_writers(
        &project,
        0x5eed_0001,
        add,
        |n| format!("powers-of-two/k{n}"),
        &["in", "out"],
    );
    for n in 0..=KILLS {
        assert_eq!(
            project.read(&format!("fixtures/powers-of-two/k{n}.in")),
            input
        );
        assert_eq!(
            project.read(&format!("fixtures/powers-of-two/k{n}.out")),
            expected
        );
    }
    let output = recovered(&project);
    assert_eq!(code(&output), 0, "{}", dump(&output));
}

#[test]
fn gen_killed_at_any_moment_leaves_input_output_and_recipe_together_or_none() {
    let project = Project::new();
    let gen = |n: usize| format!("gen s-nim g{n} --seed {n} --scale 300");
    kill_case_writers(
        &project,
        0x5eed_0002,
        gen,
        |n| format!("s-nim/g{n}"),
        &["gen", "in", "out"],
    );
    for n in 0..=KILLS {
        let recipe = project.read(&format!("fixtures/s-nim/g{n}.gen"));
        assert_eq!(recipe, format!("grundy {}\n", gen(n)));
    }
    // Every case is whole and right: the brute force's outputs pass the solver.
    let output = recovered(&project);
    assert_eq!(code(&output), 0, "{}", dump(&output));
}

#[test]
fn bless_killed_at_any_moment_leaves_each_expected_file_old_or_new_never_torn() {
    let project = Project::new();
    let ns: Vec<Vec<u32>> = (0..16)
        .map(|i| (1..=200).map(|n| n * 7 + i).collect())
        .collect();
    // Odd cases have a wrong expected file, even ones none.
    let reset = || {
        for (i, case) in ns.iter().enumerate() {
            let (input, _) = powers_case(case);
            project.file(&format!("fixtures/powers-of-two/c{i}.in"), &input);
            let out = project
                .path()
                .join(format!("fixtures/powers-of-two/c{i}.out"));
            if i % 2 == 1 {
                std::fs::write(&out, "Kiki\n").unwrap();
            } else {
                let _ = std::fs::remove_file(&out);
            }
        }
    };
    reset();
    let spread = spread(&project, &["check", "--bless", "-q"]);
    let mut moments = Moments(0x5eed_0003);
    let mut cut_short = 0;
    for kill in 0..KILLS {
        reset();
        cut_short += usize::from(run_and_kill(
            &project,
            &["check", "--bless", "-q"],
            moments.within(spread),
        ));
        recovered(&project);
        for (i, case) in ns.iter().enumerate() {
            let (_, right) = powers_case(case);
            let out = project
                .path()
                .join(format!("fixtures/powers-of-two/c{i}.out"));
            match std::fs::read_to_string(&out) {
                Ok(text) => assert!(
                    text == right || (i % 2 == 1 && text == "Kiki\n"),
                    "kill {kill}: c{i}.out is torn: {text:?}"
                ),
                Err(_) => assert_eq!(i % 2, 0, "kill {kill}: c{i}.out vanished"),
            }
        }
    }
    assert!(cut_short > 0, "no run was cut short");
}

#[test]
fn two_adds_of_one_case_one_wins_and_the_other_says_it_exists() {
    let project = Project::new();
    project.file("one.txt", "1\n");
    project.file("two.txt", "3\n");
    for round in 0..10 {
        let name = format!("same-{round}");
        let racers: Vec<Child> = ["one.txt", "two.txt"]
            .iter()
            .map(|input| spawn(&project, &["add", "powers-of-two", &name, "--input", input]))
            .collect();
        let outputs: Vec<_> = racers
            .into_iter()
            .map(|child| child.wait_with_output().unwrap())
            .collect();
        let codes: Vec<i32> = outputs.iter().map(code).collect();
        let loser = match codes.as_slice() {
            [0, 2] => &outputs[1],
            [2, 0] => &outputs[0],
            _ => panic!("round {round}: {codes:?}\n{}", dump(&outputs[0])),
        };
        assert!(
            stderr(loser).contains("already exists") && stderr(loser).contains(&name),
            "{}",
            dump(loser)
        );
        // Input and expected output come from the same winner.
        let input = project.read(&format!("fixtures/powers-of-two/{name}.in"));
        let expected = project.read(&format!("fixtures/powers-of-two/{name}.out"));
        let n: u32 = input.trim().parse().unwrap();
        assert_eq!(expected, format!("{}\n", powers_answer(n)), "round {round}");
    }
    assert!(leftovers(project.path()).is_empty());
}

#[test]
fn add_racing_bless_never_leaves_an_expected_file_without_input() {
    let project = Project::new();
    let (input, expected) = powers_case(&(1..=20).collect::<Vec<_>>());
    project.file("case.txt", &input);
    for n in 0..6 {
        project.file(&format!("fixtures/powers-of-two/old-{n}.in"), &input);
    }
    // `--bless` starts at spread-out moments of the `add`, so its walk lands before, during and
    // after the write.
    let mut moments = Moments(0x5eed_0004);
    for round in 0..40 {
        let name = format!("new-{round}");
        let add = spawn(
            &project,
            &["add", "powers-of-two", &name, "--input", "case.txt"],
        );
        std::thread::sleep(moments.within(Duration::from_millis(4)));
        let blessed = project.grundy(&["check", "--bless", "-q"]);
        let added = add.wait_with_output().unwrap();
        assert_eq!(code(&added), 0, "round {round}\n{}", dump(&added));
        assert_ne!(code(&blessed), 2, "round {round}\n{}", dump(&blessed));
        assert_eq!(
            project.read(&format!("fixtures/powers-of-two/{name}.out")),
            expected
        );
        let output = recovered(&project);
        assert_eq!(code(&output), 0, "round {round}\n{}", dump(&output));
    }
}

#[test]
fn concurrent_stress_saves_of_one_counterexample_take_the_next_free_names() {
    let project = Project::new();
    let args = [
        "stress",
        "test-wrong-nim",
        "--seed",
        "1",
        "--cases",
        "500",
        "--save",
    ];
    let rounds = 6;
    for round in 0..rounds {
        let runs: Vec<Child> = (0..3).map(|_| spawn(&project, &args)).collect();
        for run in runs {
            let output = run.wait_with_output().unwrap();
            assert_eq!(code(&output), 1, "round {round}\n{}", dump(&output));
            assert!(
                !stderr(&output).contains("already exists"),
                "{}",
                dump(&output)
            );
        }
    }
    // One name per run: the first, then -2, -3, ... with no gap; every case whole.
    let saved = cases(&project);
    let mut names: Vec<&str> = saved.keys().map(String::as_str).collect();
    names.sort_by_key(|name| (name.len(), name.to_string()));
    let first = names[0];
    assert!(
        first.starts_with("test-wrong-nim/stress/seed-1-case-"),
        "{names:?}"
    );
    let expected: Vec<String> = (2..=3 * rounds).map(|n| format!("{first}-{n}")).collect();
    assert_eq!(names[1..], expected, "{names:?}");
    for files in saved.values() {
        assert_eq!(files, &["gen", "in", "out"]);
    }
    let output = project.grundy(&["check", "test-wrong-nim"]);
    assert_eq!(
        closing_line(&output),
        format!("0 passed, {} failed", 3 * rounds),
        "{}",
        dump(&output)
    );
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn case_files_that_are_fifos_or_folders_are_layout_errors_and_never_replaced() {
    let project = Project::new();
    project.powers("fine", &[1]);
    let fifo = project.path().join("fixtures/powers-of-two/piped.out");
    project.file("fixtures/powers-of-two/piped.in", "2\n");
    mkfifo(&fifo);
    for args in [&["check"][..], &["check", "--bless"], &["list", "--cases"]] {
        let output = project.command(args).timeout(NO_HANG).output().unwrap();
        assert_eq!(code(&output), 2, "{args:?}\n{}", dump(&output));
        let message = stderr(&output);
        assert!(
            message.contains("piped.out") && message.contains("FIFO"),
            "{message}"
        );
    }
    // Neither --bless nor add (of a case whose only file is that FIFO) replaced it.
    std::fs::remove_file(project.path().join("fixtures/powers-of-two/piped.in")).unwrap();
    let output = project
        .command(&["add", "powers-of-two", "piped"])
        .write_stdin("2\n")
        .timeout(NO_HANG)
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(stderr(&output).contains("FIFO"), "{}", dump(&output));
    use std::os::unix::fs::FileTypeExt;
    assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
    std::fs::remove_file(&fifo).unwrap();

    // An input that is a FIFO, and a folder named like an input.
    mkfifo(&project.path().join("fixtures/powers-of-two/stuck.in"));
    let output = project
        .command(&["check"])
        .timeout(NO_HANG)
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(stderr(&output).contains("stuck.in"), "{}", dump(&output));
    std::fs::remove_file(project.path().join("fixtures/powers-of-two/stuck.in")).unwrap();
    project.file("fixtures/powers-of-two/group.in/x.in", "1\n");
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("group.in") && stderr(&output).contains("a directory"),
        "{}",
        dump(&output)
    );
}

#[test]
fn hidden_entries_are_ignored_and_stale_temporary_files_swept() {
    let project = Project::new();
    project.powers("fine", &[1]);
    project.file("fixtures/.git/config", "x\n");
    project.file("fixtures/powers-of-two/.notes/a.out", "orphan but hidden\n");
    project.file("fixtures/powers-of-two/.grundy-Xy12ab", "half a file");
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(closing_line(&output), "1 passed, 0 failed");
    assert!(leftovers(project.path()).is_empty());
    assert!(project.path().join("fixtures/.git/config").exists());
}

#[test]
fn add_refuses_a_case_in_an_invalid_group() {
    let project = Project::new();
    let output = project
        .command(&["add", "nim", "invalid/bad"])
        .write_stdin("1\nx\n")
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(stderr(&output).contains("--bless"), "{}", dump(&output));
    assert!(
        tree(project.path()).is_empty(),
        "{:?}",
        tree(project.path())
    );
}

/// What recovery did is said on stderr: a note for a file of a committed write it moved into
/// place, a warning for one it could not (its name taken since). The store is below the
/// reporting layer, so it hands these to the command layer, which says them.
#[test]
fn recovery_notes_the_files_it_finished_and_warns_of_those_it_could_not() {
    let project = Project::new();
    project.powers("old", &[2]);
    let (input, _) = powers_case(&[4]);
    project.file("fixtures/.grundy-journal/0", &input);
    project.file("fixtures/.grundy-journal/1", "Cici\n");
    project.file(
        "fixtures/.grundy-journal/plan",
        r#"["powers-of-two/late.in","powers-of-two/old.out"]"#,
    );

    let output = project.grundy(&["list"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let err = stderr(&output);
    let finished = err
        .lines()
        .find(|l| l.contains("late.in"))
        .unwrap_or_default();
    assert!(finished.starts_with("note: finished writing `"), "{err}");
    assert!(
        finished.ends_with("powers-of-two/late.in`, which an interrupted grundy left half done"),
        "{err}"
    );
    let unfinished = err
        .lines()
        .find(|l| l.contains("old.out"))
        .unwrap_or_default();
    assert!(
        unfinished.starts_with("warning: could not finish writing `"),
        "{err}"
    );
    assert!(
        unfinished.ends_with("; its case may lack that file"),
        "{err}"
    );
    assert_eq!(project.read("fixtures/powers-of-two/late.in"), input);
    assert_eq!(project.read("fixtures/powers-of-two/old.out"), "Kiki\n");
    assert!(leftovers(project.path()).is_empty(), "{}", dump(&output));
}
