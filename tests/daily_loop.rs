//! The daily loop without Rust, through the real binary: `grundy new --package` scaffolds a
//! package every command works on at once; `--exec` takes a source file (built by the language
//! table); settings and packages are found from any folder below them; `verify` selects
//! submissions and turns warnings into errors; duplicate YAML keys are located errors. One
//! package per test, reused across its assertions, to keep the suite cheap.

use crate::common;

use common::*;

#[test]
fn a_python_package_scaffolded_without_rust_is_judged_validated_and_verified() {
    let project = Project::new();
    let made = project.grundy(&["new", "sum-up", "--package"]);
    assert_eq!(code(&made), 0, "{}", dump(&made));
    let package = project.path().join("sum-up");
    for file in [
        "problem.yaml",
        "statement/problem.en.tex",
        ".gitignore",
        "generators/generators.yaml",
        "generators/random_case.py",
        "input_validators/validate.py",
        "submissions/accepted/sol.py",
        "submissions/wrong_answer/wrong.py",
        "data/sample/1.in",
        "data/secret/large.ans",
    ] {
        assert!(package.join(file).is_file(), "{file}\n{}", dump(&made));
    }
    let generators = project.read("sum-up/generators/generators.yaml");
    assert!(
        generators.contains("generate: random_case.py {seed}"),
        "{generators}"
    );

    // A source file is built by the language table and judged, from the package folder.
    let accepted = project.grundy_in(
        &package,
        &["check", "--exec", "submissions/accepted/sol.py"],
    );
    assert_eq!(code(&accepted), 0, "{}", dump(&accepted));
    assert_eq!(closing_line(&accepted), "4 passed, 0 failed");
    // The package is found from a folder inside it; the wrong submission fails the cases with a
    // negative number (2 of the 4: worked out from the scaffold's data by hand).
    let wrong = project.grundy_in(
        &package.join("data/secret"),
        &[
            "check",
            "--exec",
            "../../submissions/wrong_answer/wrong.py",
            "-q",
        ],
    );
    assert_eq!(code(&wrong), 1, "{}", dump(&wrong));
    assert_eq!(closing_line(&wrong), "2 passed, 2 failed");

    let validated = project.grundy_in(&package, &["validate"]);
    assert_eq!(code(&validated), 0, "{}", dump(&validated));
    assert!(
        stdout(&validated).contains("Validated 4 inputs"),
        "{}",
        dump(&validated)
    );
    // The package's folder goes where a problem's name does: `.` inside it, its path outside.
    let dot = project.grundy_in(&package, &["validate", "."]);
    assert_eq!(code(&dot), 0, "{}", dump(&dot));
    assert!(
        stdout(&dot).contains("Validated 4 inputs"),
        "{}",
        dump(&dot)
    );
    let outside = project.grundy_in(
        project.path(),
        &[
            "check",
            "sum-up",
            "--exec",
            "sum-up/submissions/accepted/sol.py",
        ],
    );
    assert_eq!(code(&outside), 0, "{}", dump(&outside));
    assert_eq!(closing_line(&outside), "4 passed, 0 failed");
    // Without a program, `check` says what a package needs.
    let no_program = project.grundy_in(&package, &["check", "."]);
    assert_eq!(code(&no_program), 2, "{}", dump(&no_program));
    assert!(
        stderr(&no_program).contains("is a problem package, which has no built-in solver")
            && stderr(&no_program).contains("--exec"),
        "{}",
        dump(&no_program)
    );
    project.file("sum-up/data/secret/broken.in", "2\n1  2\n");
    project.file("sum-up/data/secret/broken.ans", "3\n");
    let rejected = project.grundy_in(&package, &["validate"]);
    assert_eq!(code(&rejected), 1, "{}", dump(&rejected));
    assert!(
        stdout(&rejected).contains("input secret/broken is rejected by the input validator"),
        "{}",
        dump(&rejected)
    );
    std::fs::remove_file(package.join("data/secret/broken.in")).unwrap();
    std::fs::remove_file(package.join("data/secret/broken.ans")).unwrap();

    // A submission's path selects it; the wrong one is caught as it must be.
    let one = project.grundy_in(
        &package,
        &["verify", "submissions/wrong_answer/wrong.py", "-q"],
    );
    assert_eq!(code(&one), 0, "{}", dump(&one));
    assert!(
        stdout(&one).contains("package valid; 1 of 1 submissions judged, 1 as expected"),
        "{}",
        dump(&one)
    );
    let unknown = project.grundy_in(&package, &["verify", "--submission", "accepted/sool.py"]);
    assert_eq!(code(&unknown), 2, "{}", dump(&unknown));
    assert!(
        stderr(&unknown).contains("did you mean `accepted/sol.py`?"),
        "{}",
        dump(&unknown)
    );

    // A typo in problem.yaml is a warning, and an error under -e.
    let yaml = project.read("sum-up/problem.yaml");
    project.file(
        "sum-up/problem.yaml",
        yaml.replace("time_limit:", "timelimit:"),
    );
    let strict = project.grundy_in(
        &package,
        &[
            "verify",
            "-e",
            "-q",
            "--submissions-only",
            "--submission",
            "accepted/*",
        ],
    );
    assert_eq!(code(&strict), 1, "{}", dump(&strict));
    assert!(
        stdout(&strict).contains("unknown key `limits.timelimit` (did you mean `time_limit`?)")
            && stdout(&strict).contains("errors under --warnings-as-errors"),
        "{}",
        dump(&strict)
    );

    // A key given twice is an error naming both places.
    project.file(
        "sum-up/problem.yaml",
        format!("{yaml}limits:\n  memory: 512\n"),
    );
    let twice = project.grundy_in(&package, &["verify"]);
    assert_eq!(code(&twice), 2, "{}", dump(&twice));
    let line = yaml.lines().position(|l| l == "limits:").unwrap() + 1;
    let expected = format!(
        "problem.yaml:{}:1: duplicate key `limits`: it is set already at line {line}, column 1",
        yaml.lines().count() + 1
    );
    assert!(
        stdout(&twice).contains(&expected) || stderr(&twice).contains(&expected),
        "{expected}\n{}",
        dump(&twice)
    );
}

/// A compile error names the user's file, where the compiler saw it in its box as `src/...`.
fn compile_error_names(file: &str, source: &str, line: &str) {
    let project = Project::new();
    project.case("nim/one", "1 2 3\n", "lose\n");
    project.file(file, source);
    let broken = project.grundy(&["check", "nim", "--exec", file]);
    assert_eq!(code(&broken), 1, "{}", dump(&broken));
    let said = stderr(&broken);
    assert!(
        said.contains(&format!("{file}:{line}")),
        "{}",
        dump(&broken)
    );
    let name = file.rsplit('/').next().unwrap();
    assert!(!said.contains(&format!("src/{name}")), "{}", dump(&broken));
}

#[test]
#[cfg_attr(not(gxx), ignore = "needs g++ on the PATH (Debian's g++)")]
fn a_cpp_compile_error_names_the_users_file() {
    compile_error_names(
        "work/ce.cpp",
        "#include <cstdio>\nint main() { int x = ; }\n",
        "2:",
    );
}

#[test]
#[cfg_attr(not(java), ignore = "needs javac and java on the PATH")]
fn a_java_compile_error_names_the_users_file() {
    let source = "public class Main {\n  public static void main(String[] a) { int x = ; }\n}\n";
    compile_error_names("work/Main.java", source, "2: error");
}

#[test]
fn a_cpp_source_is_built_and_judged_and_a_bare_name_gets_its_path() {
    let project = Project::new();
    let made = project.grundy(&["new", "sum", "--package", "--lang", "cpp"]);
    assert_eq!(code(&made), 0, "{}", dump(&made));
    let package = project.path().join("sum");
    assert!(package.join("input_validators/validate.cpp").is_file());

    let accepted = project.grundy_in(
        &package,
        &["check", "--exec", "submissions/accepted/sol.cpp"],
    );
    assert_eq!(code(&accepted), 0, "{}", dump(&accepted));
    assert_eq!(closing_line(&accepted), "4 passed, 0 failed");

    project.file("sum/broken.cpp", "int main( {\n");
    let broken = project.grundy_in(&package, &["check", "--exec", "broken.cpp"]);
    assert_eq!(code(&broken), 1, "{}", dump(&broken));
    assert!(
        stderr(&broken).contains("`broken.cpp` does not compile, so nothing was judged"),
        "{}",
        dump(&broken)
    );

    let program = project.file("sum/a.out", "#!/bin/sh\ncat\n");
    set_mode(&program, 0o755);
    let bare = project.grundy_in(&package, &["check", "--exec", "a.out"]);
    assert_eq!(code(&bare), 2, "{}", dump(&bare));
    assert!(
        stderr(&bare).contains("did you mean `./a.out`?"),
        "{}",
        dump(&bare)
    );
}

#[test]
fn settings_are_found_from_a_subfolder_and_nothing_found_says_where_it_looked() {
    let project = Project::new();
    project.file("runner.toml", "fixtures = \"cases\"\n");
    // Nim's rule: 1 xor 2 xor 3 is 0, so the player to move loses.
    project.file("cases/nim/one.in", "1 2 3\n");
    project.file("cases/nim/one.out", "lose\n");
    let below = project.path().join("cases/nim");
    let checked = project.grundy_in(&below, &["check"]);
    assert_eq!(code(&checked), 0, "{}", dump(&checked));
    assert_eq!(closing_line(&checked), "1 passed, 0 failed");

    // A folder that is no package, problem or fixtures root, where there is nothing else.
    let empty = tempfile::tempdir().unwrap();
    std::fs::create_dir(empty.path().join("notes")).unwrap();
    let nothing = project.grundy_in(empty.path(), &["check", "notes"]);
    assert_eq!(code(&nothing), 2, "{}", dump(&nothing));
    assert!(
        stderr(&nothing)
            .contains("looked for `problem.yaml` (a problem package) and `runner.toml`"),
        "{}",
        dump(&nothing)
    );
}
