//! `grundy generate` on a `generators.yaml` with the mistakes a setter makes, through the real
//! binary: a misspelt key, a misspelt generator or solution. Each mistake is one error, said
//! once however many cases its rule would make, at its line and column, with the name it is
//! closest to; nothing is made.
use crate::common;

use common::{code, dump, stderr, Project};

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
