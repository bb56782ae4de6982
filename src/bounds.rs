//! The sane range of every limit and multiplier grundy reads, from `problem.yaml`, DOMjudge's
//! files, `runner.toml` and the command line, in one place, each with why. A number outside its
//! range is refused where it is read, with where it is; past the reading, every limit is a
//! checked value, so no conversion or product made of it can panic, wrap or come out as 0.

use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

/// The longest time limit: a day. No judge gives one case longer, and so every timeout and wall
/// clock made from a limit (times a multiplier, twice and a second more) stays far inside what a
/// `Duration` holds.
pub const MAX_TIME_S: u64 = 24 * 60 * 60;
pub const MAX_TIME_MS: u64 = MAX_TIME_S * 1000;

/// The most worker threads: far more than any machine has cores; each worker costs a thread
/// with a large (lazily committed) stack.
pub const MAX_JOBS: usize = 1024;

/// The longest line of a report `report merge` reads: a submission's line lists every case that
/// caught it with its message, so a submission failing tens of thousands of cases writes
/// megabytes; more than this is no line grundy wrote.
pub const REPORT_LINE_BYTES: usize = 64 << 20;

/// The most lines of a report `report merge` reads: a line per submission and two per package,
/// far past any contest's.
pub const REPORT_LINES: usize = 10_000_000;

/// A time limit or resolution in seconds, fractions allowed: from a millisecond, the resolution
/// limits are shown in (less is no limit at all: `1e-300` seconds is 0, never a fast one), to a
/// day.
pub const SECONDS: Real = Real {
    min: 0.001,
    max: MAX_TIME_S as f64,
    unit: " of seconds",
    note: " (a millisecond to a day)",
};

/// A time limit in whole milliseconds: runner.toml's and the command line's.
pub const MILLISECONDS: Whole = Whole {
    min: 1,
    max: MAX_TIME_MS,
    unit: " of milliseconds",
    note: " (a day)",
};

/// A time in whole seconds: a compiler's, a validator's, a generator's.
pub const WHOLE_SECONDS: Whole = Whole {
    min: 1,
    max: MAX_TIME_S,
    unit: " of seconds",
    note: " (a day)",
};

/// A time multiplier (`ac_to_time_limit`, `time_limit_to_tle` and the legacy names). Below 1 a
/// computed limit is below the accepted run it comes from, or a run is stopped before it reaches
/// the limit; the formats' defaults are 1.5 to 5, and 100 already makes a 10 ms run a 1 s limit.
pub const MULTIPLIER: Real = Real {
    min: 1.0,
    max: 100.0,
    unit: "",
    note: "",
};

/// A multi-pass problem's passes: at least the two that make it one; each pass is a run with
/// the whole limits, so a thousand is far past any game a judge plays out.
pub const PASSES: Whole = Whole {
    min: 2,
    max: 1000,
    unit: " of passes",
    note: "",
};

/// The code size limit (KiB): a GiB, more than any source a judge accepts.
pub const CODE_KIB: Whole = Whole {
    min: 1,
    max: 1 << 20,
    unit: " of KiB",
    note: " (a GiB)",
};

/// A memory or output limit in MiB: at most this machine's memory. A run's memory beyond it is
/// the kernel's out-of-memory killer's to stop, not the limit's, and its output is held in
/// grundy's own memory; so a package made for a larger judge machine is refused here, naming
/// both figures, rather than judged with a limit this machine cannot honour.
pub fn mebibytes() -> Whole {
    Whole {
        min: 1,
        max: machine_mib(),
        unit: " of MiB",
        note: " (this machine's memory)",
    }
}

/// This machine's memory in MiB (the kernel's total of usable RAM, `MemTotal` in
/// `/proc/meminfo`), asked once: every message gives the same figure.
pub fn machine_mib() -> u64 {
    static MIB: OnceLock<u64> = OnceLock::new();
    *MIB.get_or_init(|| {
        let info = rustix::system::sysinfo();
        let bytes = u128::from(info.totalram) * u128::from(info.mem_unit.max(1));
        u64::try_from(bytes >> 20).unwrap_or(u64::MAX).max(1)
    })
}

/// The range a whole number must lie in, and how messages say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole {
    pub min: u64,
    pub max: u64,
    /// ` of MiB`: what the number counts, after "a whole number".
    pub unit: &'static str,
    /// What the largest value is, when a reader would ask: ` (a day)`.
    pub note: &'static str,
}

impl Whole {
    /// `value` as a count of the unit, when it is in range.
    pub fn admits(&self, value: i64) -> Option<u64> {
        u64::try_from(value)
            .ok()
            .filter(|v| (self.min..=self.max).contains(v))
    }
}

impl fmt::Display for Whole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Whole {
            min,
            max,
            unit,
            note,
        } = self;
        write!(f, "a whole number{unit} from {min} to {max}{note}")
    }
}

/// The range a number with a fraction must lie in, and how messages say it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Real {
    pub min: f64,
    pub max: f64,
    pub unit: &'static str,
    pub note: &'static str,
}

impl Real {
    /// `value` when it is a finite number in range (never NaN, infinite or negative).
    pub fn admits(&self, value: f64) -> Option<f64> {
        (value.is_finite() && (self.min..=self.max).contains(&value)).then_some(value)
    }
}

impl fmt::Display for Real {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Real {
            min,
            max,
            unit,
            note,
        } = self;
        write!(f, "a number{unit} from {min} to {max}{note}")
    }
}

/// `seconds` as a time limit, when it is one ([`SECONDS`]).
pub fn seconds(seconds: f64) -> Option<Duration> {
    SECONDS.admits(seconds).map(Duration::from_secs_f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_run_from_a_millisecond_to_a_day() {
        assert_eq!(seconds(0.001), Some(Duration::from_millis(1)));
        assert_eq!(seconds(2.5), Some(Duration::from_millis(2500)));
        assert_eq!(seconds(86_400.0), Some(Duration::from_secs(86_400)));
        for absurd in [
            0.0,
            0.000_999,
            1e-300,
            -1.0,
            86_400.001,
            1e300,
            f64::NAN,
            f64::INFINITY,
        ] {
            assert_eq!(seconds(absurd), None, "{absurd}");
        }
        assert_eq!(
            SECONDS.to_string(),
            "a number of seconds from 0.001 to 86400 (a millisecond to a day)"
        );
    }

    #[test]
    fn multipliers_run_from_1_to_100() {
        assert_eq!(MULTIPLIER.admits(1.0), Some(1.0));
        assert_eq!(MULTIPLIER.admits(100.0), Some(100.0));
        for absurd in [0.5, 100.5, 1e300, f64::NAN, f64::NEG_INFINITY] {
            assert_eq!(MULTIPLIER.admits(absurd), None, "{absurd}");
        }
        assert_eq!(MULTIPLIER.to_string(), "a number from 1 to 100");
    }

    #[test]
    fn whole_numbers_are_checked_without_a_cast() {
        assert_eq!(WHOLE_SECONDS.admits(1), Some(1));
        assert_eq!(WHOLE_SECONDS.admits(86_400), Some(86_400));
        for absurd in [0, -1, 86_401, i64::MIN, i64::MAX] {
            assert_eq!(WHOLE_SECONDS.admits(absurd), None, "{absurd}");
        }
        assert_eq!(PASSES.admits(1), None);
        assert_eq!(
            WHOLE_SECONDS.to_string(),
            "a whole number of seconds from 1 to 86400 (a day)"
        );
    }

    #[test]
    fn memory_is_bounded_by_the_machine() {
        // The kernel's own figure, read apart from the code under test.
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
        let kib: u64 = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|rest| rest.trim().strip_suffix("kB"))
            .map(|n| n.trim().parse().unwrap())
            .unwrap();
        let bound = mebibytes();
        assert_eq!(bound.max, kib / 1024);
        assert_eq!(bound.admits(1), Some(1));
        assert_eq!(bound.admits(i64::try_from(kib / 1024 + 1).unwrap()), None);
        assert!(bound.to_string().ends_with("(this machine's memory)"));
    }
}
