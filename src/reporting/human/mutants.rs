//! `mutants`' human view, once every mutant is judged: the mutation score, each survivor with
//! its one-line diff by file:line and the input the search found for it (or why none was
//! searched), the likely equivalent mutants, the stillborn count, the cases that killed the
//! most mutants and those that killed none, and the closing line.

use std::fmt::Write as _;

use super::{Look, BAD};
use crate::escape::visible_line;
use crate::reporting::mutated::{MutantRow, MutationRun, MutationTally, Status};
use crate::reporting::Summary;

/// How many of the cases that killed the most are named.
const KILLERS: usize = 5;

pub(super) struct MutantsView {
    run: MutationRun,
    tally: MutationTally,
    /// Each survivor's lines, in order (with what the search found of it).
    survivors: Vec<String>,
    /// Each likely equivalent mutant's line, in order.
    equivalent: Vec<String>,
}

impl MutantsView {
    pub(super) fn new(run: &MutationRun) -> MutantsView {
        MutantsView {
            run: run.clone(),
            tally: MutationTally::default(),
            survivors: vec![],
            equivalent: vec![],
        }
    }

    /// Counted, and a survivor kept for the end: nothing is printed per mutant (`--format
    /// json` has a line each).
    pub(super) fn mutant(&mut self, row: &MutantRow) -> String {
        self.tally.add(row);
        let line = || {
            let place = format!("{}:{}", visible_line(&row.file), row.line);
            format!("  {place}: {}\n", visible_line(&row.diff))
        };
        match row.status {
            Status::Survived => {
                let mut text = line();
                if let Some(found) = &row.found {
                    let _ = write!(text, "    told apart by `{}`", visible_line(&found.command));
                    match &found.added {
                        Some(Ok(case)) => {
                            let _ = writeln!(text, ": added as {}", visible_line(case));
                        }
                        Some(Err(why)) => {
                            let _ = writeln!(text, ": {}", visible_line(&why.to_string()));
                        }
                        None => text.push_str(" (--add writes it as a case)\n"),
                    }
                } else if let Some(why) = &row.why {
                    let _ = writeln!(
                        text,
                        "    search stopped: {}",
                        visible_line(&why.to_string())
                    );
                }
                self.survivors.push(text);
            }
            Status::Equivalent => self.equivalent.push(line()),
            _ => {}
        }
        String::new()
    }

    pub(super) fn finish(&self, summary: &Summary, cancelled: bool, look: &Look) -> String {
        let run = &self.run;
        let tally = &self.tally;
        let mut text = format!(
            "Mutants of {} ({}): {} made, {} judged",
            visible_line(&run.submission),
            visible_line(&run.problem),
            run.made,
            run.judged
        );
        if let Some(seed) = run.seed {
            let _ = write!(text, " (--max, --seed {seed})");
        }
        text.push('\n');
        let score = match tally.score() {
            Some(score) => format!("{:.1}%", score * 100.0),
            None => "none (no mutant was killed or survived)".into(),
        };
        let _ = writeln!(
            text,
            "Mutation score: {score} ({} killed, {} survived, {} likely equivalent; {} stillborn, \
             {} not judged)",
            tally.killed, tally.survived, tally.equivalent, tally.stillborn, tally.unjudged
        );
        if !self.survivors.is_empty() {
            let _ = writeln!(
                text,
                "{} (no case tells them from the accepted submission):",
                look.paint(BAD, "Survivors")
            );
            text.extend(self.survivors.iter().map(String::as_str));
            if let Err(why) = &run.search {
                let _ = writeln!(text, "No input was searched for them: {why}");
            }
        }
        if let (false, Ok(budget)) = (self.equivalent.is_empty(), &run.search) {
            let _ = writeln!(
                text,
                "Likely equivalent (none of {budget} inputs tells them from the accepted \
                 submission):"
            );
            text.extend(self.equivalent.iter().map(String::as_str));
        }
        let killers = tally.killers();
        if !killers.is_empty() {
            let named: Vec<String> = killers
                .iter()
                .take(KILLERS)
                .map(|(case, n)| format!("{} ({n})", visible_line(case)))
                .collect();
            let _ = writeln!(text, "Cases that kill the most: {}", named.join(", "));
        }
        let idle = tally.idle(&run.cases);
        if !idle.is_empty() && tally.killed + tally.survived > 0 {
            let named: Vec<String> = idle.iter().map(|c| visible_line(c).into_owned()).collect();
            let _ = writeln!(text, "Cases that kill none: {}", named.join(", "));
        }
        if cancelled {
            text.push_str("Cancelled (Ctrl-C): the mutants not counted above were not judged.\n");
        }
        text + &summary.closing_line() + "\n"
    }
}
