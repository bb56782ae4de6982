//! `grundy generate` with the `generators:` dictionary of `generators.yaml`: names that each make
//! a program of some files of `generators/`, sharing a file, as GCPC's and NWERC's packages write
//! them (`range: [range.cpp, validate.h]`, `random: [random.cpp, validate.h]`, ...). All those
//! programs live in the one folder `generators/`; each name must still run its own files.
use crate::common;

use common::{code, dump, Project};

#[test]
fn each_name_of_the_generators_dictionary_runs_its_own_program() {
    let project = Project::new();
    let plan = "generators:
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
";
    let files: &[(&str, &str)] = &[
        (
            "pkg/problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Sum\n",
        ),
        ("pkg/generators/generators.yaml", plan),
        (
            "pkg/generators/shared.py",
            "def show(a, b):\n    print(a, b)\n",
        ),
        (
            "pkg/generators/one.py",
            "import shared\nshared.show(1, 10)\n",
        ),
        (
            "pkg/generators/two.py",
            "import shared\nshared.show(2, 20)\n",
        ),
        (
            "pkg/submissions/accepted/sum.py",
            "print(sum(int(x) for x in input().split()))\n",
        ),
    ];
    for (path, text) in files {
        project.file(path, text);
    }

    let output = project.grundy(&["generate", "pkg"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    // Each case holds what its own generator prints, and the answer to it.
    assert_eq!(project.read("pkg/data/secret/by_one.in"), "1 10\n");
    assert_eq!(project.read("pkg/data/secret/by_one.ans"), "11\n");
    assert_eq!(project.read("pkg/data/secret/by_two.in"), "2 20\n");
    assert_eq!(project.read("pkg/data/secret/by_two.ans"), "22\n");
}
