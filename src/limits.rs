//! The one type of limits every program grundy runs is held to ([`Limits`]): a case's run (the
//! time limit, its wall-clock backstop, memory and output), a checker's or interactor's time, and
//! how many passes a case may take; and what the sandbox is given of them for the program itself
//! ([`Limits::program`]) and for the judge of its output ([`Limits::judge`]). A compiler, a
//! generator and a validator run under a `Limits` as well (their own time, memory and output).
//! Where a problem's limits come from is [`crate::config`]'s (runner.toml and flags) and the
//! plan's (a package's own, one rule for every command); every time here is a [`Duration`].

use std::time::Duration;

/// A checker's or interactor's memory limit: generous, since the judge is trusted to be fair but
/// not to be frugal; still a limit, since it is still a program of someone else's.
pub const JUDGE_MEMORY_MIB: u64 = 2048;

/// What one run (or a case's runs) may use.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// The CPU time a run may use (every process of it together): the limit that decides TLE.
    pub time: Duration,
    /// The wall-clock backstop that stops a run that sleeps or blocks; `None`:
    /// [`grundy_sandbox::Limits::wall_for`] the time limit.
    pub wall: Option<Duration>,
    pub memory_mib: u64,
    pub output_mib: u64,
    /// How long a checker may take, and an interactor beyond the program's own time limit.
    pub judge_time: Duration,
    /// How many passes a case may take: a multi-pass package's `limits.validation_passes`, 1
    /// for every other problem.
    pub passes: u64,
}

impl Default for Limits {
    /// The runner's defaults (runner.toml's, when it sets nothing).
    fn default() -> Limits {
        Limits {
            time: Duration::from_millis(2000),
            wall: None,
            memory_mib: 256,
            output_mib: 64,
            judge_time: Duration::from_millis(30_000),
            passes: 1,
        }
    }
}

impl Limits {
    /// A program that is not judged (a compiler, a generator, a validator): its CPU time,
    /// memory and output, the wall clock the usual backstop.
    pub fn of_program(time: Duration, memory_mib: u64, output_mib: u64) -> Limits {
        Limits {
            time,
            memory_mib,
            output_mib,
            ..Limits::default()
        }
    }

    /// The wall-clock limit in force: the one set, or the usual backstop for the time limit;
    /// never below the time limit.
    pub fn wall(&self) -> Duration {
        self.wall
            .unwrap_or_else(|| grundy_sandbox::Limits::wall_for(self.time))
            .max(self.time)
    }

    /// What the sandbox holds the program itself to.
    pub fn program(&self) -> grundy_sandbox::Limits {
        grundy_sandbox::Limits {
            time: self.time,
            wall: self.wall(),
            memory_bytes: self.memory_mib << 20,
            output_bytes: self.output_mib << 20,
        }
    }

    /// What the sandbox holds a checker of the program's output to.
    pub fn judge(&self) -> grundy_sandbox::Limits {
        grundy_sandbox::Limits {
            time: self.judge_time,
            wall: grundy_sandbox::Limits::wall_for(self.judge_time),
            memory_bytes: JUDGE_MEMORY_MIB << 20,
            output_bytes: self.output_mib << 20,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wall_clock_is_a_backstop_never_below_the_time_limit() {
        let ms = Duration::from_millis;
        let limits = Limits {
            time: ms(1000),
            ..Limits::default()
        };
        assert_eq!(limits.wall(), ms(3000), "twice the time limit and a second");
        let set = Limits {
            wall: Some(ms(500)),
            ..limits.clone()
        };
        assert_eq!(
            set.wall(),
            ms(1000),
            "a wall limit below the time limit is raised to it"
        );
        assert_eq!(set.program().wall, ms(1000));
        assert_eq!(limits.program().memory_bytes, 256 << 20);
    }

    #[test]
    fn a_judge_has_its_own_time_and_generous_memory() {
        let limits = Limits {
            judge_time: Duration::from_secs(5),
            output_mib: 8,
            ..Limits::default()
        };
        let judge = limits.judge();
        assert_eq!(judge.time, Duration::from_secs(5));
        assert_eq!(judge.wall, Duration::from_secs(11));
        assert_eq!(judge.memory_bytes, JUDGE_MEMORY_MIB << 20);
        assert_eq!(judge.output_bytes, 8 << 20);
    }
}
