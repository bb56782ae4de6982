//! `grundy mutants PKG` through the real binary: an accepted C submission mutated one token at
//! a time, each mutant built and judged on the package's data. Its eight mutants are worked out
//! by hand below (the expected statuses do not come from grundy): with both cases every mutant
//! that builds is killed; with the case `n = 2` removed, one survives, named by file and line;
//! the one that does not build is stillborn either way; the JSON lines agree with the human
//! counts; the package is left as it was. The survivor's search finds an input among a
//! generator's, `--add` writes it (never over a file, never an input the validator rejects)
//! and the next run kills the survivor; a mutant no input tells apart is likely equivalent. A
//! built-in problem (nim cut to its sample) gets its missing cases back the same way, as
//! fixtures.

use crate::common;

use std::path::Path;

use common::{code, dump, stdout, tree, Project};

/// `n (n + 1) / 2`. By hand, its mutants: line 3's `*p` and `&n` are a declarator and an
/// address, no operators; its `==` → `!=` fails the static assertion, so that mutant does not
/// build (gcc says where first, `In function 'main'`, then the error); line
/// 5 `*` → `/`, `+` → `-`, `1` → `0`, `/` → `*`, `2` → `3` and `2` → `1` all print something
/// else than 1 for `n = 1`; `1` → `2` prints `1 * 3 / 2 = 1` for `n = 1`, and only `n = 2` (4,
/// not 3) tells it apart.
const TRIANGLE: &str = "#include <stdio.h>\nint main(void) {\n    int n, *p = &n; \
                        _Static_assert(sizeof n == sizeof(int), \"n is an int\");\n    \
                        scanf(\"%d\", p);\n    printf(\"%d\\n\", n * (n + 1) / 2);\n}\n";

pub(crate) fn triangle(project: &Project) {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Triangle\nlimits:\n  time_limit: 2\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "1\n"),
        ("data/secret/2.in", "2\n"),
        ("data/secret/2.ans", "3\n"),
        ("submissions/accepted/sol.c", TRIANGLE),
    ];
    for (path, text) in files {
        project.file(&format!("tri/{path}"), text);
    }
}

/// The JSON lines of a run: its mutants, and its summary.
pub(crate) fn json_lines(
    output: &std::process::Output,
) -> (Vec<serde_json::Value>, serde_json::Value) {
    let mut lines: Vec<serde_json::Value> = stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("every line is one JSON object"))
        .collect();
    let summary = lines.pop().expect("a summary line");
    assert_eq!(summary["type"], "summary", "{}", dump(output));
    assert!(
        lines.iter().all(|l| l["type"] == "mutant"),
        "{}",
        dump(output)
    );
    (lines, summary)
}

#[test]
fn data_that_kills_every_mutant_scores_full_and_the_stillborn_one_is_counted_apart() {
    let project = Project::new();
    triangle(&project);
    let before = tree(&project.path().join("tri/submissions"));
    let output = project.grundy(&["mutants", "tri"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let out = stdout(&output);
    assert!(
        out.contains("Mutants of accepted/sol.c (tri): 8 made, 8 judged"),
        "{}",
        dump(&output)
    );
    assert!(
        out.contains("Mutation score: 100.0% (7 killed, 0 survived, 0 likely equivalent; 1 stillborn, 0 not judged)"),
        "{}",
        dump(&output)
    );
    assert!(!out.contains("Survivors"), "{}", dump(&output));
    assert!(
        out.contains("Cases that kill the most: sample/1 (6), secret/2 (1)"),
        "{}",
        dump(&output)
    );

    let output = project.grundy(&["mutants", "tri", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (mutants, summary) = json_lines(&output);
    let statuses: Vec<&str> = mutants
        .iter()
        .map(|m| m["status"].as_str().unwrap())
        .collect();
    let killed = statuses.iter().filter(|s| **s == "killed").count();
    assert_eq!((mutants.len(), killed), (8, 7), "{}", dump(&output));
    let stillborn = &mutants[0];
    assert_eq!(stillborn["status"], "stillborn", "{}", dump(&output));
    assert_eq!(
        (&stillborn["file"], &stillborn["line"]),
        (&"sol.c".into(), &3.into())
    );
    assert_eq!(stillborn["killed_by"], serde_json::Value::Null);
    // Said by the compiler's first error, not by its first line.
    let why = stillborn["why"].as_str().unwrap_or_default();
    assert!(why.contains("sol.c:3:"), "{}", dump(&output));
    assert!(why.contains("error:"), "{}", dump(&output));
    assert!(why.contains("static assert"), "{}", dump(&output));
    // Named as in the submission, not by the temporary copy it was built in.
    assert!(!why.contains("grundy-mutants-"), "{}", dump(&output));
    assert_eq!(stillborn["found"], serde_json::Value::Null);
    let plus_one = mutants
        .iter()
        .find(|m| m["diff"].as_str().unwrap().starts_with("1 → 2"));
    assert_eq!(
        plus_one.unwrap()["killed_by"],
        "secret/2",
        "{}",
        dump(&output)
    );
    assert_eq!(summary["score"], 1.0);
    assert_eq!(
        (&summary["killed"], &summary["stillborn"]),
        (&7.into(), &1.into())
    );
    assert_eq!(summary["totals"]["mutant"]["passed"], 7, "{summary}");
    // The mutants were copied elsewhere: the package is as it was.
    assert_eq!(tree(&project.path().join("tri/submissions")), before);
}

#[test]
fn a_case_the_data_needs_removed_lets_its_mutant_survive_by_file_and_line() {
    let project = Project::new();
    triangle(&project);
    std::fs::remove_file(project.path().join("tri/data/secret/2.in")).unwrap();
    std::fs::remove_file(project.path().join("tri/data/secret/2.ans")).unwrap();
    let output = project.grundy(&["mutants", "tri"]);
    // A survivor is a finding about the data, not a failure of the run.
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let out = stdout(&output);
    assert!(
        out.contains("Mutation score: 85.7% (6 killed, 1 survived, 0 likely equivalent; 1 stillborn, 0 not judged)"),
        "{}",
        dump(&output)
    );
    assert!(
        out.contains("  sol.c:5: 1 → 2: printf(\"%d\\n\", n * (n + 2) / 2);\n"),
        "{}",
        dump(&output)
    );
    let output = project.grundy(&["mutants", "tri", "--format", "json"]);
    let (mutants, summary) = json_lines(&output);
    let survivors: Vec<&serde_json::Value> = mutants
        .iter()
        .filter(|m| m["status"] == "survived")
        .collect();
    assert_eq!(survivors.len(), 1, "{}", dump(&output));
    assert_eq!(
        (&survivors[0]["file"], &survivors[0]["line"]),
        (&"sol.c".into(), &5.into())
    );
    assert_eq!(summary["survived"], 1);
    assert!(
        (summary["score"].as_f64().unwrap() - 6.0 / 7.0).abs() < 1e-9,
        "{summary}"
    );
}

#[test]
fn a_sample_is_the_same_for_a_seed_and_keeps_each_mutant_its_number() {
    let project = Project::new();
    triangle(&project);
    let sampled = || {
        let output = project.grundy(&[
            "mutants", "tri", "--max", "3", "--seed", "5", "--format", "json",
        ]);
        assert_eq!(code(&output), 0, "{}", dump(&output));
        let (mutants, summary) = json_lines(&output);
        assert_eq!(
            (&summary["made"], &summary["judged"]),
            (&8.into(), &3.into())
        );
        assert_eq!(summary["seed"], "5", "{summary}");
        let names: Vec<String> = mutants
            .iter()
            .map(|m| m["id"]["subject"].to_string())
            .collect();
        names
    };
    let first = sampled();
    assert_eq!(first.len(), 3);
    assert!(
        first.iter().all(|n| n.contains("accepted/sol.c mutant ")),
        "{first:?}"
    );
    assert_eq!(sampled(), first);
}

#[test]
fn a_source_that_cannot_be_scanned_is_an_error_at_its_line_and_column() {
    let project = Project::new();
    triangle(&project);
    project.file(
        "tri/submissions/accepted/open.c",
        "int main(void) {\n  return 0; /* never closed\n}\n",
    );
    let output = project.grundy(&["mutants", "tri", "--submission", "accepted/open.c"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        common::stderr(&output).contains("open.c:2:13: a comment that never ends"),
        "{}",
        dump(&output)
    );
}

/// Ctrl-C while mutants run ends `mutants` at once, its report marked cancelled, with exit
/// status 130; no mutant outlives it. The accepted submission prints `n` at once for `n = 1`;
/// its mutants `n >= 1` and `n > 0` sleep.
#[test]
fn ctrl_c_ends_mutants_with_its_report_marked_cancelled() {
    let project = Project::new();
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Nap\nlimits:\n  time_limit: 2\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "1\n"),
        (
            "submissions/accepted/sleeper.py",
            "import time\nn = int(input())\nif n > 1:\n    time.sleep(60)\nprint(n)\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("nap/{path}"), text);
    }
    let marker = project.path().display().to_string();
    let sleeping = || common::running(&marker, "sleeper.py");
    let output = project.interrupted(&["mutants", "nap"], sleeping);
    common::cancelled_closing_line(&output);
    assert!(!sleeping(), "a mutant outlived mutants");

    let output = project.interrupted(&["mutants", "nap", "--format", "json"], sleeping);
    let summary = common::cancelled_summary(&output);
    assert_eq!(summary["command"], "mutants", "{summary}");
}

/// Prints `n` from 1 to 10, by its seed.
const GEN: &str = "import sys\nprint(int(sys.argv[1]) % 10 + 1)\n";

/// The triangle package without its case `n = 2`, and a generator of `n` from 1 to 10.
pub(crate) fn weak_triangle(project: &Project) {
    triangle(project);
    std::fs::remove_file(project.path().join("tri/data/secret/2.in")).unwrap();
    std::fs::remove_file(project.path().join("tri/data/secret/2.ans")).unwrap();
    project.file("tri/generators/gen.py", GEN);
}

/// The survivor of the triangle package without `n = 2`, `n (n + 2) / 2`: every `n ≥ 2` tells
/// it from `n (n + 1) / 2` (by hand: `n (n + 2) - n (n + 1) = n`, odd or even, halves apart
/// for `n ≥ 2` only), so the search finds such an input among the generator's; `--add` writes
/// it with the accepted answer, and the next run kills the survivor with it.
#[test]
fn the_search_finds_a_survivors_case_and_add_makes_the_data_kill_it() {
    let project = Project::new();
    weak_triangle(&project);
    let search = ["mutants", "tri", "--generator", "gen.py {seed}"];
    let output = project.grundy(&search);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let out = stdout(&output);
    assert!(
        out.contains(
            "  sol.c:5: 1 → 2: printf(\"%d\\n\", n * (n + 2) / 2);\n    told apart by `gen.py "
        ),
        "{}",
        dump(&output)
    );
    assert!(
        out.contains("(--add writes it as a case)"),
        "{}",
        dump(&output)
    );
    // Without --add, nothing is written.
    assert_eq!(
        tree(&project.path().join("tri/data/secret")),
        [] as [String; 0]
    );

    let added = project.grundy(&[&search[..], &["--add", "--format", "json"]].concat());
    assert_eq!(code(&added), 0, "{}", dump(&added));
    let (mutants, summary) = json_lines(&added);
    let survivor = mutants.iter().find(|m| m["status"] == "survived").unwrap();
    let subject = survivor["id"]["subject"].as_str().unwrap();
    let number = subject.rsplit(' ').next().unwrap();
    let case = format!("secret/mutant-{number}");
    assert_eq!(survivor["found"], case.as_str(), "{}", dump(&added));
    assert!(survivor["distinguished_by"]
        .as_str()
        .unwrap()
        .starts_with("gen.py "));
    assert_eq!(
        (&summary["found"], &summary["added"]),
        (&1.into(), &1.into())
    );
    let input = project.read(&format!("tri/data/{case}.in"));
    let n: u64 = input.trim().parse().unwrap();
    assert!((2..=10).contains(&n), "{input}");
    assert_eq!(
        project.read(&format!("tri/data/{case}.ans")),
        format!("{}\n", n * (n + 1) / 2)
    );

    let again = project.grundy(&["mutants", "tri", "--format", "json"]);
    let (mutants, summary) = json_lines(&again);
    let killed = mutants
        .iter()
        .find(|m| m["id"]["subject"] == subject)
        .unwrap();
    assert_eq!(
        (&killed["status"], &killed["killed_by"]),
        (&"killed".into(), &case.as_str().into()),
        "{}",
        dump(&again)
    );
    assert_eq!(summary["score"], 1.0);
}

/// `--add` never writes over a file: a case already named `mutant-<n>` is kept as it was, and
/// the report says the input was not added.
#[test]
fn add_keeps_a_case_already_there() {
    let project = Project::new();
    weak_triangle(&project);
    // The survivor `1 → 2` is mutant 4: after line 3's `*`, line 5's `*` and `+`.
    project.file("tri/data/secret/mutant-4.ans", "mine\n");
    let output = project.grundy(&["mutants", "tri", "--generator", "gen.py {seed}", "--add"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        stdout(&output).contains(
            ": not saved: `data/secret/mutant-4.ans` is already there and grundy never replaces \
             a file"
        ),
        "{}",
        dump(&output)
    );
    assert_eq!(project.read("tri/data/secret/mutant-4.ans"), "mine\n");
    assert!(!project.path().join("tri/data/secret/mutant-4.in").exists());
}

/// An input the package's input validator rejects never tells a survivor apart: the search
/// stops there, saying so, and adds nothing.
#[test]
fn an_input_the_validator_rejects_is_never_a_case() {
    let project = Project::new();
    weak_triangle(&project);
    // Only n = 1 is valid: every n ≥ 2 the generator makes is rejected.
    project.file(
        "tri/input_validators/one.py",
        "import sys\nsys.exit(42 if sys.stdin.read() == '1\\n' else 43)\n",
    );
    let output = project.grundy(&[
        "mutants",
        "tri",
        "--generator",
        "gen.py {seed}",
        "--add",
        "--format",
        "json",
    ]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (mutants, summary) = json_lines(&output);
    let survivor = mutants.iter().find(|m| m["status"] == "survived");
    let survivor = survivor.unwrap_or_else(|| panic!("{}", dump(&output)));
    assert_eq!(survivor["found"], serde_json::Value::Null);
    assert!(
        survivor["why"]
            .as_str()
            .unwrap()
            .contains("made an input the input validator"),
        "{}",
        dump(&output)
    );
    assert_eq!(summary["added"], 0);
    assert_eq!(
        tree(&project.path().join("tri/data/secret")),
        [] as [String; 0]
    );
}

/// The package `sum` (`0 + 1 + … + n-1` by a loop from 1), its one case `n = 5` and the
/// generator of `n` from 1 to 10; and `mutants`' arguments that search 5 inputs per survivor.
pub(crate) fn sum(project: &Project) -> [&'static str; 6] {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Sum\nlimits:\n  time_limit: 2\n",
        ),
        ("data/sample/1.in", "5\n"),
        ("data/sample/1.ans", "10\n"),
        (
            "submissions/accepted/sum.py",
            "n = int(input())\ns = 0\nfor i in range(1, n):\n    s += i\nprint(s)\n",
        ),
        ("generators/gen.py", GEN),
    ];
    for (path, text) in files {
        project.file(&format!("sum/{path}"), text);
    }
    [
        "mutants",
        "sum",
        "--generator",
        "gen.py {seed}",
        "--budget",
        "5",
    ]
}

/// A mutant no input can tell apart is reported likely equivalent, and left out of the score.
/// By hand: `sum(range(1, n))` and `sum(range(0, n))` are equal for every `n`; each other
/// mutant prints something else than 10 for `n = 5`.
#[test]
fn a_mutant_no_input_tells_apart_is_likely_equivalent() {
    let project = Project::new();
    let args = sum(&project);
    let output = project.grundy(&args);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let out = stdout(&output);
    assert!(
        out.contains(
            "Likely equivalent (none of 5 inputs tells them from the accepted submission):\n  \
             sum.py:3: 1 → 0: for i in range(0, n):\n"
        ),
        "{}",
        dump(&output)
    );
    assert!(
        out.contains("0 survived, 1 likely equivalent"),
        "{}",
        dump(&output)
    );
    let output = project.grundy(&[&args[..], &["--format", "json"]].concat());
    let (mutants, summary) = json_lines(&output);
    let equivalent: Vec<_> = mutants
        .iter()
        .filter(|m| m["status"] == "equivalent")
        .collect();
    assert_eq!(equivalent.len(), 1, "{}", dump(&output));
    assert_eq!(equivalent[0]["found"], serde_json::Value::Null);
    assert_eq!(
        (&summary["equivalent"], &summary["score"]),
        (&1.into(), &1.0.into())
    );
}

/// nim's data cut to its sample in a project of its own, with its planted `nim.py`.
fn nim_sample(project: &Project) {
    project.file("runner.toml", "fixtures = \"fixtures\"\n");
    project.file("fixtures/nim/sample-1.in", "1 2 3\n");
    project.file("fixtures/nim/sample-1.out", "lose\n");
    let planted =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/nim/submissions/accepted/nim.py");
    project.file(
        "problems/nim/submissions/accepted/nim.py",
        std::fs::read(planted).unwrap(),
    );
}

/// The built-in problem nim in a project of its own, its data cut to the sample `1 2 3` (XOR
/// 0: `lose`). By hand, of the planted `nim.py`'s five mutants three survive that case: `if
/// heaps: continue` and its twin `if not (not heaps): continue` skip the line and answer `lose`
/// for the trailing empty one, and `x ^= int(h)` made `pass` answers `lose` for every line. Any
/// line of heaps whose XOR is not 0 tells them apart: the search finds one with nim's generator,
/// `--add` writes it as a fixture with the brute force's answer (checked here by Bouton's
/// theorem), and the next run kills all three.
#[test]
fn a_built_in_problem_missing_its_cases_gets_them_back_from_the_search() {
    let project = Project::new();
    nim_sample(&project);
    let args = ["mutants", "nim", "--submission", "accepted/nim.py"];
    let output = project.grundy(&[&args[..], &["--add", "--format", "json"]].concat());
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (mutants, summary) = json_lines(&output);
    let survivors: Vec<&serde_json::Value> = mutants
        .iter()
        .filter(|m| m["status"] == "survived")
        .collect();
    let lines: Vec<u64> = survivors
        .iter()
        .map(|m| m["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [9, 9, 13], "{}", dump(&output));
    assert_eq!(summary["added"], 3, "{summary}");
    for survivor in &survivors {
        let case = survivor["found"].as_str().unwrap();
        assert!(case.starts_with("mutants/mutant-"), "{case}");
        let input = project.read(&format!("fixtures/nim/{case}.in"));
        let bouton: String = input
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                let xor = line
                    .split_whitespace()
                    .fold(0u64, |x, h| x ^ h.parse::<u64>().unwrap());
                if xor == 0 {
                    "lose\n"
                } else {
                    "win\n"
                }
            })
            .collect();
        assert!(bouton.contains("win"), "{input}");
        assert_eq!(project.read(&format!("fixtures/nim/{case}.out")), bouton);
    }
    let again = project.grundy(&[&args[..], &["--format", "json"]].concat());
    let (_, summary) = json_lines(&again);
    assert_eq!(
        (&summary["killed"], &summary["score"]),
        (&5.into(), &1.0.into()),
        "{}",
        dump(&again)
    );
}

/// A built-in problem's `--add` never writes over a fixture: the survivor of line 9 (mutant 1)
/// finds `mutants/mutant-1` taken (a case `1 1`, XOR 0, which kills no survivor), which stays
/// as it was; the others' cases are written (mutant 4's: line 13).
#[test]
fn a_built_in_problems_add_keeps_a_fixture_already_there() {
    let project = Project::new();
    nim_sample(&project);
    project.file("fixtures/nim/mutants/mutant-1.in", "1 1\n");
    project.file("fixtures/nim/mutants/mutant-1.out", "lose\n");
    let output = project.grundy(&["mutants", "nim", "--submission", "accepted/nim.py", "--add"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        stdout(&output).contains(": not saved: `nim/mutants/mutant-1.in` is already there"),
        "{}",
        dump(&output)
    );
    assert!(
        stdout(&output).contains(": added as mutants/mutant-4\n"),
        "{}",
        dump(&output)
    );
    assert_eq!(project.read("fixtures/nim/mutants/mutant-1.in"), "1 1\n");
    assert_eq!(project.read("fixtures/nim/mutants/mutant-1.out"), "lose\n");
}

/// Without `--generator`, the search takes generators.yaml's `generate:` commands that take
/// `{seed}`; without either, survivors are not searched, and the report says why.
#[test]
fn the_search_takes_the_seeded_commands_of_generators_yaml() {
    let project = Project::new();
    weak_triangle(&project);
    let output = project.grundy(&["mutants", "tri"]);
    assert!(
        stdout(&output).contains(
            "No input was searched for them: no generator to search with: generators.yaml has \
             no `generate:` command taking `{seed}`"
        ),
        "{}",
        dump(&output)
    );
    project.file(
        "tri/generators/generators.yaml",
        "data:\n  secret:\n    data:\n      r: gen.py {seed}\n",
    );
    let output = project.grundy(&["mutants", "tri", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (mutants, summary) = json_lines(&output);
    let survivor = mutants.iter().find(|m| m["status"] == "survived").unwrap();
    let command = survivor["distinguished_by"].as_str().unwrap_or_default();
    assert!(command.starts_with("gen.py "), "{}", dump(&output));
    assert_eq!(
        (&summary["found"], &summary["budget"]),
        (&1.into(), &100.into())
    );
}

/// A built-in problem is targeted by its id, from this project: its planted accepted
/// submission mutated, judged on its fixtures. `nim.py`'s mutants, by hand: line 9 `not`
/// removed and its `if` negated (either skips every line with heaps), line 11 `x = 1` (flips
/// the lowest bit of every XOR), line 13 the XOR removed (every position a loss), line 15
/// `s - "\n"` (a `TypeError`); the fixtures hold winning and losing positions, so each dies.
#[test]
fn a_built_in_problem_is_mutated_by_its_id_on_its_fixtures() {
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut command = assert_cmd::Command::cargo_bin("grundy").unwrap();
    let output = command
        .current_dir(project)
        .args(["mutants", "nim", "--submission", "accepted/nim.py"])
        .args(["--format", "json"])
        .env("NO_COLOR", "1")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (mutants, summary) = json_lines(&output);
    let places: Vec<(String, u64)> = mutants
        .iter()
        .map(|m| (m["file"].to_string(), m["line"].as_u64().unwrap()))
        .collect();
    let nim = "\"nim.py\"".to_string();
    assert_eq!(
        places,
        [9, 9, 11, 13, 15].map(|line| (nim.clone(), line)),
        "{}",
        dump(&output)
    );
    assert!(
        mutants.iter().all(|m| m["status"] == "killed"),
        "{}",
        dump(&output)
    );
    assert_eq!(summary["submission"], "accepted/nim.py", "{summary}");
    assert_eq!(summary["score"], 1.0, "{summary}");
}

/// The triangle package's plan: both its cases `n = 1`, written inline, and a random `n` from
/// `gen.py {seed}` that has not been generated yet, so the survivor `1 → 2` lives on the data.
const TRIANGLE_PLAN: &str = "# Triangle numbers: n in, n (n + 1) / 2 out.\ndata:\n  sample:\n    \
                             data:\n      '1':\n        in: \"1\\n\"\n  secret:\n    data:\n      \
                             # n = 1 again.\n      one:\n        in: \"1\\n\"\n      random: \
                             gen.py {seed}\n  # Nothing else.\n";

/// In a package with a generators.yaml, `--add` adds the survivor's case as a command of the
/// plan's `secret` group, the rest of the file as it was, and generates it: `generate` then
/// finds nothing the plan does not list, and the next run kills the survivor.
#[test]
fn add_puts_the_case_into_generators_yaml_and_generates_it() {
    let project = Project::new();
    weak_triangle(&project);
    for file in ["data/sample/1.in", "data/sample/1.ans"] {
        std::fs::remove_file(project.path().join("tri").join(file)).unwrap();
    }
    let first = TRIANGLE_PLAN.replace("      random: gen.py {seed}\n", "");
    project.file("tri/generators/generators.yaml", &first);
    let generated = project.grundy(&["generate", "tri"]);
    assert_eq!(code(&generated), 0, "{}", dump(&generated));
    project.file("tri/generators/generators.yaml", TRIANGLE_PLAN);

    let added = project.grundy(&["mutants", "tri", "--add", "--format", "json"]);
    assert_eq!(code(&added), 0, "{}", dump(&added));
    let (mutants, summary) = json_lines(&added);
    let survivor = mutants.iter().find(|m| m["status"] == "survived").unwrap();
    let number = survivor["id"]["subject"]
        .as_str()
        .unwrap()
        .rsplit(' ')
        .next();
    let name = format!("mutant-{}", number.unwrap());
    assert_eq!(
        survivor["found"],
        format!("secret/{name}"),
        "{}",
        dump(&added)
    );
    assert_eq!(summary["added"], 1);
    let command = survivor["distinguished_by"].as_str().unwrap();
    let seed = command.strip_prefix("gen.py ").unwrap();
    assert!(seed.parse::<u32>().is_ok(), "{command}");
    let expected = TRIANGLE_PLAN.replace(
        "      random: gen.py {seed}\n",
        &format!("      random: gen.py {{seed}}\n      {name}: gen.py {seed}\n"),
    );
    assert_eq!(project.read("tri/generators/generators.yaml"), expected);
    let n: u64 = seed.parse::<u64>().unwrap() % 10 + 1;
    assert_eq!(
        project.read(&format!("tri/data/secret/{name}.in")),
        format!("{n}\n")
    );
    assert_eq!(
        project.read(&format!("tri/data/secret/{name}.ans")),
        format!("{}\n", n * (n + 1) / 2)
    );

    let generated = project.grundy(&["generate", "tri", "--format", "json"]);
    assert_eq!(code(&generated), 0, "{}", dump(&generated));
    let unit: serde_json::Value =
        serde_json::from_str(stdout(&generated).lines().next().unwrap()).expect("a JSON line");
    assert_eq!(
        (&unit["unlisted"], &unit["made"], &unit["unchanged"]),
        (&serde_json::json!([]), &0.into(), &4.into()),
        "{}",
        dump(&generated)
    );
    let again = project.grundy(&["mutants", "tri", "--format", "json"]);
    let (mutants, _) = json_lines(&again);
    let survivor = &survivor["id"]["subject"];
    let killed = mutants.iter().find(|m| &m["id"]["subject"] == survivor);
    assert_eq!(killed.unwrap()["status"], "killed", "{}", dump(&again));
}

/// Runs `mutants tri --add` on the triangle package's hand-written data with `plan` as its
/// generators.yaml (the survivor `1 → 2` is mutant 4), and checks the plan was left as it was.
fn add_with_plan(project: &Project, plan: &str) -> std::process::Output {
    weak_triangle(project);
    project.file("tri/generators/generators.yaml", plan);
    let output = project.grundy(&["mutants", "tri", "--add"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(project.read("tri/generators/generators.yaml"), plan);
    output
}

/// A list-form `data:` is not edited, since a new item can renumber the list's cases: the case
/// is written as files, as without a generators.yaml.
#[test]
fn add_writes_files_where_the_plans_data_is_a_list() {
    let project = Project::new();
    let plan = "data:\n  secret:\n    data:\n      - random: gen.py {seed}\n";
    add_with_plan(&project, plan);
    let input = project.read("tri/data/secret/mutant-4.in");
    let n: u64 = input.trim().parse().unwrap();
    assert_eq!(
        project.read("tri/data/secret/mutant-4.ans"),
        format!("{}\n", n * (n + 1) / 2)
    );
}

/// A case of the name `--add` would give is never replaced in the plan: the input is not
/// added, and the report says why.
#[test]
fn add_keeps_a_case_of_its_name_in_generators_yaml() {
    let project = Project::new();
    let plan = "data:\n  secret:\n    data:\n      mutant-4:\n        in: \"1\\n\"\n      \
                random: gen.py {seed}\n";
    let output = add_with_plan(&project, plan);
    assert!(
        stdout(&output).contains(
            ": not saved: `generators/generators.yaml: secret/mutant-4` is already there"
        ),
        "{}",
        dump(&output)
    );
    assert!(!project.path().join("tri/data/secret/mutant-4.in").exists());
}

/// Nor is a file of that name in `data/`: the plan is not edited when the case's files could
/// not be made.
#[test]
fn add_leaves_generators_yaml_alone_when_the_cases_file_is_there() {
    let project = Project::new();
    project.file("tri/data/secret/mutant-4.ans", "mine\n");
    let plan = "data:\n  secret:\n    data:\n      random: gen.py {seed}\n";
    let output = add_with_plan(&project, plan);
    assert!(
        stdout(&output).contains(": not saved: `data/secret/mutant-4.ans` is already there"),
        "{}",
        dump(&output)
    );
    assert_eq!(project.read("tri/data/secret/mutant-4.ans"), "mine\n");
}

/// A mutant whose case the checker fails on (it exits with a status the protocol does not
/// know) is not judged, and its row says why in the judging stage's words.
#[test]
fn a_mutant_the_checker_fails_on_is_not_judged_and_says_why() {
    let project = Project::new();
    triangle(&project);
    project.file(
        "tri/output_validators/v/v.py",
        "import sys\nans = open(sys.argv[2]).read().split()\n\
         if sys.stdin.read().split() == ans:\n    sys.exit(42)\n\
         sys.stderr.write('the validator broke\\n')\nsys.exit(3)\n",
    );
    let output = project.grundy(&["mutants", "tri", "--format", "json"]);
    let (mutants, _) = json_lines(&output);
    let unjudged = mutants.iter().find(|m| m["status"] == "unjudged");
    let unjudged = unjudged.unwrap_or_else(|| panic!("{}", dump(&output)));
    let why = unjudged["why"].as_str().unwrap_or_default();
    assert!(
        why.starts_with("the checker `kattis:v` exited with status 3")
            && why.contains("it said: the validator broke"),
        "{}",
        dump(&output)
    );
}
