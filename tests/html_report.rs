//! `--html FILE` through the real binary: the page of a `verify` run says what the JSON report
//! of the same run says (each submission's row, its verdict, the cases that caught it, their
//! details), read from the file as written and, where Chromium is installed, from the DOM a
//! headless Chromium rendered of it, with no console error; what a hostile submission printed
//! (`<script>`, quotes, control bytes) is text on the page, never markup; a run cut short by
//! Ctrl-C still writes its page, marked cancelled; `check` gets a row per case, held against
//! the time limit its run started with.

use std::path::Path;
use std::process::Output;

use crate::common::{self, code, dump, verify_json, Project};

/// What the hostile submissions print on a secret case, as the page shows it: one token (a
/// checker's message quotes it whole) of markup, quotes and control bytes, the controls (ESC,
/// BEL) shown as escapes.
const HOSTILE: &str = r#"<script>document.title="pwned"</script>"q"'a'&\x1b[31mred\x07"#;

/// A submission printing [`HOSTILE`] (its escapes Python's, so the real control bytes) to
/// `stream` on a secret case, then exiting with `exit`.
fn hostile_py(stream: &str, exit: u8) -> String {
    let literal = HOSTILE.replace('\'', "\\'");
    format!(
        "import sys\nn = input()\nif n == '1':\n    print(n)\nelse:\n    \
         sys.{stream}.write('{literal}\\n')\n    sys.exit({exit})\n"
    )
}

/// A package of three cases and four submissions: accepted, a hostile wrong answer, a hostile
/// crash (its stderr what the page shows), and one spinning past the time limit on the secret
/// cases.
fn package(project: &Project) {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Echo\nlimits:\n  time_limit: 1\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "1\n"),
        ("data/secret/1.in", "2\n"),
        ("data/secret/1.ans", "2\n"),
        ("data/secret/2.in", "3\n"),
        ("data/secret/2.ans", "3\n"),
        (
            "input_validators/digits.py",
            "import sys\nsys.exit(42 if sys.stdin.read().strip().isdigit() else 43)\n",
        ),
        ("submissions/accepted/echo.py", "print(input())\n"),
        (
            "submissions/wrong_answer/hostile.py",
            &hostile_py("stdout", 0),
        ),
        (
            "submissions/run_time_error/crash.py",
            &hostile_py("stderr", 3),
        ),
        (
            "submissions/time_limit_exceeded/spin.py",
            "n = input()\nif n == '1':\n    print(n)\nelse:\n    while True:\n        pass\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("echo/{path}"), text);
    }
}

/// `verify echo` with its JSON on stdout and its page in `page.html`: the run, and the page.
fn verified(project: &Project) -> (Output, String) {
    package(project);
    let output = project.verify(&["echo", "--format", "json", "--html", "page.html"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let page = std::fs::read_to_string(project.path().join("page.html")).unwrap();
    (output, page)
}

/// The value of attribute `name` in the tag `tag` (the text from `<` to `>`), quoted or not,
/// its entities decoded.
pub(crate) fn attribute(tag: &str, name: &str) -> Option<String> {
    let at = tag.find(&format!(" {name}="))? + name.len() + 2;
    let rest = &tag[at..];
    let value = match rest.strip_prefix('"') {
        Some(quoted) => &quoted[..quoted.find('"')?],
        None => &rest[..rest.find([' ', '>']).unwrap_or(rest.len())],
    };
    Some(decoded(value))
}

/// `text` with the page's entities decoded.
fn decoded(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// `html` without its tags, its entities decoded: the text a reader sees.
pub(crate) fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    decoded(&out)
}

/// Every `<tag ...>` opening tag in `html`, in order.
pub(crate) fn tags<'a>(html: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}");
    html.match_indices(&open)
        .filter(|(at, _)| {
            let next = html[at + open.len()..].chars().next();
            matches!(next, Some(' ' | '>'))
        })
        .map(|(at, _)| &html[at..at + html[at..].find('>').unwrap() + 1])
        .collect()
}

/// A submission's row of the matrix: its state, what it got, and each case's verdict class.
#[derive(Debug, PartialEq)]
pub(crate) struct Row {
    state: String,
    got: String,
    cells: Vec<String>,
}

/// The (first) matrix's rows by submission, and its cases in column order.
pub(crate) fn matrix(html: &str) -> (Vec<(String, Row)>, Vec<String>) {
    let table = &html[html
        .find("class=\"matrix\"")
        .or_else(|| html.find("class=matrix"))
        .unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    let head = &table[..table.find("</thead>").unwrap()];
    let cases = tags(head, "th")
        .into_iter()
        .filter_map(|th| attribute(th, "title"))
        .collect();
    let mut rows = vec![];
    for piece in table.split("<tr").skip(1) {
        let tag = format!("<tr{}", &piece[..=piece.find('>').unwrap()]);
        let Some(submission) = attribute(&tag, "data-submission") else {
            continue;
        };
        let classes: Vec<String> = tags(piece, "td")
            .into_iter()
            .map(|td| attribute(td, "class").unwrap_or_default())
            .collect();
        let row = Row {
            state: attribute(&tag, "class").unwrap(),
            got: classes[1].clone(),
            // The cells after what it must get, what it got, and its slowest case; a verdict's
            // class is its letters (`near` may follow).
            cells: classes[3..]
                .iter()
                .map(|class| class.split(' ').next().unwrap().to_string())
                .collect(),
        };
        rows.push((submission, row));
    }
    (rows, cases)
}

/// The line of each failure of the page (a `<details>`' summary, or a paragraph where there
/// is nothing more to open), as a reader sees it.
pub(crate) fn failure_lines(html: &str) -> Vec<String> {
    let mut lines = vec![];
    for opening in ["class=failure>", "class=\"failure\">"] {
        for (at, _) in html.match_indices(opening) {
            let rest = &html[at + opening.len()..];
            let rest = rest.strip_prefix("<summary>").unwrap_or(rest);
            let end = [rest.find("</summary>"), rest.find("</p>")]
                .into_iter()
                .flatten()
                .min();
            lines.push(visible_text(&rest[..end.unwrap()]));
        }
    }
    lines
}

/// Checks the page `html` (as written, or as Chromium rendered it) against the JSON report of
/// the same run, `output`.
fn says_what_the_json_says(html: &str, output: &Output) {
    let (json_rows, _) = verify_json(output);
    let (rows, cases) = matrix(html);
    assert_eq!(cases, ["sample/1", "secret/1", "secret/2"], "{html}");
    assert_eq!(rows.len(), json_rows.len(), "{rows:?}");
    let summaries = failure_lines(html);
    for json in &json_rows {
        let submission = json["submission"].as_str().unwrap();
        let (_, row) = rows
            .iter()
            .find(|(name, _)| name == submission)
            .unwrap_or_else(|| panic!("no row for {submission}: {rows:?}"));
        assert_eq!(row.got, json["verdict"].as_str().unwrap(), "{submission}");
        let ok = if json["ok"] == true {
            "ok"
        } else {
            "unexpected"
        };
        assert_eq!(row.state, ok, "{submission}");
        // The cells that are not AC are the cases that caught it, with their verdicts.
        let caught: Vec<(String, String)> = json["caught_by"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["case"].as_str().unwrap().into(),
                    c["verdict"].as_str().unwrap().into(),
                )
            })
            .collect();
        let failed: Vec<(String, String)> = cases
            .iter()
            .zip(&row.cells)
            .filter(|(_, verdict)| *verdict != "AC")
            .map(|(case, verdict)| (case.clone(), verdict.clone()))
            .collect();
        assert_eq!(failed, caught, "{submission}");
        // Each has its details, its message as the JSON has it.
        for c in json["caught_by"].as_array().unwrap() {
            let mut summary = format!(
                "{} {submission} · {}",
                c["verdict"].as_str().unwrap(),
                c["case"].as_str().unwrap()
            );
            if let Some(message) = c["message"].as_str() {
                summary += &format!(": {message}");
            }
            assert!(
                summaries.contains(&summary),
                "{summary:?} in {summaries:#?}"
            );
        }
    }
    assert_eq!(rows.iter().filter(|(_, r)| r.got == "WA").count(), 1);
    assert_eq!(rows.iter().filter(|(_, r)| r.got == "TLE").count(), 1);
    // What the hostile submission printed is text: no element of its own, its controls shown as
    // escapes; the page's only script-like content is none at all.
    assert!(!html.contains("<script"), "{html}");
    assert!(!html.contains('\u{1b}') && !html.contains('\u{7}'));
    let text = visible_text(html);
    assert!(
        text.contains(&format!("found `{HOSTILE}`")),
        "the checker's message: {text}"
    );
    assert!(
        text.contains(&format!("stderr:\n{HOSTILE}")),
        "the crash's stderr: {text}"
    );
}

#[test]
fn the_page_says_what_the_json_report_of_the_same_run_says() {
    let project = Project::new();
    let (output, page) = verified(&project);
    says_what_the_json_says(&page, &output);
    assert!(
        page.contains("default-src 'none'"),
        "nothing is loaded, no script runs"
    );
    assert!(
        page.contains("1 case catches no submission that must fail"),
        "{page}"
    );
}

/// The DOM headless Chromium renders of `page`, and what it logged (the console's messages
/// among them), with a profile of its own in a fresh folder.
pub(crate) fn rendered(page: &Path) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    // A browser that hangs fails the test rather than hanging it.
    let output = std::process::Command::new("timeout")
        .arg(common::NO_HANG.as_secs().to_string())
        .arg("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(output.status.success(), "{}", dump(&output));
    let dom = String::from_utf8(output.stdout).unwrap();
    (dom, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
#[cfg_attr(
    not(chromium),
    ignore = "chromium is not installed (.ci/run installs it)"
)]
fn chromium_renders_the_page_as_the_json_report_says_without_a_console_error() {
    let project = Project::new();
    let (output, _) = verified(&project);
    let (dom, log) = rendered(&project.path().join("page.html"));
    says_what_the_json_says(&dom, &output);
    // Chromium logs every console message (a script error, a blocked load) as `:CONSOLE`.
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "{console:#?}");
    // The colours: each verdict's class has its own background in the page's style.
    for (verdict, colour) in [("AC", "#c8e6c9"), ("WA", "#ef9a9a"), ("TLE", "#fff176")] {
        assert!(
            dom.contains(&format!(".{verdict}{{background:{colour}}}")),
            "{verdict}"
        );
    }
}

#[test]
fn a_run_cut_short_still_writes_its_page_marked_cancelled() {
    let project = Project::new();
    package(&project);
    project.file(
        "echo/submissions/time_limit_exceeded/sleepy.py",
        "import time\ntime.sleep(60)\n",
    );
    let marker = project.path().display().to_string();
    let sleeping = || common::running(&marker, "sleepy.py");
    let args = ["verify", "echo", "--html", "page.html"];
    let output = project.interrupted(&args, sleeping);
    assert_eq!(code(&output), 130, "{}", dump(&output));
    let page = std::fs::read_to_string(project.path().join("page.html")).unwrap();
    assert!(page.contains("<b>Cancelled</b>"), "{page}");
}

#[test]
fn check_shows_a_row_per_case_as_its_json_report_does() {
    let project = Project::new();
    project.powers("good", &[1, 2]);
    project.powers("also", &[3]);
    // Its expected output is wrong: the solver's right answer is a wrong answer here.
    project.case("powers-of-two/wrong", "3\n", "Kiki\n");
    let output = project.grundy(&["check", "--format", "json", "--html", "page.html"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let page = std::fs::read_to_string(project.path().join("page.html")).unwrap();
    let lines: Vec<serde_json::Value> = common::stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .filter(|line: &serde_json::Value| line["type"] == "case")
        .collect();
    assert_eq!(lines.len(), 3);
    for line in &lines {
        let case = line["case"].as_str().unwrap();
        let within = case.strip_prefix("powers-of-two/").unwrap();
        let verdict = line["verdict"].as_str().unwrap();
        let row = format!("<tr><th>{within}<td class=");
        let at = page
            .find(&row)
            .unwrap_or_else(|| panic!("no row for {case}: {page}"));
        let class = attribute(&page[at + "<tr><th>".len() + within.len()..], "class").unwrap();
        assert_eq!(class.split(' ').next(), Some(verdict), "{case}");
    }
    assert!(
        page.contains("built-in · wrong: <span class=q>"),
        "the failure's details: {page}"
    );
}

#[test]
fn a_check_page_holds_the_runs_against_the_time_limit_its_run_started_with() {
    let project = Project::new();
    project.powers("good", &[1, 2]);
    let args = ["check", "--time-limit", "1234", "--html", "page.html"];
    let output = project.grundy(&args);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let page = std::fs::read_to_string(project.path().join("page.html")).unwrap();
    assert!(page.contains("<p>time limit: 1.234s</p>"), "{page}");
}
