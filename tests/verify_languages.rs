//! Languages as the contest systems run them, through the real binary: a Java submission
//! whose file name is not its class's, a Python syntax error, a syntax error in any file of a
//! script, Python 3 under PyPy, a 2025-09
//! package's `include/` files and `constants`, a multi-file program that reads its own files, and deep
//! recursion, and no `ONLINE_JUDGE`. Each package is small and written by the test.

use crate::common;

use common::{code, dump, row, verify_json as json, Project};

/// Writes the files of a package at `at`.
pub(crate) fn package(project: &Project, at: &str, files: &[(&str, &str)]) {
    for (path, text) in files {
        project.file(&format!("{at}/{path}"), text);
    }
}

/// `verify PKG --format json`: each submission's row, and the run's output for messages.
pub(crate) fn verified(
    project: &Project,
    at: &str,
) -> (Vec<serde_json::Value>, std::process::Output) {
    let output = project.verify(&[at, "--format", "json"]);
    let (rows, _) = json(&output);
    (rows, output)
}

#[test]
#[cfg_attr(not(java), ignore = "needs javac and java on the PATH")]
fn a_java_submission_runs_the_class_that_holds_main_whatever_its_file_is_called() {
    let project = Project::new();
    let hello = "class Helper {\n    static String greet() { return \"Hello World!\"; }\n}\n\
                 class Hello {\n    public static void main(String[] args) {\n        \
                 System.out.println(Helper.greet());\n    }\n}\n";
    let two_mains = "public class Main {\n    public static void main(String[] a) {\n        \
                     System.out.println(\"Hello World!\");\n    }\n}\n";
    let other = "public class Other {\n    public static void main(String[] a) {\n        \
                 System.out.println(\"Goodbye\");\n    }\n}\n";
    package(
        &project,
        "hello",
        &[
            ("problem.yaml", "name: Hello\nlimits:\n  time_limit: 5\n"),
            ("data/secret/1.in", ""),
            ("data/secret/1.ans", "Hello World!\n"),
            ("submissions/accepted/test-hello.java", hello),
            ("submissions/accepted/both/Main.java", two_mains),
            ("submissions/accepted/both/Other.java", other),
        ],
    );
    let (rows, output) = verified(&project, "hello");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(row(&rows, "accepted/test-hello.java")["verdict"], "AC");
    // Of two classes with `main`, the format's default entry class.
    assert_eq!(row(&rows, "accepted/both")["verdict"], "AC");
}

/// A legacy package doubling a number, without a time limit (computed from the accepted runs).
fn double(project: &Project, submissions: &[(&str, &str)]) {
    let mut files = vec![
        ("problem.yaml", "name: Double\n"),
        ("data/secret/1.in", "21\n"),
        ("data/secret/1.ans", "42\n"),
    ];
    files.extend_from_slice(submissions);
    package(project, "double", &files);
}

#[test]
fn a_python_syntax_error_is_a_compile_error() {
    let project = Project::new();
    double(
        &project,
        &[
            ("submissions/accepted/ok.py", "print(int(input()) * 2)\n"),
            (
                "submissions/compile_error/unclosed.py",
                "print((int(input()) * 2)\n",
            ),
            (
                "submissions/compile_error/folder/main.py",
                "import helper\nhelper.run()\n",
            ),
            (
                "submissions/compile_error/folder/helper.py",
                "def run():\n    print(int(input()) * 2\n",
            ),
        ],
    );
    let (rows, output) = verified(&project, "double");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    for broken in ["compile_error/unclosed.py", "compile_error/folder"] {
        let row = row(&rows, broken);
        assert_eq!(row["verdict"], "CE", "{row:#}");
        assert!(
            row["compile_error"]
                .as_str()
                .unwrap()
                .contains("SyntaxError"),
            "{row:#}"
        );
    }
}

/// No contest system's default build defines `ONLINE_JUDGE` (DOMjudge's compile scripts leave it
/// commented out; problemtools and BAPCtools never set it), nor sets it in the environment: a
/// submission that answers otherwise under it is judged by what it does without it.
#[test]
fn no_online_judge_macro_or_variable_is_defined() {
    let project = Project::new();
    let cpp = "#include <cstdio>\n#include <cstdlib>\nint main() {\n    long n;\n    \
               std::scanf(\"%ld\", &n);\n#if defined(ONLINE_JUDGE) || defined(DOMJUDGE)\n    \
               n += 1;\n#endif\n    if (std::getenv(\"ONLINE_JUDGE\")) n += 1;\n    \
               std::printf(\"%ld\\n\", n * 2);\n}\n";
    double(&project, &[("submissions/accepted/judged.cpp", cpp)]);
    let (rows, output) = verified(&project, "double");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(row(&rows, "accepted/judged.cpp")["verdict"], "AC");
}

/// DOMjudge checks the syntax of each file of a multi-file Bash, JavaScript or Ruby submission:
/// a syntax error in a file the run never reads is still a compile error (`bash -n`, `node
/// --check` and `ruby -c` given several files check the first alone). Bash stands for the
/// three, as it is on every machine.
#[test]
fn a_syntax_error_in_any_file_of_a_script_is_a_compile_error() {
    let project = Project::new();
    double(
        &project,
        &[
            (
                "submissions/accepted/two/main.sh",
                ". ./twice.sh\nread n\ntwice \"$n\"\n",
            ),
            (
                "submissions/accepted/two/twice.sh",
                "twice() {\n    echo $(( $1 * 2 ))\n}\n",
            ),
            (
                "submissions/compile_error/unread/main.sh",
                "read n\necho $(( n * 2 ))\n",
            ),
            ("submissions/compile_error/unread/unused.sh", "if then fi\n"),
        ],
    );
    let (rows, output) = verified(&project, "double");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        row(&rows, "accepted/two")["verdict"],
        "AC",
        "{}",
        dump(&output)
    );
    let broken = row(&rows, "compile_error/unread");
    assert_eq!(broken["verdict"], "CE", "{broken:#}");
    assert!(
        broken["compile_error"]
            .as_str()
            .unwrap()
            .contains("unused.sh"),
        "the message names the file: {broken:#}"
    );
}

/// An accepted submission that is right only under PyPy, as the package's contest system runs
/// Python 3: the time limit is computed from its runs, so they were PyPy's.
const RIGHT_UNDER_PYPY: &str = "import sys\nn = int(input())\n\
    print(n * 2 if '__pypy__' in sys.builtin_module_names else n)\n";

#[test]
#[cfg_attr(
    not(pypy3),
    ignore = "needs pypy3 on the PATH (Debian's pypy3; .ci/run installs it)"
)]
fn python_3_runs_under_pypy_where_it_is_installed_and_the_time_limit_is_computed_from_it() {
    let project = Project::new();
    double(
        &project,
        &[("submissions/accepted/pypy.py", RIGHT_UNDER_PYPY)],
    );
    let (rows, output) = verified(&project, "double");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(row(&rows, "accepted/pypy.py")["verdict"], "AC");
    let tool = row(&rows, "accepted/pypy.py")["tool"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(tool.starts_with("pypy3: Python 3."), "{tool}");
    let (_, summary) = json(&output);
    let limit = summary["packages"][0]["time_limit"].as_str().unwrap();
    assert!(limit.contains("computed"), "{limit}");

    // CPython when asked for.
    let output = project
        .command(&[
            "--python3",
            "cpython",
            "verify",
            "double",
            "--format",
            "json",
        ])
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let (rows, _) = json(&output);
    assert_eq!(
        row(&rows, "accepted/pypy.py")["verdict"],
        "WA",
        "{}",
        dump(&output)
    );
}

#[test]
fn a_submission_runs_in_a_copy_of_its_own_folder_where_it_finds_its_files() {
    let project = Project::new();
    package(
        &project,
        "greet",
        &[
            ("problem.yaml", "name: Greet\nlimits:\n  time_limit: 5\n"),
            ("data/secret/1.in", "World\n"),
            ("data/secret/1.ans", "Hello World!\n"),
            (
                "submissions/accepted/shell/main.sh",
                ". ./secondary.sh\nread name\ngreet \"$name\"\n",
            ),
            (
                "submissions/accepted/shell/secondary.sh",
                "greet() {\n    echo \"Hello $1!\"\n}\n",
            ),
            (
                "submissions/accepted/python/main.py",
                "print(open('greeting.txt').read().strip() % input())\n",
            ),
            ("submissions/accepted/python/greeting.txt", "Hello %s!\n"),
        ],
    );
    let (rows, output) = verified(&project, "greet");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(row(&rows, "accepted/shell")["verdict"], "AC");
    assert_eq!(row(&rows, "accepted/python")["verdict"], "AC");
    // What a run wrote stayed in its copy.
    assert!(!project
        .path()
        .join("greet/submissions/accepted/shell/scratch.txt")
        .exists());
}

/// What a run writes in its working folder never reaches the next run of the same submission:
/// a script with files beside it starts each run in a fresh copy of its folder, a compiled
/// program (whose folder holds only its binary, not copied) in an empty one it may write in.
/// One worker, so every run of a submission goes through the same box one after another.
#[test]
fn each_run_starts_in_a_fresh_working_folder_whatever_the_last_one_wrote() {
    let project = Project::new();
    let script = "import os\nif os.path.exists('mark'):\n    raise SystemExit(1)\n\
                  greeting = open('greeting.txt').read()\n\
                  open('greeting.txt', 'w').write('Bye %s!')\nopen('mark', 'w').write('x')\n\
                  print(greeting.strip() % input())\n";
    let compiled = "#include <stdio.h>\nint main(void) {\n    char name[64];\n\
                    if (fopen(\"mark\", \"r\")) return 1;\n\
                    FILE *mark = fopen(\"mark\", \"w\");\n    if (!mark) return 2;\n\
                    fclose(mark);\n    if (scanf(\"%63s\", name) != 1) return 3;\n\
                    printf(\"Hello %s!\\n\", name);\n    return 0;\n}\n";
    let mut files = vec![
        ("problem.yaml", "name: Greet\nlimits:\n  time_limit: 5\n"),
        ("submissions/accepted/python/main.py", script),
        ("submissions/accepted/python/greeting.txt", "Hello %s!\n"),
        ("submissions/accepted/main.c", compiled),
    ];
    let cases = ["data/secret/1", "data/secret/2", "data/secret/3"];
    let (inputs, answers): (Vec<_>, Vec<_>) = cases
        .iter()
        .map(|case| (format!("{case}.in"), format!("{case}.ans")))
        .unzip();
    for (input, answer) in inputs.iter().zip(&answers) {
        files.push((input, "World\n"));
        files.push((answer, "Hello World!\n"));
    }
    package(&project, "greet", &files);
    let output = project.verify(&["greet", "-j", "1", "--format", "json"]);
    let (rows, _) = json(&output);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(row(&rows, "accepted/python")["verdict"], "AC");
    assert_eq!(row(&rows, "accepted/main.c")["verdict"], "AC");
    let folder = project.path().join("greet/submissions/accepted");
    assert!(!folder.join("python/mark").exists() && !folder.join("mark").exists());
}

/// A package of format `version` (none: legacy) whose input validator reads its bound from a
/// file of its own, by a relative name.
fn bounded(project: &Project, at: &str, version: Option<&str>) {
    let yaml = match version {
        Some(version) => format!("problem_format_version: {version}\nname: Echo\n"),
        None => "name: Echo\n".to_string(),
    };
    let validator = "import sys\nbound = int(open('bound.txt').read())\n\
                     sys.exit(42 if int(sys.stdin.read()) <= bound else 43)\n";
    package(
        project,
        at,
        &[
            ("problem.yaml", &format!("{yaml}limits:\n  time_limit: 5\n")),
            ("data/secret/1.in", "7\n"),
            ("data/secret/1.ans", "7\n"),
            ("input_validators/bounded/validate.py", validator),
            ("input_validators/bounded/bound.txt", "10\n"),
            ("submissions/accepted/echo.py", "print(input())\n"),
        ],
    );
}

#[test]
fn an_input_validator_finds_its_own_files_in_2023_07_and_2025_09_not_in_legacy() {
    let project = Project::new();
    for version in ["2023-07-draft", "2025-09"] {
        bounded(&project, version, Some(version));
        let (rows, output) = verified(&project, version);
        assert_eq!(code(&output), 0, "{version}: {}", dump(&output));
        assert_eq!(row(&rows, "accepted/echo.py")["verdict"], "AC");
    }
    // The legacy format says nothing of a validator's working folder: it starts in an empty
    // one, as problemtools and BAPCtools start it in a folder of theirs, and finds no bound.
    bounded(&project, "legacy", None);
    let output = project.verify(&["legacy", "--format", "json"]);
    assert_ne!(code(&output), 0, "{}", dump(&output));
    assert!(
        common::stdout(&output).contains("bound.txt"),
        "{}",
        dump(&output)
    );
}

/// A 2025-09 package adding a number its include file for Python 3 holds.
fn with_include(project: &Project, at: &str, more: &[(&str, &str)]) {
    let mut files = vec![
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Magic\nlimits:\n  time_limit: 5\n",
        ),
        ("data/secret/1.in", "40\n"),
        ("data/secret/1.ans", "42\n"),
        ("include/python3/include.py", "magic = 2\n"),
        ("include/default/shared.txt", "for every language\n"),
        (
            "submissions/accepted/accepted.py",
            "import include\nprint(int(input()) + include.magic)\n",
        ),
        // Its own copy, for running it alone, is replaced by the package's.
        (
            "submissions/accepted/own_copy/main.py",
            "import include\nprint(int(input()) + include.magic)\n",
        ),
        ("submissions/accepted/own_copy/include.py", "magic = 1\n"),
    ];
    files.extend_from_slice(more);
    package(project, at, &files);
}

#[test]
fn a_2025_09_packages_include_files_are_added_to_each_submission_of_their_language() {
    let project = Project::new();
    with_include(&project, "magic", &[]);
    let (rows, output) = verified(&project, "magic");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(row(&rows, "accepted/accepted.py")["verdict"], "AC");
    assert_eq!(row(&rows, "accepted/own_copy")["verdict"], "AC");

    // One name in `default/` and in a language's folder: an error naming both.
    let clash = Project::new();
    with_include(
        &clash,
        "magic",
        &[("include/python3/shared.txt", "python's\n")],
    );
    let output = clash.verify(&["magic"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let said = common::stdout(&output) + &common::stderr(&output);
    let both = [
        "magic/include/python3/shared.txt",
        "magic/include/default/shared.txt",
    ];
    assert!(both.iter().all(|file| said.contains(file)), "{said}");
}

#[test]
fn a_validator_folder_with_a_run_script_and_no_build_script_runs_it() {
    use std::os::unix::fs::PermissionsExt;
    let project = Project::new();
    package(
        &project,
        "run_only",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: Echo\nlimits:\n  time_limit: 5\n",
            ),
            ("data/secret/1.in", "7\n"),
            ("data/secret/1.ans", "7\n"),
            (
                "input_validators/number/run",
                "#!/bin/sh\nread n && [ \"$n\" -ge 0 ] && exit 42\nexit 43\n",
            ),
            ("submissions/accepted/echo.py", "print(input())\n"),
        ],
    );
    let run = project.path().join("run_only/input_validators/number/run");
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (rows, output) = verified(&project, "run_only");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(row(&rows, "accepted/echo.py")["verdict"], "AC");
}

#[test]
fn a_2025_09_packages_constants_are_substituted_in_its_programs() {
    let project = Project::new();
    let validator = "import sys\nn = int(sys.stdin.read())\n\
                     sys.exit(42 if 0 <= n <= {{n_max}} else 43)\n";
    package(
        &project,
        "constant",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: Constant\nlimits:\n  time_limit: 5\n\
                 constants:\n  magic: 2\n  n_max:\n    value: 100\n    tex: '10^2'\n",
            ),
            ("data/secret/1.in", "40\n"),
            ("data/secret/1.ans", "42\n"),
            ("input_validators/range.py", validator),
            ("include/python3/include.py", "magic = {{magic}}\n"),
            (
                "submissions/accepted/included.py",
                "import include\nprint(int(input()) + include.magic)\n",
            ),
            (
                "submissions/accepted/own.cpp",
                "#include <iostream>\nint main() { int n; std::cin >> n; \
                 std::cout << n + {{magic}} << std::endl; }\n",
            ),
            // A sequence naming no constant stays as it is.
            (
                "submissions/accepted/unknown.py",
                "print(int(input()) + len('{{other}}') - 7)\n",
            ),
        ],
    );
    let (rows, output) = verified(&project, "constant");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    for submission in [
        "accepted/included.py",
        "accepted/own.cpp",
        "accepted/unknown.py",
    ] {
        assert_eq!(row(&rows, submission)["verdict"], "AC", "{submission}");
    }
}

#[test]
#[cfg_attr(not(java), ignore = "needs javac and java on the PATH")]
fn a_recursion_too_deep_for_the_stack_is_a_run_time_error_in_cpp_and_java() {
    let project = Project::new();
    // 10^8 calls deep: far beyond a 256 MiB memory limit in C++, whose stack may use all of it
    // (as on the contest systems), and beyond the JVM's 64 MiB thread stack.
    let cpp = "#include <cstdio>\n\
               long deep(long n) { volatile long pad[4] = {n}; return n == 0 ? pad[0] : deep(n - 1) + pad[0]; }\n\
               int main() { std::printf(\"%ld\\n\", deep(100000000L)); }\n";
    let java = "public class Deep {\n    static long deep(long n) { return n == 0 ? 0 : deep(n - 1) + 1; }\n    \
                public static void main(String[] a) { System.out.println(deep(100000000L)); }\n}\n";
    package(
        &project,
        "deep",
        &[
            (
                "problem.yaml",
                "name: Deep\nlimits:\n  time_limit: 10\n  memory: 256\n",
            ),
            ("data/secret/1.in", ""),
            ("data/secret/1.ans", "100000000\n"),
            ("submissions/run_time_error/deep.cpp", cpp),
            ("submissions/run_time_error/Deep.java", java),
        ],
    );
    let (rows, output) = verified(&project, "deep");
    for submission in ["run_time_error/deep.cpp", "run_time_error/Deep.java"] {
        let row = row(&rows, submission);
        assert_eq!(row["ok"], true, "{row:#}\n{}", dump(&output));
        assert!(
            matches!(row["verdict"].as_str(), Some("RE" | "MLE")),
            "{row:#}"
        );
    }
}

#[test]
fn languages_prints_the_table_with_each_tools_version_or_where_it_was_looked_for() {
    let project = Project::new();
    let home = project.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let output = project
        .command(&["--python3", "cpython", "languages"])
        .env("HOME", &home)
        .env("PATH", "/usr/bin:/bin")
        .env_remove("CARGO_HOME")
        .env_remove("RUSTUP_HOME")
        .env_remove("PYENV_ROOT")
        .env_remove("SDKMAN_DIR")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let text = common::stdout(&output);
    let block = |code: &str| -> Vec<String> {
        let mut lines = text
            .lines()
            .skip_while(|l| !l.starts_with(&format!("{code} ")));
        let head = lines.next().unwrap_or_else(|| panic!("no {code}:\n{text}"));
        std::iter::once(head)
            .chain(lines.take_while(|l| l.starts_with("  ")))
            .map(str::to_string)
            .collect()
    };
    let python = block("python3");
    assert_eq!(python[0], "python3     Python 3 (.py .py3)");
    assert!(
        python[1].starts_with("  tool     python3: Python 3."),
        "{python:?}"
    );
    assert_eq!(
        python[2..],
        [
            "  check    python3 -m py_compile {files}",
            "  run      python3 {main}"
        ]
    );
    let home = home.display();
    assert_eq!(
        block("kotlin")[1],
        format!(
            "  tool     missing: kotlinc not found on PATH (/usr/bin:/bin) or in {home}/.cargo/bin, \
             {home}/.pyenv/shims, {home}/.sdkman/candidates/*/current/bin, {home}/.local/bin"
        )
    );
    assert!(block("bash")[1].starts_with("  tool     bash: GNU bash, version "));
}
