//! The packages `verify`'s tests write: `hello` (legacy), `different` (2023-07, the default
//! validator's flags) and `sum` (2025-09, a custom output validator, invalid cases, a compile
//! error).

use crate::common::Project;

const INPUT_VALIDATOR_EMPTY: &str = "import sys\nsys.exit(42 if sys.stdin.read() == '' else 43)\n";

/// Legacy `hello`: no input, print `Hello World!`; one submission per verdict folder.
pub(crate) fn hello(project: &Project, at: &str) {
    let files: &[(&str, &str)] = &[
        ("problem.yaml", "name: Hello World!\n"),
        ("data/sample/1.in", ""),
        ("data/sample/1.ans", "Hello World!\n"),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", "Hello World!\n"),
        ("input_format_validators/empty.py", INPUT_VALIDATOR_EMPTY),
        (
            "submissions/accepted/hello.c",
            "#include <stdio.h>\nint main(void) { puts(\"Hello World!\"); return 0; }\n",
        ),
        ("submissions/accepted/hello.py", "print('Hello World!')\n"),
        (
            "submissions/wrong_answer/goodbye.py",
            "print('Goodbye World!')\n",
        ),
        (
            "submissions/run_time_error/crash.py",
            "raise SystemExit(3)\n",
        ),
        (
            "submissions/time_limit_exceeded/forever.py",
            "while True:\n    pass\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("{at}/{path}"), text);
    }
}

/// 2023-07 `different`: the quotient of two numbers, judged with a float tolerance.
pub(crate) fn different(project: &Project, at: &str) {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Different\nlimits:\n  time_limit: 2\n",
        ),
        (
            "data/test_group.yaml",
            "output_validator_args: [float_tolerance, 1e-6]\n",
        ),
        ("data/sample/1.in", "1 3\n"),
        ("data/sample/1.ans", "0.333333333\n"),
        ("data/secret/1.in", "22 7\n"),
        ("data/secret/1.ans", "3.142857142857\n"),
        (
            "input_validators/two.py",
            "import sys\nw = sys.stdin.read().split()\nsys.exit(42 if len(w) == 2 and all(x.isdigit() for x in w) else 43)\n",
        ),
        (
            "submissions/accepted/exact.py",
            "a, b = map(int, input().split())\nprint(f'{a / b:.9f}')\n",
        ),
        (
            "submissions/wrong_answer/rounded.py",
            "a, b = map(int, input().split())\nprint(f'{a / b:.2f}')\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("{at}/{path}"), text);
    }
}

/// 2025-09 `sum`: a custom Kattis output validator, data to check it and the input validator,
/// submissions in C++ and Python, one that must not compile.
pub(crate) fn sum(project: &Project, at: &str) {
    let validator = r#"import sys
answer = open(sys.argv[2]).read().split()
output = sys.stdin.read().split()
if output == answer:
    sys.exit(42)
open(sys.argv[3] + 'judgemessage.txt', 'w').write(f'expected {answer}, got {output}')
sys.exit(43)
"#;
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Sum\ntype: pass-fail\n",
        ),
        ("data/sample/1.in", "1 2\n"),
        ("data/sample/1.ans", "3\n"),
        ("data/secret/big.in", "1000000 2000000\n"),
        ("data/secret/big.ans", "3000000\n"),
        ("data/invalid_input/letters.in", "a b\n"),
        ("data/valid_output/spaced.in", "1 2\n"),
        ("data/valid_output/spaced.ans", "3\n"),
        ("data/valid_output/spaced.out", "  3  \n"),
        ("data/invalid_output/wrong.in", "1 2\n"),
        ("data/invalid_output/wrong.ans", "3\n"),
        ("data/invalid_output/wrong.out", "4\n"),
        (
            "input_validators/ints.py",
            "import sys\nw = sys.stdin.read().split()\nsys.exit(42 if len(w) == 2 and all(x.isdigit() for x in w) else 43)\n",
        ),
        ("output_validator/validate.py", validator),
        (
            "submissions/accepted/sum.cpp",
            "#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }\n",
        ),
        (
            "submissions/wrong_answer/off_by_one.py",
            "a, b = map(int, input().split())\nprint(a + b + (a > 100))\n",
        ),
        (
            "submissions/compile_error/broken.cpp",
            "int main() { return missing; }\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("{at}/{path}"), text);
    }
}
