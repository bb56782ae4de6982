//! A judged program never sees the answers, whatever its command line names: a folder that
//! holds them is shown with them hidden (a box masks them, Landlock grants everything else in
//! the folder), a path to them is refused before anything is judged, and where nothing can hide
//! them (no namespaces, no Landlock) a folder holding them is refused too.

use crate::common;
use crate::exec_support;

use common::*;
use exec_support::*;

/// The one answer of the project [`probe`] writes: a program that prints it read it.
const ANSWER: &str = "the-answer-42";

/// A project with one case of a problem `probe`, its answer [`ANSWER`], and a file of the
/// program's own beside `fixtures/` (as a Java program's classes are beside it).
fn probe() -> Project {
    let project = Project::new();
    project.case("probe/a", "1\n", &format!("{ANSWER}\n"));
    project.file("mine.txt", "own-file\n");
    project
}

/// The JSON report of `check --exec COMMAND` on `project`, started through `launch`.
fn judged(project: &Project, launch: Launch, command: &str) -> Judged {
    check_json_with(project, launch, &["check", "--exec", command])
}

in_each_launch!(project_folder:
    the_project_folder_given_to_a_program_shows_its_files_but_not_the_answers,
    without_namespaces_the_project_folder_shows_its_files_but_not_the_answers,
    as_nobody_without_namespaces_the_project_folder_shows_its_files_but_not_the_answers
);

/// The attack of issue 32: the project's folder as an argument, and the answer read by its
/// path in it, or found by walking the folder (`find`, as `ls -R` lists it). The program's own
/// file beside the fixtures is read all the same: it fails (RE) if it cannot, and gets WA when
/// the answer stays out of its reach. As root, a project other users may not read is shown
/// through a copy (without the answers) too.
fn project_folder(launch: Launch) {
    let project = probe();
    assert_containment(&project, launch);
    let folder = shell_quote(&project.path().display().to_string());
    let cheat = format!(
        "sh -c '[ \"$(cat \"$0\"/mine.txt)\" = own-file ] || exit 3; \
         cat \"$0\"/fixtures/probe/a.out 2>/dev/null || \
         find \"$0\" -name a.out -exec cat {{}} + 2>/dev/null; exit 0' {folder}"
    );
    let lister = format!("sh -c 'ls -R \"$0\" >&2; exit 3' {folder}");
    let mut modes = vec![0o755];
    if is_root() && launch != Launch::NoNamespacesAsNobody {
        modes.push(0o700);
    }
    for mode in modes {
        let closed = mode == 0o700;
        let permissions = std::os::unix::fs::PermissionsExt::from_mode(mode);
        std::fs::set_permissions(project.path(), permissions).unwrap();
        let run = judged(&project, launch, &cheat);
        assert_eq!(
            run.verdict("probe/a"),
            "WA",
            "closed {closed}\n{}",
            run.dump()
        );
        // The listing a program makes of the folder (as `ls -R` does) names no answer.
        let run = judged(&project, launch, &lister);
        assert_eq!(run.verdict("probe/a"), "RE", "{}", run.dump());
        let listed = run.case("probe/a")["stderr"].as_str().unwrap_or_default();
        assert!(
            !listed.contains("a.out") && !listed.contains("a.in"),
            "{launch:?}, closed {closed}: the listing shows the fixtures\n{}",
            run.dump()
        );
    }
}

/// A package given as a folder argument shows its files, its `data/` hidden.
#[test]
fn a_package_given_to_a_program_shows_its_files_but_not_its_data() {
    let project = Project::new();
    let package = "fixtures/hello";
    for (path, text) in [
        // A limit of its own: it has no accepted submission to compute one from.
        ("problem.yaml", "name: Hello\nlimits:\n  time_limit: 2\n"),
        ("data/sample/1.in", ""),
        ("data/sample/1.ans", "hello-answer\n"),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", "hello-answer\n"),
    ] {
        project.file(&format!("{package}/{path}"), text);
    }
    let folder = shell_quote(&project.path().join(package).display().to_string());
    let cheat = format!(
        "sh -c 'grep -q Hello \"$0\"/problem.yaml || exit 3; \
         cat \"$0\"/data/secret/1.ans; exit 0' {folder}"
    );
    for launch in [Launch::Direct, Launch::NoNamespaces] {
        let run = judged(&project, launch, &cheat);
        for case in ["hello/sample/1", "hello/secret/1"] {
            assert_eq!(run.verdict(case), "WA", "{launch:?}\n{}", run.dump());
        }
    }
}

/// A path to an answer, or to a folder inside those that hold them, by any name, is refused
/// before anything is judged, with one error naming it (exit 2); `stress` refuses it too.
#[test]
fn a_path_to_the_answers_on_the_command_line_is_refused() {
    let project = probe();
    std::os::unix::fs::symlink(
        project.path().join("fixtures/probe"),
        project.path().join("link"),
    )
    .unwrap();
    for launch in [Launch::Direct, Launch::NoNamespaces] {
        for named in [
            "fixtures/probe/a.out",
            "fixtures",
            "link",
            "fixtures/probe/..",
        ] {
            let command = format!("sh -c 'cat \"$0\"' {named}");
            let output = grundy(&project, launch, &["check", "--exec", &command])
                .output()
                .unwrap();
            assert_eq!(code(&output), 2, "{named}\n{}", dump(&output));
            let said = stderr(&output);
            assert!(
                said.contains(&format!("error: cannot judge `{command}`: it names `"))
                    && said.contains("the answers of the cases judged")
                    && said.contains("a judged program never sees them"),
                "{named}\n{}",
                dump(&output)
            );
            assert!(!stdout(&output).contains("passed"), "{}", dump(&output));
        }
    }
    let answer = shell_quote(
        &project
            .path()
            .join("fixtures/probe/a.out")
            .display()
            .to_string(),
    );
    let command = format!("sh -c 'cat \"$0\"' {answer}");
    let output = project.grundy(&[
        "stress",
        "powers-of-two",
        "--cases",
        "1",
        "--exec",
        &command,
    ]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("cannot judge"),
        "{}",
        dump(&output)
    );
}

/// A source given to `check` is built by a compiler that never sees the answers, even where its
/// toolchain's folder (the one above its `bin/`, here the project) holds them.
#[test]
fn a_source_is_built_without_the_answers_where_its_toolchain_shows_them() {
    let project = probe();
    let answer = project.path().join("fixtures/probe/a.out");
    let rustc = project.file("bin/rustc", peeking_rustc(&answer.display().to_string()));
    std::fs::set_permissions(&rustc, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    // The project's path in the source: no build cache can hold its build already.
    let unique = format!("// {}\nfn main() {{}}\n", project.path().display());
    project.file("sol.rs", unique);
    let path = format!("{}:/usr/bin:/bin", project.path().join("bin").display());
    let output = project
        .command(&["check", "--exec", "sol.rs", "--format", "json"])
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env("HOME", project.path().join("home"))
        .env("PATH", path)
        .output()
        .unwrap();
    let run = parse_json(output, std::time::Duration::ZERO);
    assert_eq!(run.verdict("probe/a"), "WA", "{}", run.dump());
}

/// Where nothing can hide part of a folder (no namespaces, no Landlock), a folder holding the
/// answers is refused even when the programs are trusted (`--isolate off`); the program's own
/// files may still be named.
#[test]
fn without_namespaces_or_landlock_a_folder_holding_the_answers_is_refused() {
    let project = probe();
    let launch = Launch::NoNamespacesNoLandlock;
    let folder = shell_quote(&project.path().display().to_string());
    let command = format!("sh -c 'cat \"$0\"/fixtures/probe/a.out' {folder}");
    let args = ["check", "--isolate", "off", "--exec", &command];
    let output = grundy(&project, launch, &args).output().unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains(
            "without namespaces or Landlock this machine cannot show a folder without them"
        ),
        "{}",
        dump(&output)
    );
    let mine = shell_quote(&project.path().join("mine.txt").display().to_string());
    let command = format!("sh -c 'cat \"$0\"' {mine}");
    let run = check_json_with(
        &project,
        launch,
        &["check", "--isolate", "off", "--exec", &command],
    );
    assert_eq!(run.verdict("probe/a"), "WA", "{}", run.dump());
}
