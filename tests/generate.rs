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

use common::{code, stderr, stdout, Project};

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
