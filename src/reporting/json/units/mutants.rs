//! `mutants`' lines: a mutant's, and what its summary adds (the counts, the score, each
//! case's kills).

use serde_json::{json, Value};

use super::seed;
use crate::reporting::json::clean;
use crate::reporting::mutated::{MutantRow, MutationRun, MutationTally};

/// A mutant: its status, where it changes the submission and how, the case that killed it
/// (and the verdict there), why it was stillborn or not judged, and for a survivor the input the
/// search found: `found`, the case `--add` wrote (else null), and `distinguished_by`, the
/// generator command that makes it.
pub(in crate::reporting::json) fn mutant_object(row: &MutantRow) -> Value {
    json!({
        "status": row.status.name(),
        "file": clean(&row.file),
        "line": row.line,
        "diff": clean(&row.diff),
        "killed_by": row.killed_by.as_ref().map(|(case, _)| clean(case)),
        "verdict": row.killed_by.as_ref().map(|(_, verdict)| json!(verdict)),
        "why": row.why.as_ref().map(|why| clean(&why.to_string())),
        "found": row.found.as_ref().and_then(|f| match &f.added {
            Some(Ok(case)) => Some(clean(case)),
            _ => None,
        }),
        "distinguished_by": row.found.as_ref().map(|f| clean(&f.command)),
    })
}

/// What `mutants`' summary adds: the submission, how many mutants were made and judged, the
/// counts by status (and how many survivors the search found an input for, and added), the
/// search's budget (`null` when survivors are not searched), the score (`null` when no mutant was killed or survived), each case's
/// kills and the cases that killed none.
pub(in crate::reporting::json) fn mutation_summary(
    run: &MutationRun,
    tally: &MutationTally,
) -> Value {
    let kills: serde_json::Map<String, Value> = tally
        .killers()
        .into_iter()
        .map(|(case, n)| (clean(case), n.into()))
        .collect();
    let idle: Vec<String> = tally.idle(&run.cases).into_iter().map(clean).collect();
    json!({
        "submission": clean(&run.submission),
        "made": run.made,
        "judged": run.judged,
        "seed": run.seed.map(seed),
        "killed": tally.killed,
        "survived": tally.survived,
        "equivalent": tally.equivalent,
        "found": tally.found,
        "added": tally.added,
        "budget": run.search.as_ref().ok(),
        "stillborn": tally.stillborn,
        "unjudged": tally.unjudged,
        "score": tally.score(),
        "kills": kills,
        "killed_none": idle,
    })
}
