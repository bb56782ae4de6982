//! The page of a `mutants` run: the mutation score and the counts, the survivors (each with its
//! file:line, its one-line diff, and the killing case a search found for it: a column the
//! search for distinguishing inputs fills, none searched yet), the cases that kill the most
//! mutants and those that kill none, then every mutant with its status, the case that killed it
//! and its verdict there, or why it did not build. Bounded as the rest of the page is: the
//! survivors stop at one mark of the page's size, every mutant at another, each saying what it
//! left out.

use std::fmt::Write;

use super::markup::{line, short, LISTED, MESSAGE_CHARS, NAME_CHARS};
use super::page::{names, table_cut};
use super::Mutated;
use crate::reporting::mutated::{MutantRow, Status};
use crate::reporting::Summary;

/// Where the survivors stop, and every mutant's rows.
const SURVIVORS_END: usize = 2_000_000;
const MUTANTS_END: usize = 4_700_000;

/// The summary, the survivors, the cases and every mutant.
pub(super) fn mutants_part(
    out: &mut String,
    mutated: &Mutated,
    cancelled: bool,
    summary: &Summary,
) {
    let (run, tally) = (&mutated.run, &mutated.tally);
    out.push_str("<section id=summary>\n");
    if cancelled {
        out.push_str(
            "<p class=cancelled><b>Cancelled</b>: Ctrl-C cut the run short; this page shows \
             the mutants judged before.</p>\n",
        );
    }
    let sampled = run
        .seed
        .map(|seed| format!(" (--max, --seed {seed})"))
        .unwrap_or_default();
    let score = tally.score().map_or_else(
        || "none (no mutant was killed or survived)".to_string(),
        |score| format!("{:.1}%", score * 100.0),
    );
    let _ = writeln!(
        out,
        "<p class=closing>{}</p>\n<table class=counts>\
         <tr><th>submission<td>{} ({})</tr>\
         <tr><th>mutants<td>{} made, {} judged{sampled}</tr>\
         <tr><th>mutation score<td id=score>{score}</tr>\
         <tr><th>killed<td>{}</tr><tr><th>survived<td>{}</tr>\
         <tr><th>stillborn<td>{}</tr><tr><th>not judged<td>{}</tr>\
         <tr><th>time<td>{}</tr></table>\n</section>",
        line(&summary.closing_line()),
        short(&run.submission, NAME_CHARS),
        short(&run.problem, NAME_CHARS),
        run.made,
        run.judged,
        tally.killed,
        tally.survived,
        tally.stillborn,
        tally.unjudged,
        crate::reporting::seconds(summary.wall_time),
    );
    survivors(out, &mutated.rows);
    cases(out, mutated);
    every_mutant(out, &mutated.rows);
}

fn survivors(out: &mut String, rows: &[MutantRow]) {
    out.push_str("<section id=survivors><h2>Survivors</h2>\n");
    let survived: Vec<&MutantRow> = rows
        .iter()
        .filter(|row| row.status == Status::Survived)
        .collect();
    if survived.is_empty() {
        out.push_str("<p>None: no mutant judged passed every case.</p>\n</section>\n");
        return;
    }
    out.push_str(
        "<p>No case tells these from the accepted submission: each is a mutant that behaves as \
         the original does, or a case the data is missing.</p>\n<div class=scroll>\
         <table class=mutants><thead><tr><th>mutant<th>place<th>change\
         <th>killing case found</tr></thead><tbody>\n",
    );
    for (index, row) in survived.iter().enumerate() {
        if out.len() > SURVIVORS_END {
            table_cut(out, survived.len() - index, "survivor");
            out.push_str("</section>\n");
            return;
        }
        // The search for a distinguishing input is to come: none was looked for.
        let _ = writeln!(
            out,
            "<tr data-mutant=\"{}\"><th>{}<td>{}<td><code>{}</code><td class=found>not searched",
            line(&row.subject),
            short(&row.subject, NAME_CHARS),
            place(row),
            short(&row.diff, MESSAGE_CHARS),
        );
    }
    out.push_str("</tbody></table></div></section>\n");
}

/// The cases that killed the most, and those that killed none.
fn cases(out: &mut String, mutated: &Mutated) {
    let (run, tally) = (&mutated.run, &mutated.tally);
    out.push_str("<section id=cases><h2>Cases</h2>\n");
    let killers = tally.killers();
    if !killers.is_empty() {
        out.push_str(
            "<table class=killers><caption>cases that kill the most</caption>\
             <thead><tr><th>case<th>mutants killed</tr></thead><tbody>",
        );
        for (case, kills) in killers.iter().take(LISTED) {
            let _ = write!(
                out,
                "<tr data-case=\"{}\"><th>{}<td>{kills}</tr>",
                line(case),
                short(case, NAME_CHARS)
            );
        }
        if killers.len() > LISTED {
            let _ = write!(
                out,
                "<tr><td colspan=2>… {} more</tr>",
                killers.len() - LISTED
            );
        }
        out.push_str("</tbody></table>\n");
    }
    let idle = tally.idle(&run.cases);
    if idle.is_empty() {
        out.push_str("<p class=idle>Every case kills a mutant.</p>\n</section>\n");
        return;
    }
    let _ = write!(
        out,
        "<p class=idle>{} {} no mutant: ",
        idle.len(),
        match idle.len() {
            1 => "case kills",
            _ => "cases kill",
        }
    );
    names(out, &idle, LISTED);
    out.push_str("</p>\n</section>\n");
}

/// A row per mutant, in their order: its status, place, change, killer or why.
fn every_mutant(out: &mut String, rows: &[MutantRow]) {
    out.push_str(
        "<section id=mutants><h2>Every mutant</h2><div class=scroll><table class=mutants>\
         <thead><tr><th>mutant<th>status<th>place<th>change<th>killed by<th>why</tr></thead>\
         <tbody>\n",
    );
    for (index, row) in rows.iter().enumerate() {
        if out.len() > MUTANTS_END {
            table_cut(out, rows.len() - index, "mutant");
            out.push_str("</section>\n");
            return;
        }
        let status = row.status.name();
        let killed_by = match &row.killed_by {
            Some((case, verdict)) => format!(
                "<span class={verdict}>{verdict}</span> {}",
                short(case, NAME_CHARS)
            ),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "<tr data-mutant=\"{}\" class={status}><th>{}<td>{status}<td>{}<td><code>{}</code>\
             <td>{killed_by}<td>{}",
            line(&row.subject),
            short(&row.subject, NAME_CHARS),
            place(row),
            short(&row.diff, MESSAGE_CHARS),
            short(row.why.as_deref().unwrap_or(""), MESSAGE_CHARS),
        );
    }
    out.push_str("</tbody></table></div></section>\n");
}

/// `file:line`, escaped.
fn place(row: &MutantRow) -> String {
    format!("{}:{}", short(&row.file, NAME_CHARS), row.line)
}
