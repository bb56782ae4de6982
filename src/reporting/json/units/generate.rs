//! `generate`'s line of a package: what was made, kept and failed, and what is warned of.

use serde_json::{json, Value};

use crate::escape::visible;
use crate::reporting::generated::DataMade;
use crate::reporting::json::{all, clean};

/// A package of `generate`: the counts, and what was not made, is invalid, is warned of, and
/// no rule describes.
pub(in crate::reporting::json) fn generated_object(made: &DataMade<'_>) -> Value {
    let failed: Vec<Value> = made
        .failed
        .iter()
        .map(|(case, why)| json!({"case": clean(case), "message": visible(&why.to_string())}))
        .collect();
    let warnings: Vec<String> = made
        .warnings
        .iter()
        .map(|w| clean(&w.to_string()))
        .collect();
    let unlisted: Vec<String> = made.unlisted.iter().map(|f| clean(f)).collect();
    json!({
        "package": clean(made.package),
        "made": made.made,
        "unchanged": made.unchanged,
        "included": made.included,
        "failed": failed,
        "invalid": all(made.invalid),
        "warnings": warnings,
        "unlisted": unlisted,
        "removed": made.removed,
        "ok": made.ok(),
    })
}
