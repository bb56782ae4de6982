//! `grundy list [FILTER]`: the problems, their case counts and the settings in force for each
//! (the time limit by the one rule: a package's computed limit as far as it is known without
//! timing anything); with `--cases`, the id of every selected case instead, one per line;
//! `--format json` a JSON line each (rendered by [`crate::reporting::list_report`]). A listed package
//! that cannot be read is listed all the same, and why follows on stderr (exit 2).

use anyhow::Result;

use super::setup::case_config;
use crate::cli::ListArgs;
use crate::commands::error::CommandError;
use crate::config::Overrides;
use crate::discovery::select_cases;
use crate::escape::visible_line;
use crate::plan;
use crate::reporting::listed::{Kind, Listed};
use crate::reporting::{list_cases, list_report, print, Ended};
use crate::root_packages::RootPackages;

pub fn run(args: ListArgs) -> Result<Ended, CommandError> {
    let (config, filters) = case_config(&args.sources, Overrides::default(), &args.filters)?;
    let packages = RootPackages::read(&config.fixtures);
    let selection = select_cases(&config.fixtures, &filters, &packages)?;
    let listed = |name: &str| {
        selection.filters.is_empty() || selection.filters.iter().any(|f| f.problem == name)
    };
    let unreadable: Vec<_> = packages
        .unreadable()
        .filter(|(n, _)| selection.problems.iter().any(|p| p == n) && listed(n))
        .collect();
    let text = if args.cases {
        let cases: Vec<(&str, &str)> = selection
            .cases
            .iter()
            .map(|case| (case.problem.as_str(), case.id.as_str()))
            .collect();
        list_cases(&cases, args.format)
    } else {
        let mut ids: Vec<&str> = grundy_problems::ALL.iter().map(|p| p.id).collect();
        ids.extend(selection.problems.iter().map(String::as_str));
        ids.sort_unstable();
        ids.dedup();
        ids.retain(|id| listed(id));
        let planned = plan::planned(
            &config,
            &packages,
            &Overrides::default(),
            ids.clone(),
            &selection.cases,
        );
        let rows: Vec<Listed> = ids
            .iter()
            .map(|id| {
                let plan = &planned[*id];
                let settings = plan.settings();
                // Its judge: its checker, or the interactor of an interactive problem.
                let judge = match (plan::judge_of(plan), &settings.interactor) {
                    (Some(validator), _) => validator,
                    (None, Some(interactor)) => format!("interactor {interactor}"),
                    (None, None) => settings.checker.to_string(),
                };
                let built_in = grundy_problems::find(id);
                let kind = match (built_in, packages.contains(id)) {
                    (Some(_), _) => Kind::BuiltIn,
                    (None, true) => Kind::Package,
                    (None, false) => Kind::Fixtures,
                };
                let why = unreadable.iter().find(|(name, _)| name == id);
                Listed {
                    problem: id.to_string(),
                    kind,
                    cases: selection.cases.iter().filter(|c| c.problem == *id).count(),
                    time_limit: plan.time_limit().cloned(),
                    memory_mib: settings.limits.memory_mib,
                    output_mib: settings.limits.output_mib,
                    judge,
                    title: built_in.map(|problem| problem.title),
                    unreadable: why.map(|(_, why)| why.to_string()),
                }
            })
            .collect();
        list_report(&rows, &config.fixtures, args.format)
    };
    print(&text)?;
    for (_, why) in &unreadable {
        crate::reporting::notes::error(visible_line(&why.to_string()));
    }
    Ok(match unreadable.is_empty() {
        true => Ended::Passed,
        false => Ended::Incomplete,
    })
}
