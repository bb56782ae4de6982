//! A shard's report read whole and checked as `verify --format json` writes it: a `heading`,
//! its submissions and its `package` line for each package, the contest line, and the summary
//! last, of `verify`, of the schema this grundy writes, not cut short. Untrusted: the lines and
//! their count are bounded ([`bounds::REPORT_LINE_BYTES`], [`bounds::REPORT_LINES`]), and what
//! is wrong is said at its line ([`Bad`]).

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use super::lines::{BadField, Line, SummaryLine};
use super::{MergeError, Shard, ShardPackage};
use crate::bounds;
use crate::reporting::json::VERIFY_SCHEMA;

/// What is wrong at a line of a shard.
#[derive(Debug, thiserror::Error)]
pub enum Bad {
    #[error("cannot be read: {0}")]
    Io(std::io::Error),
    #[error("not a regular file")]
    NotAFile,
    #[error(
        "a line longer than {} bytes: no line verify writes",
        bounds::REPORT_LINE_BYTES
    )]
    TooLong,
    #[error("more than {} lines: no report verify writes", bounds::REPORT_LINES)]
    TooMany,
    #[error("not a line of verify --format json: {0}")]
    Json(String),
    #[error(transparent)]
    Field(#[from] BadField),
    #[error("a `{0}` line: a report of check, validate, stress or list, not of verify")]
    OtherLine(&'static str),
    #[error("a report of `{0}`, not of verify")]
    OtherCommand(String),
    #[error(
        "no schema in its summary: written by a grundy older than `report merge`; run verify \
         again with this one"
    )]
    NoSchema,
    #[error("schema {0}, but this grundy reads schema {VERIFY_SCHEMA}: merge with the grundy that wrote it")]
    Schema(u64),
    #[error("the run was cancelled (Ctrl-C): its report is incomplete; run its shard again")]
    Cancelled,
    #[error("a line after the summary")]
    AfterSummary,
    #[error("a `{0}` line outside its package's heading and package lines")]
    OutOfPlace(&'static str),
    #[error("`{line}` is of package `{package}`, but the heading above is of `{heading}`")]
    OtherPackage {
        line: &'static str,
        package: String,
        heading: String,
    },
    #[error(
        "truncated: the report ends without its summary line (the run was killed, or its output \
         cut short); run its shard again"
    )]
    Truncated,
}

/// Reads the shard at `file`.
pub fn shard(file: &Path) -> Result<Shard, MergeError> {
    let at = |line: usize| {
        move |bad: Bad| MergeError::Line {
            file: file.to_path_buf(),
            line,
            bad,
        }
    };
    let opened = File::open(file).map_err(|e| at(0)(Bad::Io(e)))?;
    let metadata = opened.metadata().map_err(|e| at(0)(Bad::Io(e)))?;
    if !metadata.is_file() {
        return Err(at(0)(Bad::NotAFile));
    }
    let mut reader = BufReader::new(opened);
    let mut reading = Reading {
        file: file.to_path_buf(),
        packages: vec![],
        open: None,
        summary: None,
    };
    let mut text = Vec::new();
    let mut number = 0;
    loop {
        text.clear();
        let limit = bounds::REPORT_LINE_BYTES as u64 + 1;
        let read = (&mut reader).take(limit).read_until(b'\n', &mut text);
        if read.map_err(|e| at(number + 1)(Bad::Io(e)))? == 0 {
            break;
        }
        number += 1;
        if text.len() > bounds::REPORT_LINE_BYTES {
            return Err(at(number)(Bad::TooLong));
        }
        if number > bounds::REPORT_LINES {
            return Err(at(number)(Bad::TooMany));
        }
        reading.line(&text).map_err(at(number))?;
    }
    let summary = reading
        .summary
        .ok_or_else(|| at(number + 1)(Bad::Truncated))?;
    Ok(Shard {
        file: reading.file,
        packages: reading.packages,
        summary,
    })
}

/// A shard as read so far: its packages, the one whose package line is still to come, the
/// summary once read.
struct Reading {
    file: PathBuf,
    packages: Vec<ShardPackage>,
    open: Option<ShardPackage>,
    summary: Option<SummaryLine>,
}

impl Reading {
    fn line(&mut self, text: &[u8]) -> Result<(), Bad> {
        if self.summary.is_some() {
            return Err(Bad::AfterSummary);
        }
        let line: Line = serde_json::from_slice(text).map_err(|e| Bad::Json(e.to_string()))?;
        match line {
            Line::Heading(heading) => {
                if self.open.is_some() {
                    return Err(Bad::OutOfPlace("heading"));
                }
                self.open = Some(ShardPackage {
                    heading: heading.typed()?,
                    rows: vec![],
                    outcome: None,
                });
            }
            Line::Submission(line) => {
                let open = self.open.as_mut().ok_or(Bad::OutOfPlace("submission"))?;
                same_package("submission", &line.package, &open.heading.name)?;
                open.rows.push(line.typed()?);
            }
            Line::Package(line) => {
                let mut open = self.open.take().ok_or(Bad::OutOfPlace("package"))?;
                same_package("package", &line.package, &open.heading.name)?;
                open.outcome = Some(line.typed()?);
                self.packages.push(open);
            }
            Line::Contest {} => {}
            Line::Summary(summary) => {
                if summary.command != "verify" {
                    return Err(Bad::OtherCommand(summary.command));
                }
                match summary.schema {
                    None => return Err(Bad::NoSchema),
                    Some(VERIFY_SCHEMA) => {}
                    Some(other) => return Err(Bad::Schema(other)),
                }
                if summary.cancelled {
                    return Err(Bad::Cancelled);
                }
                if self.open.is_some() {
                    return Err(Bad::OutOfPlace("summary"));
                }
                self.summary = Some(*summary);
            }
            Line::Case {} => return Err(Bad::OtherLine("case")),
            Line::Counterexample {} => return Err(Bad::OtherLine("counterexample")),
            Line::Problem {} => return Err(Bad::OtherLine("problem")),
        }
        Ok(())
    }
}

fn same_package(line: &'static str, package: &str, heading: &str) -> Result<(), Bad> {
    match package == heading {
        true => Ok(()),
        false => Err(Bad::OtherPackage {
            line,
            package: package.to_string(),
            heading: heading.to_string(),
        }),
    }
}
