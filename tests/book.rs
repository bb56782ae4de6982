//! The book (`docs/`) and the README that leads into it: every chapter the summary lists exists
//! and every page is listed; every relative link and `{{#include}}` resolves, anchors as mdBook
//! makes them; the README stays a front door; every `runner.toml` example loads through the real
//! binary; and every console run the pages show is replayed on a temporary copy of the shipped
//! fixtures and prints what is shown, or is marked `console,ignore` with its reason in the text.
//! mdBook itself is never needed: the Markdown is read as it is.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use common::*;
use replay::{matches, normal, replay, runs};

mod replay;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn book() -> PathBuf {
    repository().join("docs/src")
}

/// A page of the book (a path below `docs/src`), or the README (`../../README.md`).
struct Page {
    name: String,
    path: PathBuf,
    text: String,
}

fn page(path: PathBuf) -> Page {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path
        .strip_prefix(book())
        .unwrap_or_else(|_| path.strip_prefix(repository()).unwrap())
        .display()
        .to_string();
    Page { name, path, text }
}

/// Every Markdown file below `docs/src` but the summary, as paths relative to it.
fn book_files() -> BTreeSet<String> {
    tree(&book())
        .into_iter()
        .filter(|f| f != "SUMMARY.md")
        .collect()
}

/// The book's pages and the README.
fn pages() -> Vec<Page> {
    let mut pages: Vec<Page> = book_files()
        .into_iter()
        .map(|f| page(book().join(f)))
        .collect();
    pages.push(page(repository().join("README.md")));
    pages
}

/// A fenced code block: its info string (`console,ignore`), its lines, the line it starts on.
struct Block {
    info: String,
    lines: Vec<String>,
    line: usize,
}

impl Block {
    fn language(&self) -> &str {
        self.info.split(',').next().unwrap_or_default()
    }

    fn has(&self, attribute: &str) -> bool {
        self.info.split(',').skip(1).any(|a| a.trim() == attribute)
    }

    fn attribute(&self, key: &str) -> Option<&str> {
        self.info
            .split(',')
            .skip(1)
            .find_map(|a| a.trim().strip_prefix(key)?.strip_prefix('='))
    }
}

/// The fenced code blocks of a page, and its other lines (with blank lines where blocks were).
fn split(text: &str) -> (Vec<Block>, Vec<String>) {
    let mut blocks = Vec::new();
    let mut prose = Vec::new();
    let mut open: Option<Block> = None;
    for (n, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_string(),
                    lines: Vec::new(),
                    line: n + 1,
                });
                prose.push(String::new());
            }
            (Some(_), Some("")) => {
                blocks.push(open.take().unwrap());
                prose.push(String::new());
            }
            (Some(block), _) => {
                block.lines.push(line.to_string());
                prose.push(String::new());
            }
            (None, None) => prose.push(line.to_string()),
        }
    }
    assert!(open.is_none(), "a code block is never closed");
    (blocks, prose)
}

/// A line of prose without its inline code spans.
fn without_code(line: &str) -> String {
    line.split('`').step_by(2).collect()
}

/// The anchors mdBook gives a page's headings: the heading's text without its Markdown marks,
/// lowercased, white space as `-`, everything but letters, digits, `-` and `_` dropped; a
/// repeated anchor gets `-1`, `-2`, ...
fn anchors(prose: &[String]) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    for line in prose {
        let Some(heading) = line.trim_start_matches('#').strip_prefix(' ') else {
            continue;
        };
        if !line.starts_with('#') {
            continue;
        }
        let text = link_texts(heading).replace(['`', '*'], "");
        let id: String = text
            .chars()
            .filter_map(|c| {
                if c.is_alphanumeric() || c == '_' || c == '-' {
                    Some(c.to_ascii_lowercase())
                } else if c.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let count = seen.entry(id.clone()).or_insert(0);
        anchors.insert(if *count == 0 {
            id.clone()
        } else {
            format!("{id}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// `[text](target)` as `text`.
fn link_texts(line: &str) -> String {
    let mut out = line.to_string();
    while let Some((start, end, text)) = first_link(&out) {
        out.replace_range(start..end, &text);
    }
    out
}

/// The first inline link of a line: where it starts and ends, its text.
fn first_link(line: &str) -> Option<(usize, usize, String)> {
    let middle = line.find("](")?;
    let start = line[..middle].rfind('[')?;
    let end = middle + line[middle..].find(')')? + 1;
    Some((start, end, line[start + 1..middle].to_string()))
}

/// The targets of a page's inline links, outside code, with the line each is on.
fn links(prose: &[String]) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    for (n, line) in prose.iter().enumerate() {
        let mut rest = without_code(line);
        while let Some(middle) = rest.find("](") {
            let after = &rest[middle + 2..];
            let end = after.find(')').expect("a link's target ends with `)`");
            links.push((n + 1, after[..end].to_string()));
            rest = after[end..].to_string();
        }
    }
    links
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => assert!(out.pop(), "{} climbs too far", path.display()),
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn every_chapter_in_the_summary_exists_and_every_page_is_in_the_summary() {
    let summary = std::fs::read_to_string(book().join("SUMMARY.md")).unwrap();
    let (_, prose) = split(&summary);
    let listed: Vec<String> = links(&prose).into_iter().map(|(_, t)| t).collect();
    assert!(listed.len() >= 20, "{listed:?}");
    let mut unique = BTreeSet::new();
    for chapter in &listed {
        assert!(
            chapter.ends_with(".md") && !chapter.contains('#'),
            "SUMMARY.md lists `{chapter}`: a chapter is a page, without an anchor"
        );
        assert!(
            book().join(chapter).is_file(),
            "SUMMARY.md lists {chapter}, which does not exist"
        );
        assert!(unique.insert(chapter.clone()), "{chapter} is listed twice");
    }
    let unlisted: Vec<String> = book_files().difference(&unique).cloned().collect();
    assert!(
        unlisted.is_empty(),
        "pages below docs/src that SUMMARY.md does not list: {unlisted:?}"
    );
    let toml = std::fs::read_to_string(repository().join("docs/book.toml")).unwrap();
    let toml: toml::Table = toml.parse().expect("docs/book.toml is TOML");
    assert_eq!(toml["book"]["src"].as_str(), Some("src"));
}

#[test]
fn every_relative_link_and_include_resolves_to_a_file_and_heading() {
    let pages = pages();
    let anchors_of: BTreeMap<PathBuf, BTreeSet<String>> = pages
        .iter()
        .map(|p| (normalise(&p.path), anchors(&split(&p.text).1)))
        .collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let folder = page.path.parent().unwrap();
        let (_, prose) = split(&page.text);
        for (line, target) in links(&prose) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let path = if file.is_empty() {
                normalise(&page.path)
            } else {
                normalise(&folder.join(file))
            };
            let at = format!("{}:{line}: `{target}`", page.name);
            if !path.exists() {
                broken.push(format!("{at}: no such file"));
                continue;
            }
            if page.path.starts_with(book()) && !path.starts_with(book()) {
                broken.push(format!(
                    "{at}: leads out of docs/src, which the built book does not hold"
                ));
            }
            if !anchor.is_empty() && !anchors_of.get(&path).is_some_and(|a| a.contains(anchor)) {
                broken.push(format!("{at}: no heading there has the anchor `{anchor}`"));
            }
        }
        for (n, line) in page.text.lines().enumerate() {
            if let Some(rest) = line.trim().strip_prefix("{{#include ") {
                let file = rest.strip_suffix("}}").expect("`{{#include FILE}}`");
                checked += 1;
                if !folder.join(file).is_file() {
                    broken.push(format!(
                        "{}:{}: includes {file}, not a file",
                        page.name,
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} links were found");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_readme_is_a_front_door_with_the_two_commands() {
    let readme = std::fs::read_to_string(repository().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 320,
        "README.md has {lines} lines; the book holds the rest"
    );
    for command in ["cargo run -- check", "cargo test"] {
        assert!(readme.contains(command), "README.md must name `{command}`");
    }
    let (_, prose) = split(&readme);
    let into_book = links(&prose)
        .iter()
        .filter(|(_, t)| t.starts_with("docs/src/"))
        .count();
    assert!(into_book >= 10, "README.md links into the book by chapter");
}

/// Every block of the book that is not run says so in its info string, and its language is
/// one the rules below know; returns the blocks of `language` with the page holding each.
fn blocks_of(language: &str) -> Vec<(String, Block)> {
    let mut found = Vec::new();
    for page in pages() {
        for block in split(&page.text).0 {
            if block.language() == language {
                found.push((page.name.clone(), block));
            }
        }
    }
    found
}

/// Makes an executable stub at each relative program a `kattis:`/`testlib:` value names, so a
/// `runner.toml` example that names `./interactor` loads where that program exists.
fn stub_programs(project: &Project, value: &toml::Value) {
    match value {
        toml::Value::Table(table) => table.values().for_each(|v| stub_programs(project, v)),
        toml::Value::String(text) => {
            let Some(command) = text
                .strip_prefix("kattis:")
                .or_else(|| text.strip_prefix("testlib:"))
            else {
                return;
            };
            let words = shell_words::split(command).unwrap();
            if words[0].contains('/') && !words[0].starts_with('/') {
                let stub = project.file(&words[0], "#!/bin/sh\nexit 42\n");
                set_mode(&stub, 0o755);
            }
        }
        _ => {}
    }
}

/// `grundy list` in a new project whose runner.toml is `text`, with the programs it names.
fn list_with(text: &str) -> std::process::Output {
    let project = Project::new();
    project.file("runner.toml", text);
    stub_programs(&project, &toml::Value::Table(text.parse().unwrap()));
    project.grundy(&["list"])
}

#[test]
fn every_runner_toml_example_loads_through_the_real_binary() {
    let examples = blocks_of("toml");
    assert!(!examples.is_empty());
    let mut loaded = 0;
    for (page, block) in examples {
        let at = format!("{page}:{}", block.line);
        if block.has("ignore") {
            continue;
        }
        assert!(
            block.has("runner"),
            "{at}: mark a TOML block `toml,runner` (a runner.toml example, loaded by this test) \
             or `toml,ignore`"
        );
        let output = list_with(&(block.lines.join("\n") + "\n"));
        assert_eq!(code(&output), 0, "{at}: {}", dump(&output));
        assert!(
            stdout(&output).contains("fixtures root:"),
            "{at}: {}",
            dump(&output)
        );
        loaded += 1;
    }
    assert!(loaded >= 1);
    // `list` does read runner.toml: a mistaken key fails it.
    let output = list_with("timelimit = 5\n");
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("time_limit_ms"),
        "{}",
        dump(&output)
    );
}

/// The folder a console block runs in: a copy of the shipped fixtures and runner.toml, or, for
/// `tree=reports`, the small tree "Reports and exit codes" describes, or for `tree=nim-sample`,
/// nim's sample alone with its planted accepted Python.
fn tree_for(block: &Block) -> Project {
    let project = Project::new();
    let shipped = repository().join("fixtures");
    match block.attribute("tree") {
        None => {
            copy_fixtures(&shipped, &project.path().join("fixtures"));
            std::fs::copy(
                repository().join("runner.toml"),
                project.path().join("runner.toml"),
            )
            .unwrap();
        }
        Some("reports") => {
            for case in [
                "lieges-of-legendre/sample-1",
                "lieges-of-legendre/sample-2",
                "powers-of-two/sample-1",
            ] {
                for extension in ["in", "out"] {
                    let relative = format!("fixtures/{case}.{extension}");
                    project.file(
                        &relative,
                        std::fs::read(repository().join(&relative)).unwrap(),
                    );
                }
            }
            project.case("powers-of-two/wrong", "3\n4\n", "Cici\nCici\n");
            project.file("fixtures/powers-of-two/malformed.in", "three\n");
            project.file("fixtures/powers-of-two/no-answer.in", "5\n");
        }
        // nim's data cut to its sample, and its planted accepted `nim.py`: the worked example
        // of "How strong is my data?".
        Some("nim-sample") => {
            for relative in [
                "runner.toml",
                "fixtures/nim/sample-1.in",
                "fixtures/nim/sample-1.out",
                "problems/nim/submissions/accepted/nim.py",
            ] {
                project.file(
                    relative,
                    std::fs::read(repository().join(relative)).unwrap(),
                );
            }
        }
        // An empty folder, for the runs of a user who starts from nothing.
        Some("empty") => std::fs::remove_dir(project.path().join("fixtures")).unwrap(),
        Some(other) => panic!("line {}: no tree `{other}`", block.line),
    }
    project
}

#[test]
fn every_console_run_shown_prints_what_it_shows() {
    let mut replayed = 0;
    let mut failures = Vec::new();
    for (page, block) in blocks_of("console") {
        let at = format!("{page}:{}", block.line);
        if block.has("ignore") {
            continue;
        }
        let runs = runs(&block);
        let project = tree_for(&block);
        // `$ cd DIR` moves the later runs of the block into DIR (below the project).
        let mut folder = std::path::PathBuf::new();
        for run in &runs {
            if let Some(dir) = run.command.strip_prefix("cd ") {
                folder.push(dir);
                assert!(
                    project.path().join(&folder).is_dir(),
                    "{at}: no folder {dir}"
                );
                continue;
            }
            let (actual, status) = replay(&project, &folder, run);
            let shown: Vec<String> = run.shown.iter().map(|l| normal(l)).collect();
            if status != run.status || !matches(&shown, &actual) {
                failures.push(format!(
                    "{at}: `$ {}` exited {status} (shown: {}) and printed\n{}\n",
                    run.command,
                    run.status,
                    actual.join("\n")
                ));
            }
            replayed += 1;
        }
    }
    assert!(replayed >= 30, "only {replayed} runs were replayed");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_console_block_not_replayed_says_why_in_the_text_before_it() {
    for page in pages() {
        let lines: Vec<&str> = page.text.lines().collect();
        for block in split(&page.text).0 {
            if block.language() != "console" || !block.has("ignore") {
                continue;
            }
            // The reason is in the text before the block: for its run alone, or for every run
            // of the chapter.
            let before = lines[..block.line - 1].join(" ");
            assert!(
                ["tests do not replay"]
                    .iter()
                    .any(|reason| before.contains(reason)),
                "{}:{}: a `console,ignore` block needs its reason in the text before it",
                page.name,
                block.line
            );
        }
    }
}
