//! `check`'s line of a case: its verdict, times, the limit that stopped it, and what it wrote
//! or was told, each only when it has a value.

use serde_json::{json, Value};

use crate::diffing::Paint;
use crate::judging::CaseResult;
use crate::reporting::millis;
use crate::running::Clock;

/// The limit that stopped a run, as the JSON and JUnit reports name it.
fn clock_name(clock: Clock) -> &'static str {
    match clock {
        Clock::Cpu => "cpu",
        Clock::Wall => "wall",
    }
}

/// The object for one case.
pub(in crate::reporting::json) fn case_object(result: &CaseResult) -> Value {
    let mut object = json!({
        "case": result.case.id,
        "problem": result.case.problem,
        "verdict": result.verdict,
        "time_ms": millis(result.time),
        "cpu_ms": millis(result.cpu),
        "wall_ms": millis(result.wall),
    });
    let fields = object.as_object_mut().expect("a JSON object literal");
    if let Some(clock) = result.stopped_by {
        fields.insert("limit".into(), clock_name(clock).into());
    }
    if let Some(bytes) = result.peak_memory_bytes {
        fields.insert("peak_memory_bytes".into(), bytes.into());
    }
    if let Some(message) = &result.message {
        fields.insert("message".into(), message.as_str().into());
    }
    if let Some(diff) = &result.diff {
        fields.insert("diff".into(), diff.render(&Paint::plain(), "").into());
    }
    if let Some(exchange) = &result.exchange {
        fields.insert("exchange".into(), exchange.as_str().into());
    }
    if let Some(stdout) = &result.stdout {
        fields.insert("stdout".into(), stdout.as_str().into());
    }
    if let Some(stderr) = &result.stderr {
        fields.insert("stderr".into(), stderr.as_str().into());
    }
    if let Some(path) = &result.blessed {
        fields.insert("blessed".into(), path.display().to_string().into());
    }
    object
}
