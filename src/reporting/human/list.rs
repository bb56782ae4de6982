//! `list`'s table: a row per problem, columns as wide as their widest entry, what a `none` or `?`
//! time means under it, then the fixtures root; with `--cases`, a case id a line.

use std::path::Path;

use crate::escape::visible_line;
use crate::reporting::listed::Listed;

/// A row per problem under a heading, columns as wide as their widest entry.
pub fn table(problems: &[Listed], fixtures: &Path) -> String {
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

/// The ids of `cases`, a line each.
pub fn cases(cases: &[(&str, &str)]) -> String {
    cases.iter().map(|(_, id)| format!("{id}\n")).collect()
}
