//! `grundy list [FILTER]`: the problems, their case counts and the settings in force for each;
//! with `--cases`, the id of every selected case instead, one per line.

use std::fmt::Write as _;
use std::process::ExitCode;

use anyhow::Result;

use super::case_config;
use super::verify::RootPackages;
use crate::cli::ListArgs;
use crate::config::Overrides;
use crate::discovery::select_cases;
use crate::reporting::print;

pub fn run(args: ListArgs) -> Result<ExitCode> {
    let (mut config, filters) = case_config(&args.sources, Overrides::default(), &args.filters)?;
    let packages = RootPackages::read(&config.fixtures);
    packages.apply(&mut config, &Overrides::default());
    let selection = select_cases(&config.fixtures, &filters)?;
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
        let width = ids.iter().map(|id| id.len()).max().unwrap_or(7).max(7);
        let _ = writeln!(
            text,
            "{:<width$}  {:>5}  {:>8}  {:>7}  {:>7}  {:<10}  TITLE",
            "PROBLEM", "CASES", "TIME", "MEMORY", "OUTPUT", "CHECKER"
        );
        for id in ids {
            let settings = config.settings(id);
            let count = selection.cases.iter().filter(|c| c.problem == id).count();
            let title = grundy_problems::find(id)
                .map_or("(no built-in solver: judge with --exec)", |p| p.title);
            let checker = packages
                .judge_of(id)
                .unwrap_or_else(|| settings.checker.to_string());
            let _ = writeln!(
                text,
                "{id:<width$}  {count:>5}  {:>6}ms  {:>5}MB  {:>5}MB  {:<10}  {title}",
                settings.time_limit.as_millis(),
                settings.memory_limit_mb,
                settings.output_limit_mb,
                checker,
            );
        }
        let _ = writeln!(text, "fixtures root: {}", config.fixtures.display());
    }
    print(&text)?;
    Ok(ExitCode::SUCCESS)
}
