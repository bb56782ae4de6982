//! Bytes a judged program writes, and case names taken from the file system, never reach a
//! terminal or a report raw: control characters are shown as escapes in the human report (on a
//! terminal or not, colored or not), the JSON lines and the JUnit file.

use crate::common;

use common::*;
use serde_json::Value;

/// A program that prints terminal controls on stdout (clearing the screen, a carriage return
/// that would overwrite the line with a fake verdict, a bell) and on stderr, then fails.
const HOSTILE: &str =
    "#!/bin/sh\nprintf 'w\\033[2Jin\\rPASS AC\\a\\n'\nprintf 'err\\033[31mred\\r\\n' >&2\nexit 3\n";
/// The same bytes on stdout, exiting 0: judged on its output (a wrong answer).
const HOSTILE_ANSWER: &str = "#!/bin/sh\nprintf 'w\\033[2Jin\\rPASS AC\\a\\n'\n";

fn project() -> (Project, String, String) {
    let project = Project::new();
    project.case("nim/plain", "1 2\n", "win\n");
    // A case whose file name holds an escape sequence and a line break.
    project.case("nim/b\u{1b}[2J\nFAKE", "1 2\n", "win\n");
    let crash = project.file("crash.sh", HOSTILE);
    let wrong = project.file("wrong.sh", HOSTILE_ANSWER);
    for script in [&crash, &wrong] {
        let mut permissions = std::fs::metadata(script).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
        std::fs::set_permissions(script, permissions).unwrap();
    }
    (
        project,
        crash.display().to_string(),
        wrong.display().to_string(),
    )
}

fn assert_no_controls(text: &str, what: &str) {
    let raw: Vec<char> = text
        .chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect();
    assert!(raw.is_empty(), "{what} holds raw controls {raw:?}:\n{text}");
}

#[test]
fn human_reports_show_escapes_with_and_without_color() {
    let (project, crash, wrong) = project();
    for program in [&crash, &wrong] {
        for color in ["never", "always"] {
            let output = project.grundy(&["check", "--exec", program, "--color", color]);
            assert_eq!(code(&output), 1, "{}", dump(&output));
            let text = stdout(&output);
            // With color grundy writes its own SGR codes: those are the only ESCs allowed.
            let without_own_colors = strip_sgr_of_grundy(&text);
            assert_no_controls(&without_own_colors, "the human report");
            assert!(text.contains("\\x1b[2J"), "{text}");
            assert!(text.contains("b\\x1b[2J\\nFAKE"), "the case name\n{text}");
            assert!(!text.lines().any(|l| l.starts_with("FAKE")), "{text}");
        }
    }
    let output = project.grundy(&["check", "--exec", &crash, "--color", "never"]);
    let text = stdout(&output);
    assert!(
        text.contains("| err\\x1b[31mred\\r"),
        "stderr excerpt\n{text}"
    );
}

/// Removes the color sequences grundy itself writes (`ESC [ digits ; ... m`) only where they
/// are followed by text grundy writes; what is left must have no ESC at all.
fn strip_sgr_of_grundy(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            let mut sequence = String::from("\u{1b}");
            for next in chars.by_ref() {
                sequence.push(next);
                if next.is_ascii_alphabetic() {
                    break;
                }
            }
            // Only SGR (`m`) sequences are grundy's; anything else stays and fails the test.
            if !sequence.ends_with('m') {
                out += &sequence;
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn json_lines_and_junit_hold_no_raw_controls() {
    let (project, crash, _) = project();
    let output = project.grundy(&[
        "check",
        "--exec",
        &crash,
        "--format",
        "json",
        "--junit",
        "report.xml",
    ]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    assert_no_controls(&text, "the JSON lines");
    let cases: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v["type"] == "case")
        .collect();
    assert_eq!(cases.len(), 2, "{text}");
    // The case id is data: JSON escapes keep it exact.
    assert!(
        cases.iter().any(|c| c["case"] == "nim/b\u{1b}[2J\nFAKE"),
        "{text}"
    );
    let junit = project.read("report.xml");
    assert_no_controls(&junit, "the JUnit file");
    let document = roxmltree::Document::parse(&junit).expect("well-formed XML");
    let names: Vec<&str> = document
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert!(names.contains(&"nim/b\\x1b[2J\\nFAKE"), "{names:?}");
}
