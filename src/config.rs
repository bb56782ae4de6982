//! `runner.toml`: reading it, rejecting what it should not hold (with file, line and column), and
//! resolving the settings in force for each problem: built-in defaults, then the file's top level,
//! then its `[problems.<id>]` table, then command-line flags. The settings that reach past the
//! project (the box uids, `isolate = "off"`) are taken only from the user's own file
//! (`privileged.rs`).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Deserialize;
use toml::de::DeTable;
use toml::Spanned;

use crate::bounds::{self, Whole, MAX_JOBS};
use crate::checking::{BuiltInChecker, Checker, Interactor};
use crate::limits::Limits;
use crate::locate::Found;

mod file;
mod invalid;
mod privileged;

use file::{ProblemTable, RunnerFile};
use invalid::{fields_of, first_unknown_key, Invalid, SpannedError};
pub use privileged::{box_uids_from_environment, BoxUids, Ignored};

/// The limits, checker and interactor one problem's cases are judged with.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub limits: Limits,
    pub checker: Checker,
    /// For an interactive problem: the judge the program talks to.
    pub interactor: Option<Interactor>,
    /// Variables judged programs get besides PATH, HOME and LANG (`--env`).
    pub env: Vec<(OsString, OsString)>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            limits: Limits::default(),
            checker: Checker::TOKENS,
            interactor: None,
            env: Vec::new(),
        }
    }
}

/// Settings given on the command line; they win over the file.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    pub fixtures: Option<PathBuf>,
    pub jobs: Option<usize>,
    pub time_limit: Option<Duration>,
    pub wall_time_limit: Option<Duration>,
    pub memory_limit_mb: Option<u64>,
    pub output_limit_mb: Option<u64>,
    pub checker: Option<Checker>,
    pub interactor: Option<Interactor>,
    pub isolate: Option<Isolate>,
    /// `--env`: variables judged programs get besides PATH, HOME and LANG.
    pub env: Vec<(OsString, OsString)>,
    /// `GRUNDY_BOX_UIDS`: the box uids, first and count.
    pub box_uids: Option<(u32, u32)>,
}

/// How built-in solvers run, and how much containment judging requires (`isolate` in
/// runner.toml: `true`, `false`, `"strict"` or `"off"`; `--isolate [strict|off]`). By default
/// grundy judges programs wherever it can keep the host's files from them (a box, or
/// Landlock) and refuses elsewhere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Isolate {
    /// Built-in solvers run as child processes (`grundy solve`) in the sandbox.
    pub processes: bool,
    /// Refuse to judge unless the machine contains judged programs fully.
    pub strict: bool,
    /// Judge even where the host's files cannot be kept from programs (`off`): the user
    /// trusts the programs judged.
    pub off: bool,
}

impl Isolate {
    /// `--isolate`'s value: `processes` (the flag alone), `strict` or `off`.
    pub fn from_flag(value: &str) -> Isolate {
        Isolate {
            processes: value != "off",
            strict: value == "strict",
            off: value == "off",
        }
    }
}

/// The runner's configuration after the file and the flags are merged.
#[derive(Debug)]
pub struct Config {
    /// The fixtures root, resolved against the folder of runner.toml.
    pub fixtures: PathBuf,
    /// Worker threads; never 0.
    pub jobs: usize,
    /// Run built-in solvers as child processes under the sandbox's limits, and how strictly.
    pub isolate: Isolate,
    /// The uids judged programs run as when grundy is root.
    pub box_uids: BoxUids,
    /// The keys of a runner.toml that is not the user's own that were ignored, for warnings.
    pub ignored: Vec<Ignored>,
    defaults: Settings,
    per_problem: BTreeMap<String, Settings>,
}

impl Config {
    /// The settings for `problem`.
    pub fn settings(&self, problem: &str) -> &Settings {
        self.per_problem.get(problem).unwrap_or(&self.defaults)
    }

    /// Reads `path` (a missing file means all defaults, unless it was named explicitly), found
    /// as `found` says, and applies the command-line overrides. `problem_exists` tells which
    /// `[problems.<id>]` tables are allowed. Privileged keys of a file that is not the user's
    /// own are left out, and listed in [`Config::ignored`].
    pub fn load(
        path: Option<&Path>,
        found: Found,
        overrides: &Overrides,
        problem_exists: impl Fn(&str, &Path) -> bool,
    ) -> Result<Config> {
        let (file_path, explicit) = match path {
            Some(p) => (p.to_path_buf(), true),
            None => (PathBuf::from("runner.toml"), false),
        };
        let (text, not_yours) = match privileged::read(&file_path, found) {
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => {
                (String::new(), None)
            }
            Err(e) => {
                return Err(e).with_context(|| {
                    format!("cannot read the runner file {}", file_path.display())
                })
            }
        };
        let base = file_path.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut file = RunnerFile::parse(&text).map_err(|e| e.located(&file_path, &text))?;
        // Taken out before the settings are resolved: what is not the user's to set is not
        // checked either.
        let ignored = match not_yours {
            Some(why) => privileged::withhold(&mut file, why, &file_path, &text),
            None => Vec::new(),
        };
        let mut config = file
            .resolve(&file_path, &base, overrides, &problem_exists)
            .map_err(|e| e.located(&file_path, &text))?;
        config.ignored = ignored;
        Ok(config)
    }
}

impl RunnerFile {
    /// The file read in two steps: its tables with every key's place, whose keys are checked
    /// here (so an unknown one is named with the closest known one), then the settings.
    fn parse(text: &str) -> Result<RunnerFile, SpannedError> {
        let document = DeTable::parse(text).map_err(|e| SpannedError::syntax(e, text))?;
        let (top, table) = (fields_of::<RunnerFile>(), fields_of::<ProblemTable>());
        if let Some(first) = first_unknown_key(document.get_ref(), top, table) {
            return Err(first);
        }
        RunnerFile::deserialize(toml::de::Deserializer::from(document))
            .map_err(|e| SpannedError::wrong_type(e, text))
    }

    fn resolve(
        self,
        path: &Path,
        base: &Path,
        overrides: &Overrides,
        problem_exists: &impl Fn(&str, &Path) -> bool,
    ) -> Result<Config, SpannedError> {
        let fixtures = overrides
            .fixtures
            .clone()
            .unwrap_or_else(|| base.join(self.fixtures.as_deref().unwrap_or("fixtures")));
        let top = ProblemTable {
            time_limit_ms: self.time_limit_ms,
            wall_time_limit_ms: self.wall_time_limit_ms,
            memory_limit_mb: self.memory_limit_mb,
            output_limit_mb: self.output_limit_mb,
            checker: self.checker,
            interactor: self.interactor,
            judge_time_limit_ms: self.judge_time_limit_ms,
        };
        let defaults = top.apply(Settings::default(), None, base, overrides)?;
        let mut per_problem = BTreeMap::new();
        let mut tables: BTreeMap<Spanned<String>, ProblemTable> = self.problems;
        // A built-in problem with its own checker or interactor uses it unless its table (or a
        // flag) names another: the top level's checker is a default for the others.
        for problem in grundy_problems::ALL {
            if problem.check.is_some() || problem.interact.is_some() {
                let id = Spanned::new(0..0, problem.id.to_string());
                tables.entry(id).or_default();
            }
        }
        for (id, table) in tables {
            if !problem_exists(id.get_ref(), &fixtures) {
                let reason = Invalid::UnknownProblem(id.get_ref().clone());
                return Err(SpannedError::new(&id, reason));
            }
            let built_in = grundy_problems::find(id.get_ref());
            let settings = table.apply(defaults.clone(), built_in, base, overrides)?;
            per_problem.insert(id.into_inner(), settings);
        }
        if let Some(jobs) = &self.jobs {
            if *jobs.get_ref() > MAX_JOBS {
                return Err(SpannedError::new(jobs, Invalid::TooManyJobs));
            }
        }
        let jobs = overrides
            .jobs
            .or(self.jobs.map(Spanned::into_inner))
            .unwrap_or(0);
        Ok(Config {
            fixtures,
            jobs: worker_count(Some(jobs)),
            isolate: match (overrides.isolate, self.isolate) {
                (Some(flag), _) => flag,
                (None, None) => Isolate::default(),
                (None, Some(setting)) => match setting.get_ref() {
                    toml::Value::Boolean(processes) => Isolate {
                        processes: *processes,
                        ..Isolate::default()
                    },
                    toml::Value::String(word) if word == "strict" || word == "off" => {
                        Isolate::from_flag(word)
                    }
                    other => {
                        let reason = Invalid::Isolate(other.clone());
                        return Err(SpannedError::new(&setting, reason));
                    }
                },
            },
            box_uids: BoxUids::resolve(
                overrides.box_uids,
                self.first_box_uid,
                self.box_uids,
                path,
            )?,
            ignored: Vec::new(),
            defaults,
            per_problem,
        })
    }
}

impl ProblemTable {
    /// This level of settings (the top level, or a problem's table) laid over `settings`, then
    /// the problem's built-in checker or interactor where this level names none, then the
    /// command-line flags. Paths in commands are relative to `base`, runner.toml's folder.
    fn apply(
        self,
        mut settings: Settings,
        built_in: Option<&'static grundy_problems::Problem>,
        base: &Path,
        overrides: &Overrides,
    ) -> Result<Settings, SpannedError> {
        let limits = &mut settings.limits;
        if let Some(ms) = self.time_limit_ms {
            let ms = within(&ms, "time_limit_ms", bounds::MILLISECONDS)?;
            limits.time = Duration::from_millis(ms);
        }
        if let Some(ms) = self.wall_time_limit_ms {
            let ms = within(&ms, "wall_time_limit_ms", bounds::MILLISECONDS)?;
            limits.wall = Some(Duration::from_millis(ms));
        }
        if let Some(mb) = self.memory_limit_mb {
            limits.memory_mib = within(&mb, "memory_limit_mb", bounds::mebibytes())?;
        }
        if let Some(mb) = self.output_limit_mb {
            limits.output_mib = within(&mb, "output_limit_mb", bounds::mebibytes())?;
        }
        if let Some(ms) = self.judge_time_limit_ms {
            let ms = within(&ms, "judge_time_limit_ms", bounds::MILLISECONDS)?;
            limits.judge_time = Duration::from_millis(ms);
        }
        match (self.checker, built_in.and_then(|p| Some((p.id, p.check?)))) {
            (Some(name), _) => {
                settings.checker = Checker::parse(name.get_ref(), base)
                    .map_err(|e| SpannedError::new(&name, e.into()))?;
            }
            (None, Some((problem, check))) => {
                settings.checker = Checker::BuiltIn(BuiltInChecker { problem, check });
            }
            (None, None) => {}
        }
        match (
            self.interactor,
            built_in.and_then(|p| Some((p.id, p.interact?))),
        ) {
            (Some(name), _) => {
                settings.interactor = Some(
                    Interactor::parse(name.get_ref(), base)
                        .map_err(|e| SpannedError::new(&name, e.into()))?,
                );
            }
            (None, Some((problem, interaction))) => {
                settings.interactor = Some(Interactor::BuiltIn {
                    problem,
                    interaction,
                });
            }
            (None, None) => {}
        }
        let limits = &mut settings.limits;
        if let Some(time) = overrides.time_limit {
            limits.time = time;
        }
        if let Some(wall) = overrides.wall_time_limit {
            limits.wall = Some(wall);
        }
        if let Some(mb) = overrides.memory_limit_mb {
            limits.memory_mib = mb;
        }
        if let Some(mb) = overrides.output_limit_mb {
            limits.output_mib = mb;
        }
        if let Some(checker) = &overrides.checker {
            settings.checker = checker.clone();
        }
        if let Some(interactor) = &overrides.interactor {
            settings.interactor = Some(interactor.clone());
        }
        settings.env.clone_from(&overrides.env);
        Ok(settings)
    }
}

/// `value` if it is within `bound`, else an error naming `key` and the range.
fn within(value: &Spanned<u64>, key: &'static str, bound: Whole) -> Result<u64, SpannedError> {
    let v = *value.get_ref();
    match (bound.min..=bound.max).contains(&v) {
        true => Ok(v),
        false => Err(SpannedError::new(
            value,
            Invalid::OutOfRange {
                key,
                bound,
                value: v,
            },
        )),
    }
}

/// The worker threads a `jobs` setting or `-j` flag asks for: a count, or one per core for 0 or
/// nothing given.
pub fn worker_count(jobs: Option<usize>) -> usize {
    match jobs {
        None | Some(0) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        Some(n) => n,
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
