//! `grundy mutants --html FILE` through the real binary: the page of a run whose data misses a
//! case says what its JSON lines say (each mutant's row: its status, file:line, change, the
//! case that killed it with its verdict, why it did not build; the survivors, each with its
//! column for a killing case found; the score; the cases that kill the most and none), read
//! from the file as written and, where Chromium is installed, from the DOM it renders, with no
//! console error.

use std::process::Output;

use serde_json::Value;

use crate::common::{code, dump, Project};
use crate::html_report::{attribute, rendered, visible_text};
use crate::mutants::{json_lines, triangle};

/// The triangle package without the case `n = 2`, mutated with its JSON lines on stdout and
/// its page in `page.html`: one survivor, one stillborn mutant, six killed.
fn mutated(project: &Project) -> Output {
    triangle(project);
    std::fs::remove_file(project.path().join("tri/data/secret/2.in")).unwrap();
    std::fs::remove_file(project.path().join("tri/data/secret/2.ans")).unwrap();
    let output = project.grundy(&["mutants", "tri", "--format", "json", "--html", "page.html"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    output
}

/// The part of `html` from the section `id` to the next section.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<section id=\"{id}\""))
        .or_else(|| html.find(&format!("<section id={id}")))
        .unwrap_or_else(|| panic!("no section {id}: {html}"));
    let rest = &html[start..];
    &rest[..rest.find("</section>").unwrap_or(rest.len())]
}

/// Each row of `part` that carries `key`: that attribute, its class, and its cells' text.
fn rows(part: &str, key: &str) -> Vec<(String, Option<String>, Vec<String>)> {
    let mut rows = vec![];
    for piece in part.split("<tr").skip(1) {
        let tag = format!("<tr{}", &piece[..=piece.find('>').unwrap()]);
        let Some(name) = attribute(&tag, key) else {
            continue;
        };
        let body = &piece[piece.find('>').unwrap() + 1..];
        // The last row's cells end with its table.
        let body = &body[..body.find("</table>").unwrap_or(body.len())];
        let cells = body
            .split("<td")
            .flat_map(|td| td.split("<th"))
            .skip(1)
            .map(|cell| visible_text(&format!("<x{cell}")).trim().to_string())
            .collect();
        rows.push((name, attribute(&tag, "class"), cells));
    }
    rows
}

fn says_what_the_json_says(html: &str, output: &Output) {
    let (mutants, summary) = json_lines(output);
    let every = rows(section(html, "mutants"), "data-mutant");
    assert_eq!(every.len(), mutants.len(), "{every:?}");
    for ((subject, class, cells), json) in every.iter().zip(&mutants) {
        let status = json["status"].as_str().unwrap();
        assert_eq!(subject, json["id"]["subject"].as_str().unwrap());
        assert_eq!(class.as_deref(), Some(status), "{subject}");
        let place = format!("{}:{}", json["file"].as_str().unwrap(), json["line"]);
        let killed_by = match (&json["verdict"], &json["killed_by"]) {
            (Value::String(verdict), Value::String(case)) => format!("{verdict} {case}"),
            _ => String::new(),
        };
        let why = json["why"].as_str().unwrap_or_default();
        let expected = [
            subject,
            status,
            &place,
            json["diff"].as_str().unwrap(),
            &killed_by,
            why,
        ];
        assert_eq!(cells, &expected, "{subject}");
    }
    let survivors = rows(section(html, "survivors"), "data-mutant");
    let survived: Vec<&Value> = mutants
        .iter()
        .filter(|m| m["status"] == "survived")
        .collect();
    assert_eq!(survivors.len(), survived.len(), "{survivors:?}");
    for ((subject, _, cells), json) in survivors.iter().zip(&survived) {
        assert_eq!(subject, json["id"]["subject"].as_str().unwrap());
        assert_eq!(cells[2], json["diff"].as_str().unwrap());
        // No search ran: no killing case found.
        assert_eq!(json["found"], Value::Null);
        assert_eq!(cells[3], "not searched");
    }
    let score = summary["score"].as_f64().unwrap();
    assert!(
        html.contains(&format!("{:.1}%</td>", score * 100.0))
            || html.contains(&format!("id=score>{:.1}%", score * 100.0)),
        "the score {score}: {html}"
    );
    let cases = section(html, "cases");
    let killers: Vec<(String, String)> = rows(cases, "data-case")
        .into_iter()
        .map(|(case, _, cells)| (case, cells[1].clone()))
        .collect();
    let kills: Vec<(String, String)> = summary["kills"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(case, n)| (case.clone(), n.to_string()))
        .collect();
    assert_eq!(killers, kills);
    let idle = visible_text(&cases[cases.find("idle").unwrap()..]);
    for case in summary["killed_none"].as_array().unwrap() {
        assert!(idle.contains(case.as_str().unwrap()), "{case}: {idle}");
    }
}

#[test]
fn the_mutants_page_says_what_the_json_lines_say() {
    let project = Project::new();
    let output = mutated(&project);
    let (mutants, _) = json_lines(&output);
    // The run this page is of: a survivor, a stillborn mutant, kills.
    let statuses: Vec<&str> = mutants
        .iter()
        .map(|m| m["status"].as_str().unwrap())
        .collect();
    for status in ["survived", "stillborn", "killed"] {
        assert!(statuses.contains(&status), "{status}: {}", dump(&output));
    }
    let page = std::fs::read_to_string(project.path().join("page.html")).unwrap();
    says_what_the_json_says(&page, &output);
}

#[test]
#[cfg_attr(
    not(chromium),
    ignore = "chromium is not installed (.ci/run installs it)"
)]
fn chromium_renders_the_mutants_page_as_the_json_lines_say() {
    let project = Project::new();
    let output = mutated(&project);
    let (dom, log) = rendered(&project.path().join("page.html"));
    says_what_the_json_says(&dom, &output);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "{console:#?}");
}
