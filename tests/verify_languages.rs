//! Languages as the contest systems run them, through the real binary: a Java submission
//! whose file name is not its class's, a Python syntax error, Python 3 under PyPy, a 2025-09
//! package's `include/` files, a multi-file program that reads its own files, and deep
//! recursion. Each package is small and written by the test.

use crate::common;

use common::{code, dump, row, verify_json as json, Project};

/// Writes the files of a package at `at`.
fn package(project: &Project, at: &str, files: &[(&str, &str)]) {
    for (path, text) in files {
        project.file(&format!("{at}/{path}"), text);
    }
}

/// `verify PKG --format json`: each submission's row, and the run's output for messages.
fn verified(project: &Project, at: &str) -> (Vec<serde_json::Value>, std::process::Output) {
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
