//! Details of the 2025-09 package format that change what a package means, through the real
//! binary: its `constants` substituted in a checktestdata script and in `test_group.yaml`.
//! Each package is small and written by the test.

use crate::common;
use crate::verify_languages::{package, verified};

use common::{code, dump, row, Project};

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
