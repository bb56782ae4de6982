//! `grundy generate` on a `generators.yaml` with the mistakes a setter makes, through the real
//! binary: a misspelt key, a misspelt generator or solution. Each mistake is one error, said
//! once however many cases its rule would make, at its line and column, with the name it is
//! closest to; nothing is made.
use crate::common;

use common::{code, dump, stderr, stdout, Project};

/// A package whose `generators.yaml` is `random:`'s rule, counted five times, spliced into a
/// plan that is right otherwise.
fn package(project: &Project, random: &str, solution: &str) {
    let plan = format!(
        "solution: {solution}\ndata:\n  sample:\n    data:\n      one:\n        in: '1 2'\n  secret:\n    data:\n      random:\n{random}        count: 5\n"
    );
    project.file(
        "pkg/problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Sum\n",
    );
    project.file("pkg/generators/generators.yaml", plan);
    project.file(
        "pkg/generators/gen.py",
        "import sys\nprint(sys.argv[1], 1)\n",
    );
    project.file(
        "pkg/submissions/accepted/sum.py",
        "print(sum(int(x) for x in input().split()))\n",
    );
}

/// The lines of stderr naming generators.yaml, and that nothing was made.
fn errors(project: &Project) -> Vec<String> {
    let output = project.grundy(&["generate", "pkg"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(!project.path().join("pkg/data/sample/one.in").exists());
    let text = stderr(&output);
    let file = project.path().join("pkg/generators/generators.yaml");
    let file = file.display().to_string();
    text.lines()
        .filter(|l| l.contains("generators.yaml"))
        .map(|l| l.replace(&file, "generators.yaml").replace("error: ", ""))
        .collect()
}

#[test]
fn a_misspelt_key_is_named_once_with_the_key_it_is_closest_to() {
    let project = Project::new();
    package(
        &project,
        "        generat: gen.py {seed}\n",
        "/submissions/accepted/sum.py",
    );
    assert_eq!(
        errors(&project),
        [
            "generators.yaml:10:9: unknown key `generat` in a case (did you mean `generate`?): \
          the case has no input (`generate`, `copy` or `in`)"
        ]
    );
}

#[test]
fn a_misspelt_generator_is_one_error_located_with_the_package_s_closest() {
    let project = Project::new();
    package(
        &project,
        "        generate: gne.py {seed}\n",
        "/submissions/accepted/sum.py",
    );
    assert_eq!(
        errors(&project),
        [
            "generators.yaml:10:19: generator `gne.py` is neither a file or folder of generators/ \
          nor a name of `generators:` (did you mean `gen.py`?)"
        ]
    );
}

#[test]
fn a_misspelt_solution_is_one_error_located_with_the_package_s_closest() {
    let project = Project::new();
    package(
        &project,
        "        generate: gen.py {seed}\n",
        "/submissions/accepted/sun.py",
    );
    assert_eq!(
        errors(&project),
        [
            "generators.yaml:1:11: solution `/submissions/accepted/sun.py` is not there (did you \
          mean `/submissions/accepted/sum.py`?)"
        ]
    );
}

/// In a contest folder, a package whose `generators.yaml` cannot be used fails as that package,
/// with its located error, and the others are verified with every report written: the run is
/// incomplete (exit 2), as for a package whose `problem.yaml` cannot be read. `--no-generate`
/// verifies its data as it is, and still warns that the plan is broken.
#[test]
fn a_broken_plan_fails_its_package_alone_and_every_report_is_written() {
    let project = Project::new();
    package(
        &project,
        "        generat: gen.py {seed}\n",
        "/submissions/accepted/sum.py",
    );
    crate::verify::different(&project, "different");
    let junit = project.path().join("report.xml");
    let junit_arg = junit.display().to_string();
    let args = [".", "--format", "json", "--junit", &junit_arg];
    let output = project.verify(&args);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let (rows, summary) = common::verify_json(&output);
    assert!(
        rows.iter().any(|r| r["id"]["problem"] == "different"),
        "{}",
        dump(&output)
    );
    let unreadable = summary["unreadable"].as_array().unwrap();
    assert_eq!(unreadable.len(), 1, "{summary}");
    let why = unreadable[0].as_str().unwrap();
    assert!(why.starts_with("pkg: not verified"), "{why}");
    assert!(
        why.contains("generators/generators.yaml:10:9: unknown key `generat`"),
        "{why}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let error = document
        .descendants()
        .find(|n| n.has_tag_name("error"))
        .expect("the broken package's error");
    let case = error.parent().unwrap();
    assert_eq!(case.attribute("classname"), Some("pkg"), "{xml}");
    assert!(xml.contains("testsuite name=\"different\""), "{xml}");

    let kept = project.verify(&[".", "--no-generate"]);
    let warned = stdout(&kept) + &stderr(&kept);
    assert!(
        warned.contains("generators.yaml:10:9: unknown key `generat`"),
        "{}",
        dump(&kept)
    );
}

/// An entry with nothing under it (`'1':`), an older BAPCtools' case kept by hand in `data/`,
/// as GCPC's and NWERC's public packages still write their samples: warned of at its place,
/// its committed files kept and judged, and the rest of the plan made, so the package is
/// verified with its generated secret data.
#[test]
fn an_empty_case_keeps_its_committed_files_and_the_rest_is_made() {
    let project = Project::new();
    let plan = "data:\n  sample:\n    data:\n      '1':\n  secret:\n    data:\n      \
                two:\n        in: '2 3'\n        ans: '5'\n";
    project.file(
        "pkg/problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Sum\n",
    );
    project.file("pkg/generators/generators.yaml", plan);
    project.file("pkg/data/sample/1.in", "1 2\n");
    project.file("pkg/data/sample/1.ans", "3\n");
    project.file(
        "pkg/submissions/accepted/sum.sh",
        "read a b\necho $((a + b))\n",
    );
    project.file("pkg/submissions/wrong_answer/one.sh", "echo 3\n");
    let output = project.verify(&["pkg", "--format", "json"]);
    let (rows, summary) = common::verify_json(&output);
    assert_eq!(
        summary["unreadable"],
        serde_json::json!([]),
        "{}",
        dump(&output)
    );
    assert!(
        stderr(&output).contains("generators.yaml:4:7: an empty case: nothing says how it is made"),
        "{}",
        dump(&output)
    );
    assert_eq!(
        std::fs::read_to_string(project.path().join("pkg/data/sample/1.in")).unwrap(),
        "1 2\n"
    );
    assert_eq!(
        std::fs::read_to_string(project.path().join("pkg/data/secret/two.in")).unwrap(),
        "2 3\n"
    );
    // The wrong answer is caught by the generated secret case alone.
    let wrong = common::row(&rows, "wrong_answer/one.sh");
    assert_eq!(wrong["ok"], true, "{}", dump(&output));
    assert_eq!(
        wrong["caught_by"][0]["case"],
        "secret/two",
        "{}",
        dump(&output)
    );
    assert_eq!(common::row(&rows, "accepted/sum.sh")["ok"], true);
}
