//! The page of a `mutants` run: the mutation score and the counts, the survivors (each with its
//! file:line, its one-line diff, and what the search found of it: the generator command whose
//! input tells it apart and, under `--add`, the case written or why not; why the search
//! stopped; or that none ran, and why), the likely equivalent mutants, the cases that kill the
//! most mutants and those that kill none, then every mutant with its status, the case that
//! killed it and its verdict there, or why it did not build. Bounded as the rest of the page
//! is: the survivors, the likely equivalent and every mutant each stop at a mark of the page's
//! size, saying what they left out.

use std::fmt::Write;

use super::markup::{line, names, short, table_cut, LISTED, MESSAGE_CHARS, NAME_CHARS};
use super::Mutated;
use crate::reporting::mutated::{MutantRow, MutationRun, Status};
use crate::reporting::Summary;

/// Where the survivors stop, the likely equivalent mutants, and every mutant's rows.
const SURVIVORS_END: usize = 2_000_000;
const EQUIVALENT_END: usize = 3_000_000;
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
         <tr><th>likely equivalent<td>{}</tr>\
         <tr><th>killing inputs found<td>{}</tr><tr><th>added as cases<td>{}</tr>\
         <tr><th>stillborn<td>{}</tr><tr><th>not judged<td>{}</tr>\
         <tr><th>time<td>{}</tr></table>\n</section>",
        line(&summary.closing_line()),
        short(&run.submission, NAME_CHARS),
        short(&run.problem, NAME_CHARS),
        run.made,
        run.judged,
        tally.killed,
        tally.survived,
        tally.equivalent,
        tally.found,
        tally.added,
        tally.stillborn,
        tally.unjudged,
        crate::reporting::seconds(summary.wall_time),
    );
    survivors(out, run, &mutated.rows);
    equivalent(out, run, &mutated.rows);
    cases(out, mutated);
    every_mutant(out, &mutated.rows);
}

/// The survivors, each with what the search found of it, and why none was searched if so.
fn survivors(out: &mut String, run: &MutationRun, rows: &[MutantRow]) {
    out.push_str("<section id=survivors><h2>Survivors</h2>\n");
    let survived = of_status(rows, Status::Survived);
    if survived.is_empty() {
        out.push_str("<p>None: no mutant judged passed every case.</p>\n</section>\n");
        return;
    }
    out.push_str(
        "<p>No case tells these from the accepted submission: each is a mutant that behaves as \
         the original does, or a case the data is missing.</p>\n",
    );
    let table = Table {
        what: "survivor",
        last: Some("killing case found"),
        end: SURVIVORS_END,
    };
    if !listed(out, &survived, table, found) {
        return;
    }
    if let Err(why) = &run.search {
        let why = short(&why.to_string(), MESSAGE_CHARS);
        let _ = writeln!(
            out,
            "<p class=unsearched>No input was searched for them: {why}</p>"
        );
    }
    out.push_str("</section>\n");
}

/// The likely equivalent mutants: those none of the search's inputs told apart.
fn equivalent(out: &mut String, run: &MutationRun, rows: &[MutantRow]) {
    let equivalent = of_status(rows, Status::Equivalent);
    let Ok(budget) = run.search else {
        // Nothing was searched, so nothing is likely equivalent.
        return;
    };
    out.push_str("<section id=equivalent><h2>Likely equivalent</h2>\n");
    if equivalent.is_empty() {
        out.push_str(
            "<p>None: the search told every survivor apart, or stopped.</p>\n</section>\n",
        );
        return;
    }
    let _ = writeln!(
        out,
        "<p>None of {budget} inputs tells these from the accepted submission: each likely \
         behaves as the original does, and is left out of the score.</p>"
    );
    let table = Table {
        what: "likely equivalent mutant",
        last: None,
        end: EQUIVALENT_END,
    };
    if listed(out, &equivalent, table, |_| String::new()) {
        out.push_str("</section>\n");
    }
}

fn of_status(rows: &[MutantRow], status: Status) -> Vec<&MutantRow> {
    rows.iter().filter(|row| row.status == status).collect()
}

/// A table of some of the mutants: what they are called where it is cut, the heading of its
/// last column (if it has one past the change), and the mark of the page's size it stops at.
struct Table {
    what: &'static str,
    last: Option<&'static str>,
    end: usize,
}

/// `table` of `rows`, each with its name, place, change and its `cell` in the last column if
/// the table has one: cut when the page passes its end, closing the section then (false).
fn listed(
    out: &mut String,
    rows: &[&MutantRow],
    table: Table,
    cell: impl Fn(&MutantRow) -> String,
) -> bool {
    let head = table
        .last
        .map(|last| format!("<th>{last}"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "<div class=scroll><table class=mutants><thead><tr><th>mutant<th>place<th>change{head}\
         </tr></thead><tbody>"
    );
    for (index, row) in rows.iter().enumerate() {
        if out.len() > table.end {
            table_cut(out, rows.len() - index, table.what);
            out.push_str("</section>\n");
            return false;
        }
        let cell = match table.last {
            Some(_) => format!("<td class=found>{}", cell(row)),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "<tr data-mutant=\"{}\"><th>{}<td>{}<td><code>{}</code>{cell}",
            line(&row.subject),
            short(&row.subject, NAME_CHARS),
            place(row),
            short(&row.diff, MESSAGE_CHARS),
        );
    }
    out.push_str("</tbody></table></div>\n");
    true
}

/// What the search found of a survivor, in the human report's words: the command whose input
/// tells it apart and, under `--add`, the case written or why not; why the search stopped; or
/// that none ran.
fn found(row: &MutantRow) -> String {
    let Some(found) = &row.found else {
        return match &row.why {
            Some(why) => format!("search stopped: {}", short(&why.to_string(), MESSAGE_CHARS)),
            None => "not searched".into(),
        };
    };
    let added = match &found.added {
        Some(Ok(case)) => format!(": added as {}", short(case, NAME_CHARS)),
        Some(Err(kept)) => format!(": {}", short(&kept.to_string(), MESSAGE_CHARS)),
        None => " (--add writes it as a case)".into(),
    };
    format!(
        "told apart by <code>{}</code>{added}",
        short(&found.command, MESSAGE_CHARS)
    )
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
            short(
                &row.why
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                MESSAGE_CHARS
            ),
        );
    }
    out.push_str("</tbody></table></div></section>\n");
}

/// `file:line`, escaped.
fn place(row: &MutantRow) -> String {
    format!("{}:{}", short(&row.file, NAME_CHARS), row.line)
}
