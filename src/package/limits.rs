//! `limits` of `problem.yaml` and the time-limit arithmetic of the format: a given `time_limit`,
//! or one computed from the slowest accepted submission, with the safety margins each version
//! defines (legacy `time_multiplier` 5 and `time_safety_margin` 2; new `time_multipliers`
//! `ac_to_time_limit` 2.0 and `time_limit_to_tle` 1.5), rounded up to `time_resolution`.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use super::fields::Fields;
use super::version::FormatVersion;
use super::yaml::{Diagnostic, Node};
use crate::bounds::{self, CODE_KIB, MULTIPLIER, PASSES, WHOLE_SECONDS};

/// DOMjudge's files that can fix a package's time limit ([`super::domjudge`] reads them).
pub const TIMELIMIT_FILE: &str = ".timelimit";
pub const INI_FILE: &str = "domjudge-problem.ini";

/// Every file a package's time limit can be fixed by, as reports name it.
pub const TIME_LIMIT_FILES: [&str; 3] = ["problem.yaml", TIMELIMIT_FILE, INI_FILE];

/// The limits a problem asks for. `None` means "the system default" (the spec leaves those to
/// the judge; see [`Limits::memory_mib_or`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// The time limit, when the package fixes it ([`bounds::SECONDS`]).
    pub time_limit: Option<Duration>,
    /// The file that fixes it, for reports: `problem.yaml`, or one of DOMjudge's
    /// ([`super::domjudge`]).
    pub time_limit_file: &'static str,
    /// The time limit must be at least the slowest accepted run times this.
    pub ac_to_time_limit: f64,
    /// Time-limit-exceeded submissions must run at least the time limit times this.
    pub time_limit_to_tle: f64,
    /// A computed time limit is a whole multiple of this ([`bounds::SECONDS`]).
    pub time_resolution: Duration,
    pub memory_mib: Option<u64>,
    pub output_mib: Option<u64>,
    pub code_kib: Option<u64>,
    pub compilation_time_s: Option<u64>,
    pub compilation_memory_mib: Option<u64>,
    pub validation_time_s: Option<u64>,
    pub validation_memory_mib: Option<u64>,
    pub validation_output_mib: Option<u64>,
    /// BAPCtools' `generator_time`: the CPU seconds a generator (or the solution writing an
    /// answer) may take in `grundy generate`.
    pub generator_time_s: Option<u64>,
    /// Most passes of a multi-pass problem (2 unless given).
    pub validation_passes: u64,
}

const COMMON_KEYS: &[&str] = &[
    "time_limit",
    "memory",
    "output",
    "code",
    "compilation_time",
    "compilation_memory",
    "validation_time",
    "validation_memory",
    "validation_output",
    "validation_passes",
    "generator_time",
];

impl Limits {
    /// The defaults of `version` when `problem.yaml` has no `limits`.
    pub fn defaults(version: FormatVersion) -> Limits {
        let (ac_to_time_limit, time_limit_to_tle) = if version.is_legacy() {
            (5.0, 2.0)
        } else {
            (2.0, 1.5)
        };
        Limits {
            time_limit: None,
            time_limit_file: "problem.yaml",
            ac_to_time_limit,
            time_limit_to_tle,
            time_resolution: Duration::from_secs(1),
            memory_mib: None,
            output_mib: None,
            code_kib: None,
            compilation_time_s: None,
            compilation_memory_mib: None,
            validation_time_s: None,
            validation_memory_mib: None,
            generator_time_s: None,
            validation_output_mib: None,
            validation_passes: 2,
        }
    }

    /// Reads the `limits` map. Legacy has `time_multiplier` and `time_safety_margin` (and, as
    /// BAPCtools allows, `time_limit`); the new versions have `time_multipliers` and
    /// `time_resolution`, and still honour the legacy names with a warning. Every number must lie
    /// in its range of [`bounds`], else it is an error at its place.
    pub fn parse(
        file: &Path,
        node: &Node,
        version: FormatVersion,
        multi_pass: bool,
        warnings: &mut Vec<Diagnostic>,
    ) -> Result<Limits, Diagnostic> {
        let mut known = COMMON_KEYS.to_vec();
        let legacy_names = ["time_multiplier", "time_safety_margin"];
        known.extend(legacy_names);
        if !version.is_legacy() {
            known.extend(["time_multipliers", "time_resolution"]);
        }
        let fields = Fields::new(file, node, "limits.", &known, warnings)?;
        let mut limits = Limits::defaults(version);
        let legacy_multiplier = fields.real("time_multiplier", &MULTIPLIER)?;
        let legacy_margin = fields.real("time_safety_margin", &MULTIPLIER)?;
        if version.is_legacy() {
            limits.ac_to_time_limit = legacy_multiplier.unwrap_or(limits.ac_to_time_limit);
            limits.time_limit_to_tle = legacy_margin.unwrap_or(limits.time_limit_to_tle);
        } else {
            for (name, new) in legacy_names
                .iter()
                .zip(["ac_to_time_limit", "time_limit_to_tle"])
            {
                if let Some(at) = fields.get(name) {
                    let message = format!(
                        "limits.{name} is legacy; this version reads limits.time_multipliers.{new}"
                    );
                    warnings.push(Diagnostic::at(file, at, message));
                }
            }
            let (ac, tle) = time_multipliers(&fields, warnings)?;
            limits.ac_to_time_limit = ac.or(legacy_multiplier).unwrap_or(limits.ac_to_time_limit);
            limits.time_limit_to_tle = tle.or(legacy_margin).unwrap_or(limits.time_limit_to_tle);
            if let Some(resolution) = fields.seconds("time_resolution")? {
                limits.time_resolution = resolution;
            }
        }
        limits.time_limit = fields.seconds("time_limit")?;
        let mib = bounds::mebibytes();
        limits.memory_mib = fields.whole("memory", &mib)?;
        limits.output_mib = fields.whole("output", &mib)?;
        limits.code_kib = fields.whole("code", &CODE_KIB)?;
        limits.compilation_time_s = fields.whole("compilation_time", &WHOLE_SECONDS)?;
        limits.compilation_memory_mib = fields.whole("compilation_memory", &mib)?;
        limits.validation_time_s = fields.whole("validation_time", &WHOLE_SECONDS)?;
        limits.validation_memory_mib = fields.whole("validation_memory", &mib)?;
        limits.validation_output_mib = fields.whole("validation_output", &mib)?;
        limits.generator_time_s = fields.whole("generator_time", &WHOLE_SECONDS)?;
        if let Some(passes) = fields.whole("validation_passes", &PASSES)? {
            if !multi_pass {
                let at = fields.get("validation_passes").expect("read");
                warnings.push(Diagnostic::at(
                    file,
                    at,
                    "limits.validation_passes is only used by multi-pass problems",
                ));
            }
            limits.validation_passes = passes;
        }
        Ok(limits)
    }

    /// The memory limit, or `default` when the package leaves it to the system.
    pub fn memory_mib_or(&self, default: u64) -> u64 {
        self.memory_mib.unwrap_or(default)
    }

    /// The time-limit rule of these limits, for [`TimeRule::time_limit`] and
    /// [`TimeRule::margin_warning`].
    pub fn rule(&self) -> TimeRule {
        TimeRule {
            time_limit: self.time_limit,
            ac_to_time_limit: self.ac_to_time_limit,
            time_limit_to_tle: self.time_limit_to_tle,
            time_resolution: self.time_resolution,
        }
    }

    /// [`TimeRule::time_limit`] of these limits.
    pub fn time_limit(
        &self,
        slowest_ac: Option<Duration>,
        fastest_tle: Option<Duration>,
    ) -> Result<Duration, TimeLimitError> {
        self.rule().time_limit(slowest_ac, fastest_tle)
    }

    /// How long to let a submission run so that a time-limit-exceeded one is told apart from an
    /// accepted one that is merely slow: the time limit times `time_limit_to_tle`.
    pub fn timeout(&self, time_limit: Duration) -> Duration {
        time_limit.mul_f64(self.time_limit_to_tle)
    }
}

/// The part of [`Limits`] the time limit and its margins follow: all a report needs to check
/// the margins again (`report merge` reads it back from each shard).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeRule {
    /// The fixed time limit, if any.
    pub time_limit: Option<Duration>,
    pub ac_to_time_limit: f64,
    pub time_limit_to_tle: f64,
    pub time_resolution: Duration,
}

impl TimeRule {
    /// The time limit to judge with. A fixed `time_limit` is taken as it is (see
    /// [`TimeRule::margin_warning`]); otherwise the limit is the smallest positive multiple of
    /// `time_resolution` that the slowest accepted run times `ac_to_time_limit` fits in. Either
    /// way the limit times `time_limit_to_tle` must not exceed the fastest time-limit-exceeded
    /// run, and it is an error if it does.
    pub fn time_limit(
        &self,
        slowest_ac: Option<Duration>,
        fastest_tle: Option<Duration>,
    ) -> Result<Duration, TimeLimitError> {
        let limit = match self.time_limit {
            Some(fixed) => fixed,
            None => {
                let Some(ac) = slowest_ac else {
                    return Err(TimeLimitError::Untimed);
                };
                let step = self.time_resolution.as_secs_f64();
                let exact = ac.as_secs_f64() * self.ac_to_time_limit / step;
                // A hair below the next multiple: 0.5 s × 2 is 1 s, not 2 s, despite rounding noise.
                let seconds = (exact - 1e-9).ceil().max(1.0) * step;
                // Of a run no longer than the generous timeout, never; checked all the same.
                bounds::seconds(seconds).ok_or(TimeLimitError::OverADay { seconds })?
            }
        };
        if let Some(tle) = fastest_tle {
            if limit.as_secs_f64() * self.time_limit_to_tle > tle.as_secs_f64() + 1e-9 {
                return Err(TimeLimitError::NotBelowTle {
                    limit,
                    factor: self.time_limit_to_tle,
                    tle,
                });
            }
        }
        Ok(limit)
    }

    /// Why `limit` leaves a run of `slowest` (`who`'s) less than `ac_to_time_limit` of room, if
    /// it does.
    pub fn margin_warning(&self, limit: Duration, slowest: Duration, who: &str) -> Option<Margin> {
        let needed = slowest.as_secs_f64() * self.ac_to_time_limit;
        (needed > limit.as_secs_f64() + 1e-9).then(|| Margin {
            limit,
            run: slowest,
            factor: self.ac_to_time_limit,
            who: who.to_string(),
        })
    }
}

fn time_multipliers(
    fields: &Fields,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(Option<f64>, Option<f64>), Diagnostic> {
    let Some(node) = fields.get("time_multipliers") else {
        return Ok((None, None));
    };
    let inner = Fields::new(
        fields.file(),
        node,
        "limits.time_multipliers.",
        &["ac_to_time_limit", "time_limit_to_tle"],
        warnings,
    )?;
    Ok((
        inner.real("ac_to_time_limit", &MULTIPLIER)?,
        inner.real("time_limit_to_tle", &MULTIPLIER)?,
    ))
}

/// A time limit tighter than the format's margin for a run of `run` (`who`'s: "the slowest
/// accepted run"): the run times `ac_to_time_limit` (`factor`) is over it.
#[derive(Clone, Debug, PartialEq)]
pub struct Margin {
    pub limit: Duration,
    pub run: Duration,
    pub factor: f64,
    pub who: String,
}

impl fmt::Display for Margin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the time limit {} is tighter than the format's margin: {} takes {} × \
             ac_to_time_limit {} = {}",
            seconds(self.limit),
            self.who,
            seconds(self.run),
            self.factor,
            seconds_of(self.run.as_secs_f64() * self.factor)
        )
    }
}

/// Why a problem has no time limit to judge with.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TimeLimitError {
    #[error("no time_limit is given and no accepted run was timed to compute one")]
    Untimed,
    /// The limit times `time_limit_to_tle` reaches the fastest TLE run.
    #[error(
        "the time limit {} × time_limit_to_tle {factor} = {} is not below the fastest \
         time-limit-exceeded run, {}",
        seconds(*limit),
        seconds_of(limit.as_secs_f64() * factor),
        seconds(*tle)
    )]
    NotBelowTle {
        limit: Duration,
        factor: f64,
        tle: Duration,
    },
    /// The computed limit (seconds, too many for a time) is past [`bounds::SECONDS`].
    #[error(
        "the computed time limit {} is over a day, the longest grundy judges with",
        seconds_of(*seconds)
    )]
    OverADay { seconds: f64 },
}

/// A time as every report writes it: seconds, to the millisecond (`1.5s`).
pub fn seconds(time: Duration) -> String {
    seconds_of(time.as_secs_f64())
}

/// A number of seconds as [`seconds`] writes a time: a product of a time and a factor, which
/// may be past what a time holds.
fn seconds_of(seconds: f64) -> String {
    format!("{}s", (seconds * 1000.0).round() / 1000.0)
}

#[cfg(test)]
#[path = "limits_tests.rs"]
mod tests;
