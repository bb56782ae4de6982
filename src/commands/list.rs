//! `grundy list [FILTER]`: the problems, their case counts and the settings in force for each.

use std::process::ExitCode;

use anyhow::Result;

use super::load_config;
use crate::cli::ListArgs;
use crate::config::Overrides;
use crate::discovery::{discover, select, Filter};

pub fn run(args: ListArgs) -> Result<ExitCode> {
    let config = load_config(&args.sources, Overrides::default())?;
    let filters: Vec<Filter> = args
        .filters
        .iter()
        .map(|f| f.parse())
        .collect::<Result<_>>()?;
    let fixtures = discover(&config.fixtures, |_| true)?;
    let cases = select(fixtures.cases, &filters)?;
    let mut ids: Vec<&str> = grundy_problems::ALL.iter().map(|p| p.id).collect();
    ids.extend(fixtures.problems.iter().map(String::as_str));
    ids.sort_unstable();
    ids.dedup();
    ids.retain(|id| filters.is_empty() || filters.iter().any(|f| f.problem == *id));
    let width = ids.iter().map(|id| id.len()).max().unwrap_or(7).max(7);
    println!(
        "{:<width$}  {:>5}  {:>8}  {:>7}  {:>7}  {:<10}  TITLE",
        "PROBLEM", "CASES", "TIME", "MEMORY", "OUTPUT", "CHECKER"
    );
    for id in ids {
        let settings = config.settings(id);
        let count = cases.iter().filter(|c| c.problem == id).count();
        let title = grundy_problems::find(id)
            .map_or("(no built-in solver: judge with --exec)", |p| p.title);
        println!(
            "{id:<width$}  {count:>5}  {:>6}ms  {:>5}MB  {:>5}MB  {:<10}  {title}",
            settings.time_limit.as_millis(),
            settings.memory_limit_mb,
            settings.output_limit_mb,
            settings.checker.to_string(),
        );
    }
    println!("fixtures root: {}", config.fixtures.display());
    Ok(ExitCode::SUCCESS)
}
