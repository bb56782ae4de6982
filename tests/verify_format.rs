//! Details of the 2025-09 package format that change what a package means, through the real
//! binary: its `constants` substituted in a checktestdata script and in `test_group.yaml`, and
//! `allow_file_writing`, whose default keeps a submission's working folder read-only (in a box,
//! and under Landlock alone), and an
//! output validator that starts among the judged submission's files.
//! Each package is small and written by the test.

use crate::common;
use crate::verify_languages::{package, verified};

use crate::exec_support::{assert_containment, fixture, grundy, Launch};
use common::{code, dump, row, verify_json, Project};

#[test]
fn constants_are_substituted_in_a_checktestdata_script_and_in_test_group_yaml() {
    let project = Project::new();
    package(
        &project,
        "constant",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: Constant\nlimits:\n  time_limit: 5\n\
                 constants:\n  n_max: 100\n  tolerance:\n    value: 0.5\n    tex: '\\frac12'\n",
            ),
            (
                "input_validators/range.ctd",
                "INT(0, {{n_max}}) NEWLINE\nEOF\n",
            ),
            ("data/secret/1.in", "100\n"),
            ("data/secret/1.ans", "100\n"),
            // Unquoted, the sequence is YAML only once substituted, as the format's text
            // substitution makes it.
            (
                "data/secret/test_group.yaml",
                "output_validator_args: [float_absolute_tolerance, {{tolerance}}]\n",
            ),
            // Outside the script's range once `n_max` is 100: the script must reject it.
            ("data/invalid_input/over.in", "101\n"),
            (
                "submissions/accepted/close.py",
                "print(int(input()) + 0.4)\n",
            ),
            (
                "submissions/wrong_answer/far.py",
                "print(int(input()) + 0.6)\n",
            ),
        ],
    );
    let (rows, output) = verified(&project, "constant");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(row(&rows, "accepted/close.py")["verdict"], "AC");
    assert_eq!(row(&rows, "wrong_answer/far.py")["verdict"], "WA");
}

/// A submission that says whether it could make a file in its working folder.
const WRITER: &str = "try:\n    open('made.txt', 'w').write('x')\n    print('allowed')\n\
                      except OSError:\n    print('denied')\n";

#[test]
fn a_submission_may_write_in_its_working_folder_only_where_the_package_allows_it() {
    writes_where_allowed(Launch::Direct);
}

/// Without namespaces the working folder is kept read-only by Landlock alone: it must still
/// grant writing where the package allows it, and deny it where not.
#[test]
fn under_landlock_alone_a_submission_writes_only_where_the_package_allows_it() {
    let launch = Launch::NoNamespaces;
    assert!(
        assert_containment(&fixture(), launch).contains("Landlock"),
        "the containment is not Landlock's"
    );
    writes_where_allowed(launch);
}

fn writes_where_allowed(launch: Launch) {
    let project = Project::new();
    for (at, version, allow, answer) in [
        ("default", "2025-09", "", "denied"),
        ("draft", "2023-07-draft", "", "denied"),
        (
            "allowed",
            "2025-09",
            "allow_file_writing: true\n",
            "allowed",
        ),
        // The legacy format has no such key: its submissions write, as its peers let them.
        ("legacy", "legacy", "", "allowed"),
    ] {
        let problem = format!(
            "problem_format_version: {version}\nname: Writer\nlimits:\n  time_limit: 5\n{allow}"
        );
        package(
            &project,
            at,
            &[
                ("problem.yaml", &problem),
                ("data/secret/1.in", ""),
                ("data/secret/1.ans", &format!("{answer}\n")),
                ("submissions/accepted/writer.py", WRITER),
            ],
        );
        let output = grundy(&project, launch, &["verify", at, "--format", "json"])
            .output()
            .unwrap();
        let (rows, _) = verify_json(&output);
        assert_eq!(code(&output), 0, "{at}: {}", dump(&output));
        assert_eq!(row(&rows, "accepted/writer.py")["verdict"], "AC", "{at}");
    }
}

#[test]
fn a_2025_09_output_validator_starts_among_the_judged_submissions_files() {
    let project = Project::new();
    // It accepts an answer only where the submission's files are around it: `marker.txt`,
    // beside the submission's `main.py`, holds the answer it wants.
    let validator = "import sys\n\
                     want = open('marker.txt').read().split()\n\
                     got = sys.stdin.read().split()\n\
                     sys.exit(42 if got == want else 43)\n";
    package(
        &project,
        "seen",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: Seen\nlimits:\n  time_limit: 5\n",
            ),
            ("data/secret/1.in", ""),
            ("data/secret/1.ans", "7\n"),
            ("output_validator/seen.py", validator),
            ("submissions/accepted/marked/main.py", "print(7)\n"),
            ("submissions/accepted/marked/marker.txt", "7\n"),
        ],
    );
    let (rows, output) = verified(&project, "seen");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(row(&rows, "accepted/marked")["verdict"], "AC");
}
