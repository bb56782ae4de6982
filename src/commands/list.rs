//! `grundy list [FILTER]`: the problems, their case counts and the settings in force for each;
//! with `--cases`, the id of every selected case instead, one per line. A listed package that
//! cannot be read is listed all the same, and why follows on stderr (exit 2).

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::Result;

use super::setup::case_config;
use crate::cli::ListArgs;
use crate::commands::error::CommandError;
use crate::config::Overrides;
use crate::discovery::select_cases;
use crate::escape::visible_line;
use crate::plan;
use crate::reporting::print;
use crate::root_packages::RootPackages;

pub fn run(args: ListArgs) -> Result<ExitCode, CommandError> {
    let (config, filters) = case_config(&args.sources, Overrides::default(), &args.filters)?;
    let packages = RootPackages::read(&config.fixtures);
    let selection = select_cases(&config.fixtures, &filters, &packages)?;
    let mut text = String::new();
    if args.cases {
        for case in &selection.cases {
            let _ = writeln!(text, "{}", case.id);
        }
    } else {
        let mut ids: Vec<&str> = grundy_problems::ALL.iter().map(|p| p.id).collect();
        ids.extend(selection.problems.iter().map(String::as_str));
        ids.sort_unstable();
        ids.dedup();
        ids.retain(|id| {
            selection.filters.is_empty() || selection.filters.iter().any(|f| f.problem == *id)
        });
        let planned = plan::planned(&config, &packages, &Overrides::default(), ids.clone());
        // Each problem's judge: its checker, or the interactor of an interactive problem.
        let rows: Vec<(&str, String)> = ids
            .iter()
            .map(|id| {
                let settings = &planned[*id].settings;
                let judge = match (
                    plan::judge_of(&planned[*id], &packages, id),
                    &settings.interactor,
                ) {
                    (Some(validator), _) => validator,
                    (None, Some(interactor)) => format!("interactor {interactor}"),
                    (None, None) => settings.checker.to_string(),
                };
                (*id, judge)
            })
            .collect();
        let width = ids.iter().map(|id| id.len()).max().unwrap_or(7).max(7);
        let judge_width = rows.iter().map(|(_, judge)| judge.chars().count()).max();
        let judge_width = judge_width.unwrap_or(5).max(5);
        let _ = writeln!(
            text,
            "{:<width$}  {:>5}  {:>8}  {:>8}  {:>8}  {:<judge_width$}  TITLE",
            "PROBLEM", "CASES", "TIME", "MEMORY", "OUTPUT", "JUDGE"
        );
        let mut notes = String::new();
        for (id, judge) in rows {
            let plan = &planned[id];
            let settings = &plan.settings;
            let count = selection.cases.iter().filter(|c| c.problem == id).count();
            let title = grundy_problems::find(id)
                .map_or("(no built-in solver: judge with --exec)", |p| p.title);
            // A package's limit computed from its accepted submissions may not be known yet.
            let time = match plan.time_limit.as_ref().map(|known| &known.limit) {
                Some(Ok(limit)) => format!("{}ms", limit.as_millis()),
                Some(Err(why)) => {
                    let _ = writeln!(notes, "{id}: no time limit: {why}");
                    "none".into()
                }
                None => {
                    let _ = writeln!(
                        notes,
                        "{id}: the time limit is computed from its accepted submissions, which \
                         `grundy check` or `grundy verify` times (not yet here)"
                    );
                    "?".into()
                }
            };
            let _ = writeln!(
                text,
                "{id:<width$}  {count:>5}  {time:>8}  {:>4} MiB  {:>4} MiB  \
                 {judge:<judge_width$}  {title}",
                settings.limits.memory_mib, settings.limits.output_mib,
            );
        }
        text += &notes;
        let _ = writeln!(text, "fixtures root: {}", config.fixtures.display());
    }
    print(&text)?;
    let listed = |name: &str| {
        selection.problems.iter().any(|p| p == name)
            && (selection.filters.is_empty() || selection.filters.iter().any(|f| f.problem == name))
    };
    let unreadable: Vec<_> = packages.unreadable().filter(|(n, _)| listed(n)).collect();
    for (_, why) in &unreadable {
        eprintln!("error: {}", visible_line(&why.to_string()));
    }
    Ok(match unreadable.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(2),
    })
}
