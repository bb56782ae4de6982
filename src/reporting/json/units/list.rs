//! `list`'s line of a problem: where it comes from and the settings in force for it.

use serde_json::{json, Value};

use crate::reporting::json::clean;
use crate::reporting::listed::Listed;
use crate::reporting::millis;

/// A problem of `list`: where it comes from and the settings in force for it (no judge for a
/// package that cannot be read: `unreadable` says why).
pub(in crate::reporting::json) fn listed_object(listed: &Listed) -> Value {
    let judge = match listed.unreadable {
        Some(_) => None,
        None => Some(clean(&listed.judge)),
    };
    json!({
        "problem": clean(&listed.problem),
        "kind": listed.kind.name(),
        "cases": listed.cases,
        // null where there is none, or where it is computed and not yet known; `time_limit`
        // says which, and how a known one came about.
        "time_limit_ms": listed
            .time_limit
            .as_ref()
            .and_then(|known| known.limit.as_ref().ok())
            .map(|limit| millis(*limit)),
        "time_limit": listed
            .time_limit
            .as_ref()
            .map_or_else(|| "unknown".to_string(), ToString::to_string),
        "memory_limit_mib": listed.memory_mib,
        "output_limit_mib": listed.output_mib,
        "judge": judge,
        "title": listed.title,
        "unreadable": listed.unreadable.as_deref().map(clean),
    })
}
