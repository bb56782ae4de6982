//! `--format json`: one JSON object per case per line, then one summary object. Nothing else is
//! written to stdout in this mode.

use std::io::Write;

use serde_json::{json, Value};

use super::{millis, Reporter, Summary};
use crate::diffing::Paint;
use crate::judging::CaseResult;

pub struct JsonReporter<W: Write> {
    out: W,
}

impl<W: Write> JsonReporter<W> {
    pub fn new(out: W) -> Self {
        JsonReporter { out }
    }

    fn emit(&mut self, value: Value) {
        // A closed pipe (`| head`) ends output; it is not an error worth a panic.
        let _ = writeln!(self.out, "{value}");
    }
}

impl<W: Write> Reporter for JsonReporter<W> {
    fn case_finished(&mut self, result: &CaseResult) {
        let mut object = json!({
            "case": result.case.id,
            "problem": result.case.problem,
            "verdict": result.verdict,
            "time_ms": millis(result.time),
        });
        let fields = object.as_object_mut().expect("a JSON object literal");
        if let Some(bytes) = result.peak_memory_bytes {
            fields.insert("peak_memory_bytes".into(), bytes.into());
        }
        if let Some(message) = &result.message {
            fields.insert("message".into(), message.as_str().into());
        }
        if let Some(diff) = &result.diff {
            fields.insert("diff".into(), diff.render(&Paint::plain(), "").into());
        }
        if let Some(stderr) = &result.stderr {
            fields.insert("stderr".into(), stderr.as_str().into());
        }
        if let Some(path) = &result.blessed {
            fields.insert("blessed".into(), path.display().to_string().into());
        }
        self.emit(object);
    }

    fn finish(&mut self, summary: &Summary) {
        let mut object = json!({
            "passed": summary.passed,
            "failed": summary.failed,
            "skipped": summary.skipped,
            "total": summary.total(),
            "time_ms": millis(summary.wall_time),
            "jobs": summary.jobs,
        });
        if let Some((bucket, suite)) = &summary.partition {
            let fields = object.as_object_mut().expect("a JSON object literal");
            fields.insert("partition".into(), bucket.as_str().into());
            fields.insert("suite_total".into(), (*suite).into());
        }
        self.emit(object);
        let _ = self.out.flush();
    }
}
