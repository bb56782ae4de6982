//! `grundy sg GAME`: the Sprague-Grundy explorer's front-end: which family (`--upto` capped for
//! it), what to compute (the table, `--at X`, `--check`) through [`crate::explore`], in which
//! format, and the exit code (1 when `--check` finds the law and the rules disagree).

use anyhow::Result;
use grundy_problems::families::{observe, Family, Law};

use crate::cli::sg::{Game, SgArgs, SgFormat, DEFAULT_UPTO};
use crate::commands::error::CommandError;
use crate::explore::{check, departure, evaluate, render, Outcome};
use crate::reporting::Ended;

pub fn run(args: SgArgs) -> Result<Ended, CommandError> {
    let (game, family) = family_of(&args.game);
    let view = args.game.view();
    let upto = view.upto.unwrap_or(DEFAULT_UPTO);
    let limit = family.table_limit();
    if upto > limit as u64 {
        let why = if family == Family::Nim {
            "Nim's rules-only table is quadratic, every smaller heap being an option"
        } else {
            "the table is computed and printed in full"
        };
        return Err(anyhow::anyhow!(
            "--upto {upto} is above the cap {limit} for `sg {game}` ({why}); use --at X to \
             evaluate single values beyond it"
        )
        .into());
    }
    if view.format == SgFormat::Csv && !view.at.is_empty() && view.check {
        return Err(anyhow::anyhow!(
            "--format csv prints one table: give --at or --check, not both"
        )
        .into());
    }
    let law = family.law();
    let show_table = view.at.is_empty() && !view.check;
    let table = show_table.then(|| family.table(upto as usize));
    let observed = match (&law, &table) {
        (Law::Period(_), _) | (_, None) => None,
        (_, Some(table)) => Some(observe(table)),
    };
    let departure = match (observed, &table) {
        (Some(observed), Some(table)) => departure(observed, table, &law),
        _ => None,
    };
    let at = evaluate(&family, &law, &view.at)?;
    let check = match view.check {
        true => Some(check(&family, &law, upto)?),
        false => None,
    };
    let outcome = Outcome {
        game,
        family,
        upto,
        law,
        table,
        observed,
        departure,
        at,
        check,
    };
    let text = match view.format {
        SgFormat::Human => render::human(&outcome, render::terminal_width()),
        SgFormat::Csv => render::csv(&outcome),
        SgFormat::Json => format!("{}\n", render::json(&outcome)),
    };
    crate::reporting::print(&text)?;
    let failed = outcome.check.as_ref().is_some_and(|c| c.mismatch.is_some());
    Ok(Ended::of(!failed))
}

fn family_of(game: &Game) -> (&'static str, Family) {
    match game {
        Game::Subtract { takes, .. } => ("subtract", Family::subtraction(&takes.0)),
        Game::PowersOfTwo { .. } => ("powers-of-two", Family::PowersOfTwo),
        Game::Lieges { k, .. } => ("lieges", Family::Lieges { k: *k }),
        Game::Nim { .. } => ("nim", Family::Nim),
    }
}
