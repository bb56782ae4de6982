//! `grundy mutants --html FILE` through the real binary: the page of a run whose data misses a
//! case says what its JSON lines say (each mutant's row: its status, file:line, change, the
//! case that killed it with its verdict, why it did not build; the survivors, each with what
//! the search found of it: the command that tells it apart and the case `--add` wrote, or that
//! none was searched and why; the likely equivalent mutants; the score and the counts; the cases
//! that kill the most and none), read from the file as written and, where Chromium is
//! installed, from the DOM it renders, with no console error.

use std::process::Output;

use serde_json::Value;

use crate::common::{code, dump, Project};
use crate::html_report::{attribute, rendered, visible_text};
use crate::mutants::{json_lines, sum, triangle, weak_triangle};

/// The flags every run here is given: its JSON lines on stdout, its page in `page.html`.
const REPORTS: [&str; 4] = ["--format", "json", "--html", "page.html"];

/// The triangle package without the case `n = 2` and with no generator, mutated: one survivor,
/// not searched, one stillborn mutant, six killed.
fn mutated(project: &Project) -> Output {
    triangle(project);
    std::fs::remove_file(project.path().join("tri/data/secret/2.in")).unwrap();
    std::fs::remove_file(project.path().join("tri/data/secret/2.ans")).unwrap();
    ran(project, &["mutants", "tri"])
}

/// The same with its generator searched and `--add`: the survivor told apart, its input added.
fn searched(project: &Project) -> Output {
    weak_triangle(project);
    ran(
        project,
        &["mutants", "tri", "--generator", "gen.py {seed}", "--add"],
    )
}

fn ran(project: &Project, args: &[&str]) -> Output {
    let output = project.grundy(&[args, &REPORTS[..]].concat());
    assert_eq!(code(&output), 0, "{}", dump(&output));
    output
}

/// The text of the cell after the header cell `th` in `html`'s counts.
fn count(html: &str, th: &str) -> String {
    let at = html
        .find(&format!(">{th}<"))
        .unwrap_or_else(|| panic!("no count {th}: {html}"));
    let cell = &html[at..];
    let cell = &cell[cell.find("<td").unwrap()..];
    let cell = &cell[cell.find('>').unwrap() + 1..];
    cell[..cell.find('<').unwrap()].to_string()
}

/// What the page says the search found of a survivor, by its JSON line (none of these runs
/// keeps a case `--add` would have written).
fn found(json: &Value) -> String {
    match (&json["distinguished_by"], &json["found"], &json["why"]) {
        (Value::String(command), Value::String(case), _) => {
            format!("told apart by {command}: added as {case}")
        }
        (Value::String(command), _, _) => {
            format!("told apart by {command} (--add writes it as a case)")
        }
        (_, _, Value::String(why)) => format!("search stopped: {why}"),
        _ => "not searched".into(),
    }
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
        assert_eq!(cells[3], found(json), "{subject}");
    }
    // Why none was searched, when none was.
    let unsearched = section(html, "survivors").contains("unsearched");
    assert_eq!(unsearched, summary["budget"].is_null(), "{html}");
    if summary["budget"].is_null() {
        assert!(!html.contains("id=\"equivalent\"") && !html.contains("id=equivalent"));
    } else {
        let listed = rows(section(html, "equivalent"), "data-mutant");
        let equivalent = mutants.iter().filter(|m| m["status"] == "equivalent");
        let equivalent: Vec<_> = equivalent.collect();
        assert_eq!(listed.len(), equivalent.len(), "{listed:?}");
        for ((subject, _, cells), json) in listed.iter().zip(&equivalent) {
            let place = format!("{}:{}", json["file"].as_str().unwrap(), json["line"]);
            let expected = [subject, &place, json["diff"].as_str().unwrap()];
            assert_eq!(cells, &expected, "{subject}");
        }
    }
    for (th, key) in [
        ("likely equivalent", "equivalent"),
        ("killing inputs found", "found"),
        ("added as cases", "added"),
    ] {
        assert_eq!(count(html, th), summary[key].to_string(), "{th}");
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
    assert!(
        visible_text(section(&page, "survivors")).contains(
            "No input was searched for them: no generator to search with: generators.yaml has \
             no `generate:` command taking `{seed}`"
        ),
        "{page}"
    );
}

/// A search's page: the survivor's input found and added, by the command that makes it.
#[test]
fn the_mutants_page_says_what_the_search_found() {
    let project = Project::new();
    let output = searched(&project);
    let (_, summary) = json_lines(&output);
    assert_eq!(
        (&summary["found"], &summary["added"]),
        (&1.into(), &1.into())
    );
    let page = std::fs::read_to_string(project.path().join("page.html")).unwrap();
    says_what_the_json_says(&page, &output);
    assert!(visible_text(section(&page, "survivors")).contains(": added as secret/mutant-"));
}

/// A search's page with a likely equivalent mutant: listed in a group of its own.
#[test]
fn the_mutants_page_lists_the_likely_equivalent_mutants() {
    let project = Project::new();
    let output = ran(&project, &sum(&project));
    let (_, summary) = json_lines(&output);
    assert_eq!(summary["equivalent"], 1, "{}", dump(&output));
    let page = std::fs::read_to_string(project.path().join("page.html")).unwrap();
    says_what_the_json_says(&page, &output);
    assert!(visible_text(section(&page, "equivalent")).contains("None of 5 inputs"));
}

#[test]
#[cfg_attr(
    not(chromium),
    ignore = "chromium is not installed (.ci/run installs it)"
)]
fn chromium_renders_the_mutants_page_as_the_json_lines_say() {
    let project = Project::new();
    let output = searched(&project);
    let (dom, log) = rendered(&project.path().join("page.html"));
    says_what_the_json_says(&dom, &output);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "{console:#?}");
}
