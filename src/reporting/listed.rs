//! What `list` reports, and how: each problem with the settings in force for it ([`Listed`]), as
//! the human table with the fixtures root under it, or a JSON line per problem; with `--cases`,
//! each selected case's id, a line each or a JSON line each. `list` judges nothing, so it has no
//! run and no summary: its report is rendered whole, once the problems are read.

use std::path::Path;

use super::Format;
use crate::escape::visible_line;
use crate::model::TimeLimit;

/// Where a problem's cases and judge come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A built-in problem: its solver, generator and checker are grundy's own.
    BuiltIn,
    /// A Kattis package of the fixtures root.
    Package,
    /// A folder of fixtures no built-in solver judges (`--exec` must give the program).
    Fixtures,
}

impl Kind {
    /// Its name in the JSON lines.
    pub fn name(self) -> &'static str {
        match self {
            Kind::BuiltIn => "built-in",
            Kind::Package => "package",
            Kind::Fixtures => "fixtures",
        }
    }
}

/// One problem as `list` shows it.
#[derive(Clone, Debug)]
pub struct Listed {
    pub problem: String,
    pub kind: Kind,
    /// The cases the filters select.
    pub cases: usize,
    /// Its time limit by the one rule, or none where a package's is computed from its accepted
    /// submissions and no command has timed them yet (`list` times nothing).
    pub time_limit: Option<TimeLimit>,
    pub memory_mib: u64,
    pub output_mib: u64,
    /// What judges its outputs: its checker, `interactor ...`, or a package's output validator
    /// (`kattis:NAME`).
    pub judge: String,
    /// A built-in problem's title.
    pub title: Option<&'static str>,
    /// Why the package cannot be read (its file, line and column), when it cannot.
    pub unreadable: Option<String>,
}

/// The report of `list`: `problems` in `format`, the fixtures root `fixtures` under the table.
pub fn problems(problems: &[Listed], fixtures: &Path, format: Format) -> String {
    match format {
        Format::Json => super::json::listed(problems),
        Format::Human => table(problems, fixtures),
    }
}

/// The report of `list --cases`: the ids of `cases`, each with its problem, in `format`.
pub fn cases(cases: &[(&str, &str)], format: Format) -> String {
    match format {
        Format::Json => super::json::listed_cases(cases),
        Format::Human => cases.iter().map(|(_, id)| format!("{id}\n")).collect(),
    }
}

/// A row per problem under a heading, columns as wide as their widest entry.
fn table(problems: &[Listed], fixtures: &Path) -> String {
    const UNREADABLE: &str = "(unreadable)";
    let judge = |listed: &Listed| match listed.unreadable {
        Some(_) => UNREADABLE.to_string(),
        None => visible_line(&listed.judge).into_owned(),
    };
    let width = problems
        .iter()
        .map(|p| visible_line(&p.problem).len())
        .max();
    let width = width.unwrap_or(7).max(7);
    let judge_width = problems.iter().map(|p| judge(p).chars().count()).max();
    let judge_width = judge_width.unwrap_or(5).max(5);
    let mut text = format!(
        "{:<width$}  {:>5}  {:>8}  {:>8}  {:>8}  {:<judge_width$}  TITLE\n",
        "PROBLEM", "CASES", "TIME", "MEMORY", "OUTPUT", "JUDGE"
    );
    // What a `none` or `?` in the time column means, under the table.
    let mut notes = String::new();
    for listed in problems {
        let title = listed
            .title
            .unwrap_or("(no built-in solver: judge with --exec)");
        let problem = visible_line(&listed.problem);
        let time = match listed.time_limit.as_ref().map(|known| &known.limit) {
            Some(Ok(limit)) => format!("{}ms", limit.as_millis()),
            Some(Err(why)) => {
                notes += &format!("{problem}: no time limit: {why}\n");
                "none".into()
            }
            None => {
                notes += &format!(
                    "{problem}: the time limit is computed from its accepted submissions, which \
                     `grundy check` or `grundy verify` times (not yet here)\n"
                );
                "?".into()
            }
        };
        text += &format!(
            "{problem:<width$}  {:>5}  {time:>8}  {:>4} MiB  {:>4} MiB  {:<judge_width$}  {title}\n",
            listed.cases,
            listed.memory_mib,
            listed.output_mib,
            judge(listed),
        );
    }
    text + &notes + &format!("fixtures root: {}\n", fixtures.display())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn nim() -> Listed {
        Listed {
            problem: "nim".into(),
            kind: Kind::BuiltIn,
            cases: 3,
            time_limit: Some(TimeLimit::fixed(
                Duration::from_millis(2000),
                crate::model::Fixed::Runner,
            )),
            memory_mib: 1024,
            output_mib: 64,
            judge: "tokens".into(),
            title: Some("Nim"),
            unreadable: None,
        }
    }

    #[test]
    fn the_table_has_a_row_per_problem_and_the_root() {
        let broken = Listed {
            problem: "broken-package".into(),
            kind: Kind::Package,
            cases: 0,
            title: None,
            unreadable: Some("broken-package/problem.yaml: bad".into()),
            ..nim()
        };
        let text = problems(&[nim(), broken], Path::new("fixtures"), Format::Human);
        let expected = "\
PROBLEM         CASES      TIME    MEMORY    OUTPUT  JUDGE         TITLE
nim                 3    2000ms  1024 MiB    64 MiB  tokens        Nim
broken-package      0    2000ms  1024 MiB    64 MiB  (unreadable)  (no built-in solver: judge with --exec)
fixtures root: fixtures
";
        assert_eq!(text, expected);
    }

    #[test]
    fn a_json_line_per_problem_with_its_settings() {
        let text = problems(&[nim()], Path::new("fixtures"), Format::Json);
        let line: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
        let expected = serde_json::json!({
            "type": "problem",
            "problem": "nim",
            "kind": "built-in",
            "cases": 3,
            "time_limit_ms": 2000.0,
            "time_limit": "2s (runner.toml)",
            "memory_limit_mib": 1024,
            "output_limit_mib": 64,
            "judge": "tokens",
            "title": "Nim",
            "unreadable": null,
        });
        assert_eq!(line, expected);
    }

    #[test]
    fn a_limit_not_yet_known_or_not_had_is_said_under_the_table_and_null_in_json() {
        let unknown = Listed {
            problem: "computed".into(),
            kind: Kind::Package,
            title: None,
            time_limit: None,
            ..nim()
        };
        let none = Listed {
            problem: "untimed".into(),
            time_limit: Some(TimeLimit::default()),
            ..unknown.clone()
        };
        let text = problems(&[unknown.clone(), none], Path::new("f"), Format::Human);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[1].starts_with("computed") && lines[1].contains("        ?  "));
        assert!(lines[2].starts_with("untimed") && lines[2].contains("     none  "));
        assert!(lines[3].starts_with("computed: the time limit is computed from its accepted"));
        assert!(lines[4].starts_with("untimed: no time limit: "));
        assert_eq!(lines[5], "fixtures root: f");
        let json = problems(&[unknown], Path::new("f"), Format::Json);
        let line: serde_json::Value = serde_json::from_str(json.trim_end()).unwrap();
        assert_eq!(line["time_limit_ms"], serde_json::Value::Null);
        assert_eq!(line["time_limit"], "unknown");
    }

    #[test]
    fn the_cases_a_line_each() {
        let found = [("nim", "nim/sample-1"), ("nim", "nim/big/2")];
        assert_eq!(cases(&found, Format::Human), "nim/sample-1\nnim/big/2\n");
        let lines: Vec<serde_json::Value> = cases(&found, Format::Json)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        let id = serde_json::json!({"problem": "nim", "subject": null, "case": "big/2"});
        assert_eq!(lines[1]["type"], "case");
        assert_eq!(lines[1]["case"], "nim/big/2");
        assert_eq!(lines[1]["id"], id);
    }
}
