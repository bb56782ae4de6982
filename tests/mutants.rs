//! `grundy mutants PKG` through the real binary: an accepted C submission mutated one token at
//! a time, each mutant built and judged on the package's data. Its eight mutants are worked out
//! by hand below (the expected statuses do not come from grundy): with both cases every mutant
//! that builds is killed; with the case `n = 2` removed, one survives, named by file and line;
//! the one that does not build is stillborn either way; the JSON lines agree with the human
//! counts; the package is left as it was.

use crate::common;

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
        out.contains("Mutation score: 100.0% (7 killed, 0 survived; 1 stillborn, 0 not judged)"),
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
        out.contains("Mutation score: 85.7% (6 killed, 1 survived; 1 stillborn, 0 not judged)"),
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
