//! `grundy generate PKG` through the real binary, on one small package the test writes: a
//! Python generator printing its arguments (so each `.in` shows the seed it got), a Python
//! solution, inline and counted cases, an included group, a `test_group.yaml`. One package is
//! reused across the assertions: made, made again with nothing changed, `--force`, a case
//! removed from the plan (`--clean`), a failing generator, and `verify` generating first.
//!
//! The seeds expected are those `bt generate` (BAPCtools 2026.10.0) gave the same commands with
//! the same salt, read from the `.in` files it wrote for BAPCtools' own test package `testseed`
//! (whose generator also prints its arguments); `src/package/generators/generators_tests.rs`
//! checks the whole of that package's seeds.
use crate::common;

use common::{age, code, dump, modified, stderr, stdout, Project};

const PLAN: &str = "solution: /submissions/accepted/sum.py
data:
  sample:
    data:
      - basic_seed:
          generate: stdout.py {seed}
  secret:
    test_group.yaml:
      output_validator_args: [space_change_sensitive]
    include:
      - sample
    data:
      - inline:
          in: 1 2
      - count:
          generate: stdout.py {seed} {count}
          count: 2
";

fn package(project: &Project) {
    let files: &[(&str, &str)] = &[
        ("pkg/problem.yaml", "problem_format_version: 2023-07-draft\nname: Sum\n"),
        ("pkg/generators/generators.yaml", PLAN),
        (
            "pkg/generators/stdout.py",
            "import sys\nprint(' '.join(sys.argv[1:]))\n",
        ),
        (
            "pkg/generators/fails.py",
            "import sys\nprint('no luck today', file=sys.stderr)\nsys.exit(3)\n",
        ),
        (
            "pkg/submissions/accepted/sum.py",
            "print(sum(int(x) for x in input().split()))\n",
        ),
        // Judged by `verify` below; `generate` has no use for it and must not build it.
        (
            "pkg/submissions/wrong_answer/zero.py",
            "input()\nprint(0)\n",
        ),
        (
            "pkg/input_validators/ints.py",
            "import sys\nw = sys.stdin.read().split()\nsys.exit(42 if w and all(x.lstrip('-').isdigit() for x in w) else 43)\n",
        ),
    ];
    for (path, text) in files {
        project.file(path, text);
    }
}

#[test]
fn generate_makes_data_incrementally_and_verify_generates_first() {
    let project = Project::new();
    package(&project);

    // Made: seeds as bt derives them, answers from the solution, numbering and includes as bt's.
    let output = project.grundy(&["generate", "-j", "2", "pkg"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(stdout(&output).contains("pkg: 4 made, 0 unchanged, 1 included, 0 failed: ok"));
    assert_eq!(
        project.read("pkg/data/sample/1-basic_seed.in"),
        "162981470\n"
    );
    assert_eq!(
        project.read("pkg/data/sample/1-basic_seed.ans"),
        "162981470\n"
    );
    assert_eq!(project.read("pkg/data/secret/2-inline.in"), "1 2\n");
    assert_eq!(project.read("pkg/data/secret/2-inline.ans"), "3\n");
    assert_eq!(
        project.read("pkg/data/secret/3-count-1.in"),
        "256329547 1\n"
    );
    assert_eq!(
        project.read("pkg/data/secret/4-count-2.in"),
        "1581952888 2\n"
    );
    assert_eq!(
        project.read("pkg/data/secret/1-basic_seed.in"),
        "162981470\n"
    );
    assert_eq!(
        project.read("pkg/data/secret/test_group.yaml"),
        "output_validator_args: [space_change_sensitive]\n"
    );
    // Built: the generator, the solution and the validator, never a submission it does not run.
    let staged = |name: &str| {
        files_below(project.path())
            .into_keys()
            .filter(|path| path.ends_with(name) && !path.starts_with("pkg/"))
            .count()
    };
    assert!(
        staged("sum.py") > 0 && staged("ints.py") > 0,
        "{:?}",
        files_below(project.path()).keys()
    );
    assert_eq!(
        staged("zero.py"),
        0,
        "{:?}",
        files_below(project.path()).keys()
    );

    // Nothing changed: nothing made.
    let output = project.grundy(&["generate", "pkg"]);
    assert!(
        stdout(&output).contains("0 made, 5 unchanged, 0 included"),
        "{}",
        stdout(&output)
    );
    // A file edited by hand is made again; --force makes everything again.
    project.file("pkg/data/secret/2-inline.ans", "4\n");
    let output = project.grundy(&["generate", "pkg"]);
    assert!(
        stdout(&output).contains("1 made, 4 unchanged"),
        "{}",
        stdout(&output)
    );
    assert_eq!(project.read("pkg/data/secret/2-inline.ans"), "3\n");
    let output = project.grundy(&["generate", "--force", "pkg"]);
    assert!(
        stdout(&output).contains("4 made, 0 unchanged, 1 included"),
        "{}",
        stdout(&output)
    );

    // A case no longer listed is reported, and removed only with --clean.
    let plan = PLAN.replace("      - inline:\n          in: 1 2\n", "");
    project.file("pkg/generators/generators.yaml", &plan);
    let output = project.grundy(&["generate", "pkg"]);
    assert!(
        stderr(&output).contains("data/secret/2-inline.in"),
        "{}",
        stderr(&output)
    );
    assert!(project.path().join("pkg/data/secret/2-inline.in").is_file());
    let output = project.grundy(&["generate", "--clean", "pkg"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    assert!(!project.path().join("pkg/data/secret/2-inline.in").exists());

    // A failing generator names the case, the command and what it said; exit 1.
    let plan = format!("{plan}      - bad: fails.py {{seed}}\n");
    project.file("pkg/generators/generators.yaml", &plan);
    let output = project.grundy(&["generate", "pkg"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains("FAIL secret/4-bad: generator `fails.py {seed}`"),
        "{said}"
    );
    assert!(said.contains("no luck today"), "{said}");

    // A generator that is not there is a mistake of the plan: named once, where it is, with
    // what is wrong and the package's generators (tests/generate_errors.rs has more); exit 2.
    project.file(
        "pkg/generators/generators.yaml",
        format!("{PLAN}      - gone: gone.py {{seed}}\n"),
    );
    let output = project.grundy(&["generate", "pkg"]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains("generators.yaml:18:15: generator `gone.py` is neither a file or folder of generators/ nor a name of `generators:` (the package's generators: `fails.py`, `stdout.py`)\n"),
        "{said}"
    );

    // What is made goes through the input validators (built while the cases are made): an
    // input they reject is reported, and the run fails.
    project.file(
        "pkg/generators/generators.yaml",
        format!("{PLAN}      - words:\n          in: a b\n          ans: \"0\"\n"),
    );
    let output = project.grundy(&["generate", "pkg"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        stderr(&output).contains("INVALID") && stderr(&output).contains("words"),
        "{}",
        dump(&output)
    );
    project.file("pkg/generators/generators.yaml", PLAN);
    let output = project.grundy(&["generate", "--clean", "pkg"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));

    // An unknown key: a located warning with a did-you-mean; a wrong value: exit 2, located.
    project.file(
        "pkg/generators/generators.yaml",
        PLAN.replace("test_group.yaml", "test_grup.yaml"),
    );
    let output = project.grundy(&["generate", "pkg"]);
    assert!(
        stderr(&output).contains("generators.yaml:8:5: unknown key `test_grup.yaml` in a group (did you mean `test_group.yaml`?)"),
        "{}",
        stderr(&output)
    );
    project.file(
        "pkg/generators/generators.yaml",
        PLAN.replace("count: 2", "count: 0"),
    );
    let output = project.grundy(&["generate", "pkg"]);
    assert_eq!(code(&output), 2, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("generators.yaml:17:18: count 0 must be between 1 and 100"),
        "{}",
        stderr(&output)
    );

    // verify generates first (nothing to make here), then verifies the data.
    project.file("pkg/generators/generators.yaml", PLAN);
    let output = project.grundy(&["verify", "pkg"]);
    assert_eq!(code(&output), 0, "{}\n{}", stdout(&output), stderr(&output));
    assert!(
        stderr(&output).contains("generated pkg:"),
        "{}",
        stderr(&output)
    );
    let output = project.grundy(&["verify", "--no-generate", "pkg"]);
    assert!(
        !stderr(&output).contains("generated pkg:"),
        "{}",
        stderr(&output)
    );
}

/// The project's own fixtures, copied with its runner.toml into a new project.
fn shipped_fixtures() -> (Project, std::path::PathBuf) {
    let project = Project::new();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    common::copy_fixtures(&shipped.join("fixtures"), &project.path().join("fixtures"));
    std::fs::copy(
        shipped.join("runner.toml"),
        project.path().join("runner.toml"),
    )
    .unwrap();
    (project, shipped.join("fixtures"))
}

/// Every file below `root`, relative, with its bytes.
fn files_below(root: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let relative = e.path().strip_prefix(root).unwrap();
            (
                relative.display().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The committed generated fixtures were made by `grundy gen` (input from the generator, output
/// from the brute force), so they are an independent record: `grundy generate` at the project's
/// root, every built-in problem's generators.yaml, must make every one of them byte for byte,
/// and nothing else but its manifests; a second run makes nothing.
#[test]
fn generate_makes_the_built_in_problems_generated_fixtures_again_byte_for_byte() {
    let (project, shipped) = shipped_fixtures();
    let output = project.grundy(&["generate", "-j", "2"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let mut problems = 0;
    for line in stdout(&output).lines() {
        assert!(
            line.contains(" made, 0 unchanged") && line.ends_with(": ok"),
            "{line}"
        );
        problems += 1;
    }
    assert_eq!(problems, 7, "{}", dump(&output));
    // Less the record of a run in the checkout, if there was one (not committed).
    let mut committed = files_below(&shipped);
    committed.retain(|f, _| !f.ends_with("/.grundy-generated.json"));
    let mut made = files_below(&project.path().join("fixtures"));
    let manifests: Vec<String> = made
        .keys()
        .filter(|f| f.ends_with("/.grundy-generated.json"))
        .cloned()
        .collect();
    assert_eq!(manifests.len(), 7, "{manifests:?}");
    for manifest in manifests {
        made.remove(&manifest);
    }
    let differ: Vec<&String> = committed
        .keys()
        .chain(made.keys())
        .filter(|f| committed.get(*f) != made.get(*f))
        .collect();
    assert!(differ.is_empty(), "not as committed: {differ:?}");

    let output = project.grundy(&["generate"]);
    for line in stdout(&output).lines() {
        assert!(
            line.contains(": 0 made, ") && line.ends_with(": ok"),
            "{line}"
        );
    }
}

#[test]
fn generate_of_a_built_in_problem_keeps_hand_written_fixtures_and_locates_errors() {
    let (project, _) = shipped_fixtures();
    let made = |args: &[&str], expected: &str| {
        let output = project.grundy(args);
        assert!(stdout(&output).contains(expected), "{}", dump(&output));
        output
    };
    made(&["generate", "nim"], "nim: 7 made, 0 unchanged");
    let r1 = project.path().join("fixtures/nim/random/r1-small.in");
    let before = age(&r1);
    made(&["generate", "nim"], "nim: 0 made, 7 unchanged");
    made(&["generate", "--force", "nim"], "nim: 7 made, 0 unchanged");
    // The same bytes made again are not written again.
    assert_eq!(modified(&r1), before);
    let output = project.grundy(&["check", "nim"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));

    // A case written by hand under a name the plan lists: not replaced without --force.
    let plan_file = "fixtures/nim/generators.yaml";
    let plan = project.read(plan_file);
    project.case("nim/random/r8-hand", "1\n1\n", "First\n");
    let listed = format!("{plan}      r8-hand:\n        generate: gen --seed 5 --scale 8\n");
    project.file(plan_file, &listed);
    let output = made(
        &["generate", "nim"],
        "nim: 0 made, 7 unchanged, 0 included, 1 failed",
    );
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        stderr(&output).contains("FAIL random/r8-hand: `")
            && stderr(&output).contains("was not made by generate; --force replaces it"),
        "{}",
        dump(&output)
    );
    assert_eq!(project.read("fixtures/nim/random/r8-hand.in"), "1\n1\n");
    made(&["generate", "--force", "nim"], "nim: 8 made, 0 unchanged");
    assert_ne!(project.read("fixtures/nim/random/r8-hand.in"), "1\n1\n");

    // A case described by generators.yaml and a .gen too: one must go.
    project.file(
        "fixtures/nim/random/r8-hand.gen",
        "grundy gen nim random/r8-hand --seed 5\n",
    );
    let output = project.grundy(&["generate", "--force", "nim"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(stderr(&output).contains("r8-hand.gen` describes this case too"));
    std::fs::remove_file(project.path().join("fixtures/nim/random/r8-hand.gen")).unwrap();

    // A case no longer listed: reported, removed by --clean; the hand-written ones stay.
    project.file(plan_file, &plan);
    let output = made(&["generate", "nim"], "nim: 0 made, 7 unchanged");
    assert!(
        stderr(&output).contains("random/r8-hand.in"),
        "{}",
        dump(&output)
    );
    made(&["generate", "--clean", "nim"], "nim: 0 made, 7 unchanged");
    assert!(!project
        .path()
        .join("fixtures/nim/random/r8-hand.in")
        .exists());
    assert!(project
        .path()
        .join("fixtures/nim/edge/all-zero.in")
        .is_file());
    assert!(project.path().join("fixtures/nim/sample-1.in").is_file());

    // A wrong command: exit 2, located, with a did-you-mean.
    project.file(plan_file, plan.replace("gen --seed 104", "gen --sede 104"));
    let output = project.grundy(&["generate", "nim"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains(
            "fixtures/nim/generators.yaml:15:17: case `random/r4-medium`: `gen` takes --seed S \
             and --scale N, not `--sede` (did you mean `--seed`?)"
        ),
        "{}",
        dump(&output)
    );
}

/// Ctrl-C while a generator runs ends `generate` at once, with its report marked cancelled
/// (it ended quietly, reporting nothing) and exit status 130: the generator does not outlive
/// it. In JSON, the summary says so.
#[test]
fn ctrl_c_ends_generate_with_its_report_marked_cancelled() {
    let project = Project::new();
    package(&project);
    project.file("pkg/generators/sleeper.py", "import time\ntime.sleep(60)\n");
    project.file(
        "pkg/generators/generators.yaml",
        format!("{PLAN}      - slow: sleeper.py {{seed}}\n"),
    );
    let marker = project.path().display().to_string();
    let sleeping = || common::running(&marker, "sleeper.py");
    let output = project.interrupted(&["generate", "pkg"], sleeping);
    assert!(!stderr(&output).contains("error"), "{}", dump(&output));
    let closing = common::cancelled_closing_line(&output);
    assert_eq!(closing, "0 packages ok, 0 not");
    assert!(!sleeping(), "the generator outlived generate");

    let output = project.interrupted(&["generate", "pkg", "--format", "json"], sleeping);
    common::cancelled_summary(&output);
}

/// `--format json`: a line per package with its counts and what was not made, then a summary
/// counting packages; what was not made is said on stderr too, as in the human report.
#[test]
fn json_has_a_line_per_package_then_a_summary_of_packages() {
    let project = Project::new();
    package(&project);
    project.file(
        "pkg/generators/generators.yaml",
        format!("{PLAN}      - broken: fails.py {{seed}}\n"),
    );
    let output = project.grundy(&["generate", "pkg", "--format", "json"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let lines = crate::reports::json_lines(&output);
    assert_eq!(lines.len(), 2, "{}", dump(&output));
    let package = &lines[0];
    assert_eq!(package["type"], "package", "{package}");
    let id = serde_json::json!({"problem": "pkg", "subject": null, "case": null});
    assert_eq!(package["id"], id, "{package}");
    assert_eq!(
        (&package["made"], &package["ok"]),
        (&4.into(), &false.into())
    );
    assert_eq!(package["failed"][0]["case"], "secret/5-broken", "{package}");
    assert!(
        package["failed"][0]["message"]
            .as_str()
            .unwrap()
            .contains("no luck today"),
        "{package}"
    );
    let summary = &lines[1];
    let counted = ["command", "unit", "passed", "failed"].map(|k| &summary[k]);
    let expected = [
        serde_json::json!("generate"),
        "package".into(),
        0.into(),
        1.into(),
    ];
    assert_eq!(counted, expected.each_ref(), "{summary}");
    assert!(
        stderr(&output).contains("FAIL secret/5-broken: "),
        "{}",
        dump(&output)
    );
}

/// A reader of `generate`'s counts that went away (`| head -0`) ends it quietly with 141, as
/// every report on stdout does, never with a panic.
#[test]
fn a_reader_that_goes_away_ends_generate_quietly_with_141() {
    use std::process::Stdio;
    let project = Project::new();
    package(&project);
    let mut child = project
        .spawnable(&["generate", "pkg"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(141), "{}", dump(&output));
    assert!(!stderr(&output).contains("panicked"), "{}", dump(&output));
    // What was made was made: the counts were the last thing to do.
    assert!(project.path().join("pkg/data/secret/2-inline.in").is_file());
}

/// `grundy generate` without a `PKG` finds the package holding the current folder, as every
/// command does: from its `generators/` and, once made, from its `data/secret/`.
#[test]
fn generate_finds_its_package_upward_from_any_folder_inside_it() {
    let project = Project::new();
    package(&project);
    let pkg = project.path().join("pkg");
    let from = |folder: &str| project.grundy_in(&pkg.join(folder), &["generate"]);
    let made = from("generators");
    assert_eq!(code(&made), 0, "{}", dump(&made));
    assert!(
        pkg.join("data/secret/2-inline.in").is_file(),
        "{}",
        dump(&made)
    );
    let again = from("data/secret");
    assert_eq!(code(&again), 0, "{}", dump(&again));
    assert!(stdout(&again).contains("pkg"), "{}", dump(&again));
}

/// The `generators:` dictionary, as GCPC's and NWERC's packages write it (`range: [range.cpp,
/// validate.h]`, `random: [random.cpp, validate.h]`, ...): names that each make a program of some
/// files of the one folder `generators/`, sharing one. Each name must run its own files (builds
/// were once kept by path, and every name ran the first one's program).
#[test]
fn each_name_of_the_generators_dictionary_runs_its_own_program() {
    let project = Project::new();
    package(&project);
    project.file(
        "pkg/generators/generators.yaml",
        "generators:
  two: [two.py, shared.py]
  one: [one.py, shared.py]
solution: /submissions/accepted/sum.py
data:
  secret:
    data:
      by_one:
        generate: one
      by_two:
        generate: two
",
    );
    project.file(
        "pkg/generators/shared.py",
        "def show(a, b):\n    print(a, b)\n",
    );
    project.file(
        "pkg/generators/one.py",
        "import shared\nshared.show(1, 10)\n",
    );
    project.file(
        "pkg/generators/two.py",
        "import shared\nshared.show(2, 20)\n",
    );

    let output = project.grundy(&["generate", "pkg"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    // Each case holds what its own generator prints, and the answer to it.
    assert_eq!(project.read("pkg/data/secret/by_one.in"), "1 10\n");
    assert_eq!(project.read("pkg/data/secret/by_one.ans"), "11\n");
    assert_eq!(project.read("pkg/data/secret/by_two.in"), "2 20\n");
    assert_eq!(project.read("pkg/data/secret/by_two.ans"), "22\n");
}
