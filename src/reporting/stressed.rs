//! What `stress` reports, as plain data its events carry: the run, known before anything runs
//! ([`StressRun`]: what is stressed against what, how many cases, the seed, the command that
//! repeats it), each case tried (a unit: its number and seed, and the verdict when the program
//! disagreed), and the counterexample found, shrunk ([`Counterexample`]). Made by
//! `commands::stress` from what `stress` found, rendered by every reporter.

use std::time::Duration;

use crate::judging::Verdict;

/// A case not saved (`stress --save`, `mutants --add`): a file it would be written as is there,
/// by its path as shown, and grundy never replaces a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept(pub String);

impl std::fmt::Display for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "not saved: `{}` is already there and grundy never replaces a file; remove it to \
             save this case again",
            self.0
        )
    }
}

/// A stress run, before anything runs.
#[derive(Clone, Debug, PartialEq)]
pub struct StressRun {
    /// The built-in problem's id, or the package's name.
    pub problem: String,
    /// The program under test, as the unit ids name it (`built-in`, or `--exec`'s command).
    pub subject: String,
    /// What it is compared with: `the brute force`, or the reference solution's path.
    pub against: String,
    pub cases: u64,
    pub seed: u64,
    /// The scales of the inputs, in words, where the run chooses them (a built-in problem's).
    pub scales: Option<String>,
    /// `grundy stress ... --seed S ...`: the command that repeats the run.
    pub rerun: String,
}

impl StressRun {
    /// `stress nim: 300 cases, all agree with the brute force (0.05s, seed 1, scales 1 to
    /// 1000)`, or `stress nim: case 17 of 300 fails (...)` when case `failed` did.
    pub fn closing(&self, failed: Option<u64>, time: Duration) -> String {
        let scales = self
            .scales
            .as_ref()
            .map(|scales| format!(", {scales}"))
            .unwrap_or_default();
        let how = match failed {
            None => format!("{} cases, all agree with {}", self.cases, self.against),
            Some(number) => format!("case {number} of {} fails", self.cases),
        };
        format!(
            "stress {}: {how} ({:.2}s, seed {}{scales})",
            self.problem,
            time.as_secs_f64(),
            self.seed
        )
    }
}

/// One case tried: its number in the run, the seed its input came from, and the verdict of
/// the program under test when it disagreed (`None`: it agreed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tried {
    pub number: u64,
    pub seed: u64,
    pub verdict: Option<Verdict>,
}

/// The first case that failed, shrunk: what shows it, and what was done with it.
#[derive(Debug)]
pub struct Counterexample {
    /// The case's number in the run.
    pub number: u64,
    pub verdict: Verdict,
    pub message: Option<String>,
    /// The shrunk input, the reference's answer to it and the program's output.
    pub input: Vec<u8>,
    pub expected: Vec<u8>,
    pub output: Vec<u8>,
    /// How the input is made again: `grundy gen ...`, or the generator command.
    pub remake: String,
    /// How it was shown to people, as `stress` renders a counterexample.
    pub shown: String,
    /// `--save`: what became of it.
    pub saved: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closing_line_says_the_cases_the_seed_and_the_scales() {
        let run = StressRun {
            problem: "nim".into(),
            subject: "built-in".into(),
            against: "the brute force".into(),
            cases: 300,
            seed: 1,
            scales: Some("scales 1 to 1000".into()),
            rerun: "grundy stress nim --seed 1".into(),
        };
        let time = Duration::from_millis(50);
        assert_eq!(
            run.closing(None, time),
            "stress nim: 300 cases, all agree with the brute force (0.05s, seed 1, scales 1 to \
             1000)"
        );
        let package = StressRun {
            scales: None,
            ..run
        };
        assert_eq!(
            package.closing(Some(17), time),
            "stress nim: case 17 of 300 fails (0.05s, seed 1)"
        );
    }
}
