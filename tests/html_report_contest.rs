//! `verify CONTEST --html FILE` through the real binary: the page opens with the contest table,
//! its rows in `problems.yaml`'s order with the labels and counts of the JSON report's
//! `contest` line of the same run, each label linking to its problem's section; read from the
//! file as written and, where Chromium is installed, from the DOM a headless Chromium rendered
//! of it.

use std::process::Output;

use serde_json::Value;

use crate::common::{code, dump, stdout, Project};
use crate::html_report::{attribute, rendered, tags, visible_text};
use crate::verify_contest::package;

/// A contest of two packages listed out of folder order, verified with its JSON on stdout and
/// its page in `page.html`.
fn verified(project: &Project) -> Output {
    package(project, "apple");
    package(project, "zebra");
    project.file(
        "contest/problems.yaml",
        "- id: zebra\n  label: A\n- id: apple\n  label: B\n",
    );
    let output = project.verify(&["contest", "--format", "json", "--html", "page.html"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    output
}

/// The contest table's rows: each cell's text, and where its label links to.
fn table_rows(html: &str) -> Vec<(Vec<String>, String)> {
    let start = html.find("<table class=").unwrap();
    let table = &html[start..];
    assert!(
        table.starts_with("<table class=contest>")
            || table.starts_with("<table class=\"contest\">"),
        "the page opens with the contest table: {html}"
    );
    let body = &table[table.find("<tbody>").unwrap()..table.find("</tbody>").unwrap()];
    body.split("<tr")
        .skip(1)
        .map(|row| {
            let cells = row
                .replace("<th", "<td")
                .split("<td")
                .skip(1)
                .map(|cell| {
                    visible_text(&cell[cell.find('>').unwrap() + 1..])
                        .trim()
                        .to_string()
                })
                .collect();
            let link = tags(row, "a")
                .first()
                .and_then(|a| attribute(a, "href"))
                .unwrap_or_default();
            (cells, link)
        })
        .collect()
}

/// The heading of the section `#id` links to.
fn section_heading(html: &str, link: &str) -> String {
    let id = link.strip_prefix('#').unwrap();
    let section = tags(html, "section")
        .into_iter()
        .find(|tag| attribute(tag, "id").as_deref() == Some(id))
        .unwrap_or_else(|| panic!("no section {id}"));
    let rest = &html[html.find(section).unwrap()..];
    visible_text(&rest[rest.find("<h2>").unwrap()..rest.find("</h2>").unwrap()])
}

/// Checks the contest table of `html` against the JSON `contest` line of the same run.
fn says_what_the_json_contest_line_says(html: &str, output: &Output) {
    let lines: Vec<Value> = stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let contest = lines.iter().find(|line| line["type"] == "contest").unwrap();
    let problems = contest["problems"].as_array().unwrap();
    let rows = table_rows(html);
    assert_eq!(rows.len(), problems.len(), "{rows:?}");
    let text = |value: &Value| value.as_str().unwrap().to_string();
    for ((cells, link), problem) in rows.iter().zip(problems) {
        let groups: Vec<String> = problem["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| format!("{} {}", text(&g["group"]), g["cases"]))
            .collect();
        let submissions: Vec<String> = problem["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let (expected, all) = (&s["as_expected"], &s["submissions"]);
                format!("{} {expected}/{all}", text(&s["expected"]))
            })
            .collect();
        assert_eq!(cells[0], text(&problem["label"]), "{cells:?}");
        assert_eq!(cells[1], text(&problem["package"]), "{cells:?}");
        assert_eq!(cells[2], groups.join(", "), "{cells:?}");
        assert_eq!(cells[3], submissions.join(", "), "{cells:?}");
        assert_eq!(cells[7], text(&problem["status"]), "{cells:?}");
        assert_eq!(section_heading(html, link), cells[1], "{link}");
    }
    let order: Vec<(&str, &str)> = rows
        .iter()
        .map(|(cells, _)| (cells[0].as_str(), cells[1].as_str()))
        .collect();
    assert_eq!(
        order,
        [("A", "zebra"), ("B", "apple")],
        "problems.yaml's order"
    );
}

#[test]
fn the_page_opens_with_the_contest_table_of_the_json_report() {
    let project = Project::new();
    let output = verified(&project);
    let page = std::fs::read_to_string(project.path().join("page.html")).unwrap();
    says_what_the_json_contest_line_says(&page, &output);
}

#[test]
#[cfg_attr(
    not(chromium),
    ignore = "chromium is not installed (.ci/run installs it)"
)]
fn chromium_renders_the_contest_table_of_the_json_report() {
    let project = Project::new();
    let output = verified(&project);
    let (dom, log) = rendered(&project.path().join("page.html"));
    says_what_the_json_contest_line_says(&dom, &output);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "{console:#?}");
}
