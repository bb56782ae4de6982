//! What every command starts from: its settings located and loaded (runner.toml or `--config`,
//! the package or problem folder it runs in, the command-line overrides), the cases' filters
//! of a command that reads cases, the one check of this machine's containment before
//! programs are judged, the one handler of Ctrl-C ([`interrupts`]), and the reporters of a
//! command that reports in no more than a format, a JUnit file and (`mutants`) a page ([`dispatcher`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use anyhow::Result;

pub(crate) use crate::builtin::problem as built_in;
use crate::cli::{HtmlArgs, ReportArgs, Sources};
use crate::config::{Config, Overrides};
use crate::files::store::Recovered;
use crate::locate::Place;
use crate::package::find::Skipped;
use crate::reporting::{
    self, notes, Destination, Dispatcher, Format, ReportOptions, Stages, Verbosity,
};

/// The reporters of a run reported as `format` (and into `junit` and `html`, where the command
/// has them), behind its dispatcher, and
/// the bars of its stages, drawn beside the human report only; `cancel` the Ctrl-C token. For
/// the commands whose report has no levels, slow cases or time limits (`generate`,
/// `timelimit`, `stress`); the dispatcher's pool does not fail fast.
pub fn dispatcher(
    format: Format,
    junit: Option<Destination>,
    html: Option<Destination>,
    color: bool,
    cancel: Arc<AtomicBool>,
) -> (Dispatcher, Stages) {
    let reporter = reporting::reporter(ReportOptions {
        format,
        color,
        verbosity: Verbosity::Normal,
        junit,
        html,
        slowest: None,
    });
    let stages = Stages::new(format == Format::Human, color);
    let dispatch = Dispatcher::new(reporter, stages.clone(), cancel, false);
    (dispatch, stages)
}

/// The level `-q` and `-v` ask for.
pub fn verbosity(quiet: bool, verbose: bool) -> Verbosity {
    match (quiet, verbose) {
        (true, _) => Verbosity::Quiet,
        (_, true) => Verbosity::Verbose,
        _ => Verbosity::Normal,
    }
}

/// `verify`'s reporters, and those of `report merge`, which reports what `verify` would have:
/// the format and JUnit file `reports` asks for, at `verbosity`.
pub fn verify_reporter(
    reports: &ReportArgs,
    html: &HtmlArgs,
    color: bool,
    verbosity: Verbosity,
) -> Box<dyn reporting::Reporter> {
    reporting::reporter(ReportOptions {
        format: reports.format,
        color,
        verbosity,
        junit: reports.junit(),
        html: reports.html(html),
        slowest: None,
    })
}

/// Before programs are judged: says once what this machine's containment lacks, refuses to go
/// on where the host's files cannot be kept from programs (unless `--isolate off`), and under
/// `--isolate strict` where it lacks anything.
pub fn containment_check(isolate: crate::config::Isolate) -> Result<()> {
    let guarantees = grundy_sandbox::guarantees();
    let missing = guarantees.missing();
    if missing.is_empty() {
        return Ok(());
    }
    if !guarantees.private_files && !isolate.off {
        anyhow::bail!(
            "this machine cannot keep judged programs away from your files: it allows no \
             namespaces and has no Landlock, so a program could read the expected outputs or \
             rewrite them; pass `--isolate off` (or `isolate = \"off\"` in your own \
             runner.toml) to judge anyway if you trust the programs, or run where namespaces or \
             Landlock are allowed (README, \"Containment\")"
        );
    }
    if isolate.strict {
        anyhow::bail!(
            "--isolate strict: this machine cannot contain judged programs fully; it lacks {} \
             (README, \"Containment\", says what each mode gives)",
            missing.join("; ")
        );
    }
    // Said once, however many stages of the command check.
    static NOTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !NOTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
        notes::note(format_args!(
            "judged programs here are contained without {} (README, \"Containment\"); \
             `--isolate strict` refuses to judge like this",
            missing.join("; ")
        ));
    }
    Ok(())
}

/// Notes the folders of a contest passed over, holding no `problem.yaml`.
pub fn note_skipped(skipped: &[Skipped]) {
    for skipped in skipped {
        notes::note(crate::escape::visible_line(&skipped.to_string()));
    }
}

/// What the fixture store's recovery of a killed writer's write did: a note, or a warning where a
/// case may lack a file.
pub fn tell_recovered(recovered: &Recovered) {
    match recovered.is_warning() {
        true => notes::warning(recovered),
        false => notes::note(recovered),
    }
}

/// The token Ctrl-C sets, for a judging command: the one handler of the process, set up on the
/// first call. Ctrl-C sets the token (the pool starts nothing more and drops what it cuts
/// short, and the dispatcher ends the run cancelled) and ends every running program at once,
/// so the command can still write its reports, marked cancelled, and exit 130; a second Ctrl-C
/// exits at once. The other commands never call it, and Ctrl-C ends them as it ends any
/// program.
pub fn interrupts() -> Arc<AtomicBool> {
    static TOKEN: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    let token = TOKEN.get_or_init(|| {
        let token = Arc::new(AtomicBool::new(false));
        let set = Arc::clone(&token);
        let handled = ctrlc::set_handler(move || {
            if set.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            grundy_sandbox::kill_all_running();
        });
        if let Err(error) = handled {
            notes::warning(format_args!(
                "Ctrl-C cannot be caught ({error}): it ends grundy at once"
            ));
        }
        token
    });
    Arc::clone(token)
}

/// runner.toml (or `--config`) merged with the command-line overrides. A `[problems.<id>]` table
/// may name a built-in problem or any folder of the fixtures root. Loading runs and builds
/// nothing; the Kattis packages of the fixtures root bring their own limits and output validator
/// where a command asks for them ([`crate::root_packages::RootPackages`]).
pub fn load_config(sources: &Sources, overrides: Overrides) -> Result<Config> {
    Ok(located_config(sources, overrides)?.0)
}

/// What the cases of each of `problems` are judged under, by the rule every command follows
/// ([`crate::model::judged_under`]): `config`'s settings for it (runner.toml's, the flags
/// `overrides` over them) with what the problem says laid over them.
pub fn judged_settings(
    config: &Config,
    problems: &[crate::model::Problem],
    overrides: &Overrides,
) -> Vec<crate::config::Settings> {
    let of = |problem: &crate::model::Problem| {
        let base = config.settings(&problem.name);
        crate::model::judged_under(problem, base, overrides, None)
    };
    problems.iter().map(of).collect()
}

/// [`load_config`] with where it was found ([`Place`]): the settings file is the nearest
/// runner.toml at or above the current folder (unless `--config`); inside a package (and
/// without `--fixtures`) the fixtures root is that package. The box uids are put in force, and
/// the keys of a file that is not the user's own that were ignored are warned of, once.
fn located_config(sources: &Sources, overrides: Overrides) -> Result<(Config, Place)> {
    let place = Place::find(sources.config.as_deref())?;
    loaded_config(place, sources, overrides)
}

/// [`located_config`] at `place`.
fn loaded_config(
    place: Place,
    sources: &Sources,
    mut overrides: Overrides,
) -> Result<(Config, Place)> {
    overrides.fixtures = sources.fixtures.clone();
    overrides.box_uids = crate::config::box_uids_from_environment()?;
    let found = place.runner_found();
    let mut config = Config::load(place.runner.as_deref(), found, &overrides, |id, root| {
        grundy_problems::find(id).is_some() || root.join(id).is_dir()
    })?;
    if let (None, Some(package)) = (&sources.fixtures, &place.package) {
        config.fixtures = package.clone();
    }
    let uids = &config.box_uids;
    grundy_sandbox::set_uid_range(uids.first, uids.count, &uids.hint());
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        for ignored in &config.ignored {
            notes::warning(ignored);
        }
    });
    Ok((config, place))
}

/// The settings of a command that reads cases (`check`, `list`, `validate`), and its filters:
/// those given, else, run inside a problem's folder of the fixtures root, that problem. Where
/// there are neither settings, nor a package, nor a `fixtures/` folder, and nothing but
/// built-in problems is named, the built-in problems' fixtures and settings this binary ships
/// ([`crate::shipped`]), said on stderr; naming anything else there is an error that says what
/// was looked for, and where.
pub fn case_config(
    sources: &Sources,
    overrides: Overrides,
    filters: &[String],
) -> Result<(Config, Vec<String>)> {
    let mut place = Place::find(sources.config.as_deref())?;
    let shipped = sources.fixtures.is_none()
        && place.runner.is_none()
        && place.package.is_none()
        && !place.here.join("fixtures").is_dir()
        && filters.iter().all(|f| names_built_in(f));
    if shipped {
        let folder = crate::shipped::unpacked()?;
        notes::note(format_args!(
            "no runner.toml, package or fixtures/ here: the built-in problems, their fixtures \
             and settings come from this grundy binary (unpacked in {})",
            folder.display()
        ));
        place.runner = Some(folder.join(crate::locate::RUNNER_FILE));
    }
    let (mut config, place) = loaded_config(place, sources, overrides)?;
    let mut filters = filters.to_vec();
    let named = match (filters.as_slice(), &sources.fixtures) {
        ([only], None) => folder_named(only, &config.fixtures),
        _ => None,
    };
    let found_nothing = sources.fixtures.is_none()
        && place.runner.is_none()
        && place.package.is_none()
        && named.is_none()
        && !config.fixtures.is_dir();
    if found_nothing {
        // What was named is what is missing, not the current folder.
        if let Some(given) = filters.iter().find(|f| !Path::new(f).exists()) {
            return Err(super::missing::not_there(given).into());
        }
        return Err(place.nothing_here("problem or fixtures").into());
    }
    if let Some(named) = named {
        match named {
            Folder::Package(package) => {
                filters = vec![crate::package::find::name_of(&package)];
                config.fixtures = package;
            }
            Folder::Problem(name) => filters = vec![name],
            Folder::Packages(folder) => {
                filters.clear();
                config.fixtures = folder;
            }
        }
    }
    if filters.is_empty() {
        filters.extend(match (&sources.fixtures, &place.package) {
            (None, Some(package)) => Some(crate::package::find::name_of(package)),
            _ => crate::locate::problem_folder(&config.fixtures, &place.here),
        });
    }
    Ok((config, filters))
}

/// Whether filter `filter` names a built-in problem or cases of one (`s-nim`, `s-nim/edge/*`).
fn names_built_in(filter: &str) -> bool {
    let problem = filter.split('/').next().unwrap_or(filter);
    grundy_problems::find(problem).is_some()
}

/// What a folder given where a filter goes names.
enum Folder {
    /// A package (a folder with `problem.yaml`): it is the fixtures root, and the problem.
    Package(PathBuf),
    /// A problem's folder of the fixtures root.
    Problem(String),
    /// A folder of packages (a contest): it is the fixtures root.
    Packages(PathBuf),
}

/// The folder `filter` names, when it is a path to one (`.`, `../hello`, `contests/nwerc`)
/// rather than a problem of the fixtures root (which wins where both could be meant).
fn folder_named(filter: &str, fixtures: &Path) -> Option<Folder> {
    let path = Path::new(filter);
    let a_problem = !filter.contains('/')
        && !matches!(filter, "." | "..")
        && (fixtures.join(filter).is_dir() || grundy_problems::find(filter).is_some());
    if a_problem || !path.is_dir() {
        return None;
    }
    let folder = std::fs::canonicalize(path).ok()?;
    if folder.join(crate::locate::PACKAGE_FILE).is_file() {
        return Some(Folder::Package(folder));
    }
    if let Some(problem) = crate::locate::problem_folder(fixtures, &folder) {
        return Some(Folder::Problem(problem));
    }
    let holds_packages = crate::package::find::find(&folder).is_ok_and(|f| !f.packages.is_empty());
    holds_packages.then_some(Folder::Packages(folder))
}
