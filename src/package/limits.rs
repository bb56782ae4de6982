//! `limits` of `problem.yaml` and the time-limit arithmetic of the format: a given `time_limit`,
//! or one computed from the slowest accepted submission, with the safety margins each version
//! defines (legacy `time_multiplier` 5 and `time_safety_margin` 2; new `time_multipliers`
//! `ac_to_time_limit` 2.0 and `time_limit_to_tle` 1.5), rounded up to `time_resolution`.

use std::path::Path;
use std::time::Duration;

use super::fields::Fields;
use super::version::FormatVersion;
use super::yaml::{Diagnostic, Node};

/// The limits a problem asks for. `None` means "the system default" (the spec leaves those to
/// the judge; see [`Limits::memory_mib_or`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Seconds, when the package fixes the time limit.
    pub time_limit: Option<f64>,
    /// The file that fixes it, for reports: `problem.yaml`, or one of DOMjudge's
    /// ([`super::domjudge`]).
    pub time_limit_file: &'static str,
    /// The time limit must be at least the slowest accepted run times this.
    pub ac_to_time_limit: f64,
    /// Time-limit-exceeded submissions must run at least the time limit times this.
    pub time_limit_to_tle: f64,
    /// A computed time limit is a whole multiple of this many seconds.
    pub time_resolution: f64,
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
            time_resolution: 1.0,
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
    /// `time_resolution`, and still honour the legacy names with a warning.
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
        let legacy_multiplier = fields.number("time_multiplier", 0.0, false)?;
        let legacy_margin = fields.number("time_safety_margin", 0.0, false)?;
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
            limits.time_resolution = fields.number("time_resolution", 0.0, false)?.unwrap_or(1.0);
        }
        limits.time_limit = fields.number("time_limit", 0.0, false)?;
        limits.memory_mib = fields.integer("memory", 1)?;
        limits.output_mib = fields.integer("output", 1)?;
        limits.code_kib = fields.integer("code", 1)?;
        limits.compilation_time_s = fields.integer("compilation_time", 1)?;
        limits.compilation_memory_mib = fields.integer("compilation_memory", 1)?;
        limits.validation_time_s = fields.integer("validation_time", 1)?;
        limits.validation_memory_mib = fields.integer("validation_memory", 1)?;
        limits.validation_output_mib = fields.integer("validation_output", 1)?;
        limits.generator_time_s = fields.integer("generator_time", 1)?;
        if let Some(passes) = fields.integer("validation_passes", 2)? {
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

    /// The time limit to judge with. A fixed `time_limit` is taken as it is (see
    /// [`Limits::fixed_margin_warning`]); otherwise the limit is the smallest positive multiple of
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
                let exact = ac.as_secs_f64() * self.ac_to_time_limit / self.time_resolution;
                // A hair below the next multiple: 0.5 s × 2 is 1 s, not 2 s, despite rounding noise.
                (exact - 1e-9).ceil().max(1.0) * self.time_resolution
            }
        };
        if let Some(tle) = fastest_tle {
            if limit * self.time_limit_to_tle > tle.as_secs_f64() + 1e-9 {
                return Err(TimeLimitError::NotBelowTle {
                    limit,
                    factor: self.time_limit_to_tle,
                    tle: tle.as_secs_f64(),
                });
            }
        }
        Ok(Duration::from_secs_f64(limit))
    }

    /// Why a fixed `time_limit` leaves the slowest accepted run less than `ac_to_time_limit` of
    /// room, if it does. A warning, not an error: the author chose the limit, and an accepted run
    /// that does not fit in it at all is already a failed expectation.
    pub fn fixed_margin_warning(&self, slowest_ac: Option<Duration>) -> Option<String> {
        let (fixed, ac) = (self.time_limit?, slowest_ac?.as_secs_f64());
        let needed = ac * self.ac_to_time_limit;
        (needed > fixed + 1e-9).then(|| {
            format!(
                "the time limit {} is tighter than the format's margin: the slowest accepted run \
                 takes {} × ac_to_time_limit {} = {}",
                secs(fixed),
                secs(ac),
                self.ac_to_time_limit,
                secs(needed)
            )
        })
    }

    /// How long to let a submission run so that a time-limit-exceeded one is told apart from an
    /// accepted one that is merely slow: the time limit times `time_limit_to_tle`.
    pub fn timeout(&self, time_limit: Duration) -> Duration {
        time_limit.mul_f64(self.time_limit_to_tle)
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
        inner.number("ac_to_time_limit", 1.0, true)?,
        inner.number("time_limit_to_tle", 1.0, true)?,
    ))
}

/// Why a problem has no time limit to judge with.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TimeLimitError {
    #[error("no time_limit is given and no accepted run was timed to compute one")]
    Untimed,
    /// The limit (seconds) times `time_limit_to_tle` reaches the fastest TLE run (seconds).
    #[error(
        "the time limit {} × time_limit_to_tle {factor} = {} is not below the fastest \
         time-limit-exceeded run, {}",
        secs(*limit),
        secs(limit * factor),
        secs(*tle)
    )]
    NotBelowTle { limit: f64, factor: f64, tle: f64 },
}

fn secs(seconds: f64) -> String {
    format!("{}s", (seconds * 1000.0).round() / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::yaml;

    fn limits(version: FormatVersion, text: &str) -> Result<(Limits, Vec<String>), String> {
        let file = Path::new("problem.yaml");
        let root = yaml::parse(file, text).unwrap().unwrap();
        let node = &root.as_map().unwrap()[0].1;
        let mut warnings = vec![];
        let limits =
            Limits::parse(file, node, version, false, &mut warnings).map_err(|e| e.to_string())?;
        Ok((limits, warnings.iter().map(ToString::to_string).collect()))
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn defaults_differ_per_version() {
        let legacy = Limits::defaults(FormatVersion::Legacy);
        assert_eq!(
            (legacy.ac_to_time_limit, legacy.time_limit_to_tle),
            (5.0, 2.0)
        );
        let new = Limits::defaults(FormatVersion::V2025_09);
        assert_eq!(
            (
                new.ac_to_time_limit,
                new.time_limit_to_tle,
                new.time_resolution
            ),
            (2.0, 1.5, 1.0)
        );
        assert_eq!(new.validation_passes, 2);
        assert_eq!(new.memory_mib_or(2048), 2048);
    }

    #[test]
    fn legacy_keys_are_read_in_legacy() {
        let (l, warnings) = limits(
            FormatVersion::Legacy,
            "limits:\n  time_multiplier: 3\n  time_safety_margin: 1.5\n  memory: 512\n",
        )
        .unwrap();
        assert_eq!(
            (l.ac_to_time_limit, l.time_limit_to_tle, l.memory_mib),
            (3.0, 1.5, Some(512))
        );
        assert!(warnings.is_empty());
    }

    #[test]
    fn new_keys_are_read_and_legacy_names_are_honoured_with_a_warning() {
        let text =
            "limits:\n  time_multipliers:\n    ac_to_time_limit: 3\n  time_safety_margin: 4\n  \
                    time_resolution: 0.5\n  time_limit: 2.5\n  output: 16\n";
        let (l, warnings) = limits(FormatVersion::V2025_09, text).unwrap();
        assert_eq!((l.ac_to_time_limit, l.time_limit_to_tle), (3.0, 4.0));
        assert_eq!(
            (l.time_resolution, l.time_limit, l.output_mib),
            (0.5, Some(2.5), Some(16))
        );
        assert_eq!(
            warnings,
            [
                "problem.yaml:4:23: limits.time_safety_margin is legacy; this version reads \
              limits.time_multipliers.time_limit_to_tle"
            ]
        );
    }

    #[test]
    fn wrong_types_and_ranges_are_located_errors() {
        let error =
            limits(FormatVersion::Legacy, "limits:\n  time_multiplier: fast\n").unwrap_err();
        assert_eq!(
            error,
            "problem.yaml:2:20: limits.time_multiplier must be a number, found \"fast\""
        );
        let error = limits(
            FormatVersion::V2023_07,
            "limits:\n  time_multipliers: {ac_to_time_limit: 0.5}\n",
        )
        .unwrap_err();
        assert!(error.ends_with(
            "limits.time_multipliers.ac_to_time_limit must be a number at least 1, found 0.5"
        ));
        let error =
            limits(FormatVersion::V2025_09, "limits:\n  validation_passes: 1\n").unwrap_err();
        assert!(
            error.contains("validation_passes must be a whole number of at least 2"),
            "{error}"
        );
        let error = limits(FormatVersion::V2025_09, "limits:\n  memory: 1.5\n").unwrap_err();
        assert!(
            error.contains("limits.memory must be a whole number"),
            "{error}"
        );
    }

    #[test]
    fn unknown_limit_keys_warn_and_new_keys_are_unknown_in_legacy() {
        let (_, warnings) = limits(
            FormatVersion::Legacy,
            "limits:\n  time_resolution: 1\n  memroy: 3\n",
        )
        .unwrap();
        assert_eq!(warnings.len(), 2);
        assert!(
            warnings[1].contains("unknown key `limits.memroy` (did you mean `memory`?)"),
            "{warnings:?}"
        );
    }

    #[test]
    fn computed_time_limit_is_the_smallest_multiple_of_the_resolution() {
        let l = Limits::defaults(FormatVersion::V2025_09);
        assert_eq!(l.time_limit(Some(ms(300)), None).unwrap(), ms(1000));
        assert_eq!(
            l.time_limit(Some(ms(500)), None).unwrap(),
            ms(1000),
            "exactly 1 s is enough"
        );
        assert_eq!(l.time_limit(Some(ms(501)), None).unwrap(), ms(2000));
        let fine = Limits {
            time_resolution: 0.1,
            ..l.clone()
        };
        assert_eq!(fine.time_limit(Some(ms(260)), None).unwrap(), ms(600));
        let legacy = Limits::defaults(FormatVersion::Legacy);
        assert_eq!(legacy.time_limit(Some(ms(300)), None).unwrap(), ms(2000));
        assert_eq!(l.time_limit(None, None), Err(TimeLimitError::Untimed));
    }

    #[test]
    fn time_limit_must_stay_below_the_fastest_tle_run() {
        let l = Limits::defaults(FormatVersion::V2025_09);
        assert_eq!(
            l.time_limit(Some(ms(400)), Some(ms(1500))).unwrap(),
            ms(1000)
        );
        let error = l.time_limit(Some(ms(400)), Some(ms(1400))).unwrap_err();
        let error = error.to_string();
        assert!(
            error.contains("1s × time_limit_to_tle 1.5 = 1.5s is not below"),
            "{error}"
        );
        assert_eq!(l.timeout(ms(1000)), ms(1500));
    }

    #[test]
    fn a_fixed_time_limit_is_kept_and_a_thin_margin_is_warned_of() {
        let l = Limits {
            time_limit: Some(1.5),
            ..Limits::defaults(FormatVersion::V2025_09)
        };
        assert_eq!(l.time_limit(Some(ms(700)), None).unwrap(), ms(1500));
        assert_eq!(l.fixed_margin_warning(Some(ms(750))), None);
        // Too little room for the slowest accepted run is a warning; the limit stays.
        assert_eq!(l.time_limit(Some(ms(800)), None).unwrap(), ms(1500));
        assert_eq!(
            l.fixed_margin_warning(Some(ms(800))).unwrap(),
            "the time limit 1.5s is tighter than the format's margin: the slowest accepted run \
             takes 0.8s × ac_to_time_limit 2 = 1.6s"
        );
        let computed = Limits::defaults(FormatVersion::V2025_09);
        assert_eq!(computed.fixed_margin_warning(Some(ms(800))), None);
    }
}
