//! The command line: every subcommand and flag, as the README names them. Parsing only; the
//! commands live in `commands/`.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::bounds;
use crate::bounds::MAX_JOBS;
use crate::checking::{Checker, Interactor};
use crate::discovery::Partition;
use crate::generation::scale::Scale;
use crate::package::languages::Python3;
use crate::reporting::Format;

mod optional;
pub mod sg;

pub use optional::normalized;

#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    about = "Judge runner for competitive-programming problems: judges every fixture in parallel \
             and explains every failure",
    after_help = "Exit codes: 0 every judged case passed, 1 some case failed, 2 usage, \
                  configuration or fixture-layout error, 130 Ctrl-C, 141 stdout's reader went \
                  away (`| head`)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// When to color output (NO_COLOR in the environment means never, under auto).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Which interpreter builds and runs Python 3 programs [default: pypy3 where it is
    /// installed, as problemtools, DOMjudge and Kattis run Python 3; else cpython].
    #[arg(long, global = true, value_enum, value_name = "INTERPRETER")]
    pub python3: Option<Python3>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Judge cases: every case of every problem, or those the filters select.
    Check(Box<CheckArgs>),
    /// List problems with their case counts and settings.
    List(ListArgs),
    /// Run a built-in solver: input on stdin, output on stdout.
    Solve(SolveArgs),
    /// Add a fixture; the expected output comes from the built-in solver unless --expect.
    Add(AddArgs),
    /// Generate a fixture: a seeded random input, and its expected output from the brute force.
    Gen(GenArgs),
    /// Build a package's data/ from generators/generators.yaml (as BAPCtools' `bt generate`
    /// does): only what changed is made again.
    Generate(GenerateArgs),
    /// Compare the solver (or a program) with the brute force on random inputs; shrink a failure.
    Stress(StressArgs),
    /// Check every fixture input against its problem's constraints.
    Validate(ValidateArgs),
    /// Check one input against a checktestdata script, as `verify` runs a package's `.ctd`
    /// validators: exit 42 when it is valid, 43 when it is not (where and why on stderr), 2 when
    /// the script is at fault (it does not parse, or fails while running).
    Checktestdata(ChecktestdataArgs),
    /// Scaffold a new problem: a Kattis package any language fills (`--package`, and outside a
    /// grundy checkout), or a built-in problem in Rust (its folder under problems/, its
    /// registry line and a sample fixture).
    New(NewArgs),
    /// Sprague-Grundy values of a game family, with period detection.
    Sg(sg::SgArgs),
    /// Verify whole problems: Kattis problem packages (or, with no argument here, the built-in
    /// problems): their data, validators, and every submission against the verdict it must get.
    Verify(VerifyArgs),
    /// Time a package's accepted submissions (several runs, by CPU time), give the time limit
    /// the format's rules make of them and the margin to each time-limit-exceeded submission;
    /// with --write, set it in problem.yaml.
    Timelimit(TimeLimitArgs),
    /// Verify a package (or a contest's packages), then write the zip DOMjudge or Kattis
    /// imports: byte-identical for the same package; refused when verify fails, unless --force.
    Export(ExportArgs),
    /// How strong is a package's data? Mutate an accepted submission (one token at a time) and
    /// judge every mutant on the data: the mutation score, and the mutants no case kills.
    Mutants(MutantsArgs),
    /// Reports of earlier runs: `report merge` combines the shards of a partitioned verify.
    #[command(subcommand)]
    Report(ReportCommand),
    /// The language table: how each language's programs are built and run here, and which
    /// version of each tool does it (or which tool is missing).
    Languages,
}

/// What `report` does with reports of earlier runs.
#[derive(Subcommand, Debug)]
pub enum ReportCommand {
    /// Merge the JSON reports of a partitioned verify (`verify --partition I/N --format json`,
    /// one per bucket) into one report: the human summary, JSON lines, JUnit file and exit
    /// status one run on one machine gives.
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' reports: every bucket of one partition once (or one whole run).
    #[arg(value_name = "SHARD.json", required = true)]
    pub shards: Vec<PathBuf>,
    #[command(flatten)]
    pub reports: ReportArgs,
    #[command(flatten)]
    pub html: HtmlArgs,
    /// Name every case that caught each submission (the table names the first three).
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Print only the final lines.
    #[arg(short, long)]
    pub quiet: bool,
    /// Under each submission not judged as its package expects, print the evidence of its
    /// likely reason (as verify --explain).
    #[arg(long)]
    pub explain: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Where fixtures and settings come from; shared by every command that reads them.
#[derive(Args, Debug, Clone)]
pub struct Sources {
    /// Fixtures root (overrides `fixtures` in runner.toml).
    #[arg(long, value_name = "DIR")]
    pub fixtures: Option<PathBuf>,
    /// Runner settings file [default: ./runner.toml, all defaults when it is absent].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// PROBLEM or PROBLEM/CASE-GLOB (a glob may name a group folder, e.g. s-nim/large); or one
    /// folder: a package's (`.` inside it), a problem's of the fixtures root, or a contest's.
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,
    #[command(flatten)]
    pub sources: Sources,
    /// Worker threads (0 = one per core; at most 1024).
    #[arg(short = 'j', long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// Judge an external program (stdin = case input) instead of the built-in solver.
    #[arg(long, value_name = "'CMD ARGS'")]
    pub exec: Option<String>,
    /// Also judge the program on the cases beyond the original judge's limits (`extended/`
    /// groups), which a program is not judged on by default; built-in solvers judge them always.
    #[arg(long)]
    pub extended: bool,
    /// Run the built-in solvers as child processes (`grundy solve`) under the sandbox's limits;
    /// `--isolate strict` also refuses to judge unless this machine contains programs fully;
    /// `--isolate off` judges programs even where their files cannot be kept apart (no
    /// namespaces, no Landlock), trusting them.
    #[arg(long, value_name = "strict|off", num_args = 0..=1, default_missing_value = "processes",
          value_parser = ["processes", "strict", "off"])]
    pub isolate: Option<String>,
    /// Pass an environment variable to judged programs: NAME=VALUE, or NAME for grundy's own
    /// value (repeatable; they get only PATH, HOME and LANG otherwise).
    #[arg(long = "env", value_name = "NAME[=VALUE]", value_parser = env_var)]
    pub env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    /// CPU time limit per case, in milliseconds (at most a day): the CPU time of the
    /// program's processes together decides TLE.
    #[arg(short = 't', long, value_name = "MS", value_parser = milliseconds)]
    pub time_limit: Option<Duration>,
    /// Wall-clock limit per case, in milliseconds: stops a program that sleeps or blocks
    /// (default: twice the time limit plus one second; never below the time limit).
    #[arg(long, value_name = "MS", value_parser = milliseconds)]
    pub wall_time_limit: Option<Duration>,
    /// Memory limit per case for external programs, in MiB (at most this machine's memory).
    #[arg(long, value_name = "MB", value_parser = mebibytes)]
    pub memory_limit: Option<u64>,
    /// Output limit per case for external programs, in MiB (at most this machine's memory).
    #[arg(long, value_name = "MB", value_parser = mebibytes)]
    pub output_limit: Option<u64>,
    /// Checker: tokens, tokens-ci, lines, exact, float:ABS:REL, or a checker program:
    /// kattis:CMD or testlib:CMD.
    #[arg(long, value_name = "NAME")]
    pub checker: Option<Checker>,
    /// Interactor for an interactive problem: kattis:CMD or testlib:CMD.
    #[arg(long, value_name = "PROTOCOL:CMD")]
    pub interactor: Option<Interactor>,
    /// Write the built-in solver's output as the expected file where it is missing or not accepted.
    #[arg(long, conflicts_with = "exec")]
    pub bless: bool,
    #[command(flatten)]
    pub reports: ReportArgs,
    #[command(flatten)]
    pub html: HtmlArgs,
    /// Judge only bucket I of N: slice:I/N (round-robin) or hash:I/N (stable hash of the case id).
    #[arg(long, value_name = "slice:I/N|hash:I/N")]
    pub partition: Option<Partition>,
    /// Stop starting new cases after the first failure.
    #[arg(long)]
    pub fail_fast: bool,
    /// List the N slowest cases in the summary.
    #[arg(long, value_name = "N")]
    pub slowest: Option<usize>,
    /// Print every case with its time and peak memory (and skipped links).
    #[arg(short, long, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Print only the final lines: `Judged ...` and `N passed, M failed`.
    #[arg(short, long)]
    pub quiet: bool,
}

/// How a judging command reports: the format of stdout, and a JUnit file.
#[derive(Args, Debug)]
// The report files (`--junit`, and `--html` where a command has it): any of them together.
#[command(group(clap::ArgGroup::new("report_files").multiple(true)))]
pub struct ReportArgs {
    /// Output format: the human report, or JSON lines (one object per line).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Also write a JUnit XML report to FILE (a regular file is replaced whole; a device or
    /// FIFO is written into; /dev/stdout works), for CI test viewers.
    #[arg(long, value_name = "FILE", group = "report_files")]
    pub junit: Option<PathBuf>,
    /// Write a report through a symbolic link at its path (--junit, --html): refused otherwise.
    #[arg(long, requires = "report_files")]
    pub follow_report_links: bool,
}

/// `--html FILE`, of the commands whose runs a page shows (`check`, `verify`, `report merge`).
#[derive(Args, Debug)]
pub struct HtmlArgs {
    /// Also write the run as one self-contained HTML page to FILE (the matrix of verdicts, the
    /// cases catching each submission, the failures' details), replaced whole as --junit's is.
    #[arg(long, value_name = "FILE", group = "report_files")]
    pub html: Option<PathBuf>,
}

/// `mutants`' `--html FILE`.
#[derive(Args, Debug)]
pub struct MutantsHtml {
    /// Also write the run as one self-contained HTML page to FILE (the score, the survivors
    /// with their changes, the cases that kill the most and none, every mutant's fate), replaced
    /// whole as verify's --html is.
    #[arg(long = "html", value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Write the page through a symbolic link at its path: refused otherwise.
    #[arg(long, requires = "file")]
    pub follow_report_links: bool,
}

impl MutantsHtml {
    /// Where the page goes, if one is asked for.
    pub fn destination(&self) -> Option<crate::reporting::Destination> {
        crate::reporting::Destination::of(&self.file, self.follow_report_links)
    }
}

impl ReportArgs {
    /// Where the JUnit report goes, if one is asked for.
    pub fn junit(&self) -> Option<crate::reporting::Destination> {
        crate::reporting::Destination::of(&self.junit, self.follow_report_links)
    }

    /// Where the HTML report `html` asks for goes, if it asks for one.
    pub fn html(&self, html: &HtmlArgs) -> Option<crate::reporting::Destination> {
        crate::reporting::Destination::of(&html.html, self.follow_report_links)
    }
}

#[derive(Args, Debug)]
pub struct ListArgs {
    /// PROBLEM or PROBLEM/CASE-GLOB.
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,
    /// List the id of every selected case, one per line, instead of the problems.
    #[arg(long)]
    pub cases: bool,
    /// Output format: the table, or JSON lines (one object per problem, or per case).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    #[command(flatten)]
    pub sources: Sources,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// A package folder (holding problem.yaml), a contest folder of packages, or a submission
    /// of a package (its file or folder: that submission alone is judged) [default: the package
    /// holding the current folder, else the built-in problems and their planted submissions].
    #[arg(value_name = "PKG")]
    pub packages: Vec<PathBuf>,
    /// Where the built-in problems' fixtures and settings come from (without PKG).
    #[command(flatten)]
    pub sources: Sources,
    /// Worker threads (0 = one per core; at most 1024).
    #[arg(short = 'j', long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub reports: ReportArgs,
    #[command(flatten)]
    pub html: HtmlArgs,
    /// Name every case that caught each submission (the table names the first three).
    #[arg(short, long)]
    pub verbose: bool,
    /// Judge a submission only up to its first failing case, as verifyproblem and `bt run` do
    /// (faster; the report then names that case alone). Submissions with rules for some cases
    /// only are still judged on every case.
    #[arg(long)]
    pub first_failure: bool,
    /// Judge the submissions only: no input, answer or output validation (as
    /// `verifyproblem -p submissions` and `bt run` do). The validators are still built, since an
    /// output validator judges.
    #[arg(long)]
    pub submissions_only: bool,
    /// Under each submission not judged as its package expects, print the evidence of its
    /// likely reason: the case, the run's CPU and wall time and memory, the time limit and how
    /// it came about (the accepted run a computed one came from), the message, the tool.
    #[arg(long)]
    pub explain: bool,
    /// Also judge the built-in problems' planted submissions on the cases beyond the original
    /// judge's limits (`extended/` groups), which are validated but not judged by default.
    #[arg(long)]
    pub extended: bool,
    /// Verify the data as committed: do not generate it first from generators/generators.yaml.
    #[arg(long)]
    pub no_generate: bool,
    /// Judge only the submissions PATH names (a submission, or a folder holding some) or GLOB
    /// matches below `submissions/` (e.g. `accepted/*`); repeatable. A submission's path given
    /// as PKG does the same, in its package.
    #[arg(long = "submission", value_name = "PATH|GLOB")]
    pub submissions: Vec<String>,
    /// Judge only bucket I of N of the submissions (each a submission of a package, the
    /// packages in contest order): slice:I/N (round-robin) or hash:I/N (stable hash of
    /// `package/submission`), for a CI matrix.
    #[arg(long, value_name = "slice:I/N|hash:I/N")]
    pub partition: Option<Partition>,
    /// Count warnings (unknown keys in problem.yaml, and the like) as errors: a problem with
    /// one is not valid, and the run fails (exit 1).
    #[arg(short = 'e', long)]
    pub warnings_as_errors: bool,
    /// The CPU time limit per case, in milliseconds, instead of problem.yaml's (or the one
    /// computed from the accepted submissions).
    #[arg(short = 't', long, value_name = "MS", value_parser = milliseconds)]
    pub time_limit: Option<Duration>,
    /// Print only each problem's warnings, errors and closing line, and the summary.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// How much containment the programs need: `strict` refuses to run them unless this
    /// machine contains programs fully; `off` runs them even where their files cannot be kept
    /// apart (no namespaces, no Landlock), trusting them.
    #[arg(long, value_name = "strict|off", value_parser = ["strict", "off"])]
    pub isolate: Option<String>,
}

impl VerifyArgs {
    /// `grundy verify PACKAGE`, every flag as the command line leaves it when not given: made by
    /// clap from no arguments, so a flag added to `verify` needs nothing here (`export`
    /// verifies so).
    pub fn of(package: PathBuf) -> Self {
        use clap::FromArgMatches;
        let command = Self::augment_args(clap::Command::new("verify"));
        let absent = "verify's flags all have a value when absent";
        let matches = command.try_get_matches_from(["verify"]).expect(absent);
        let mut args = Self::from_arg_matches(&matches).expect(absent);
        args.packages = vec![package];
        args
    }
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// A package folder (holding problem.yaml and generators/generators.yaml), a contest folder
    /// of packages, or a built-in problem's id (its fixtures/<problem>/generators.yaml)
    /// [default: the current folder's packages, else every built-in problem with one].
    #[arg(value_name = "PKG|PROBLEM")]
    pub packages: Vec<PathBuf>,
    /// Make every case again, and replace files generate did not make.
    #[arg(long)]
    pub force: bool,
    /// Remove a package's data files no rule of generators.yaml describes; of a built-in
    /// problem's fixtures, only those an earlier generate made (never one written by hand).
    #[arg(long)]
    pub clean: bool,
    /// Worker threads (0 = one per core; at most 1024).
    #[arg(short = 'j', long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// How much containment the generators need, as for `verify`.
    #[arg(long, value_name = "strict|off", value_parser = ["strict", "off"])]
    pub isolate: Option<String>,
    /// Output format: the human report, or JSON lines (one object per line).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    #[command(flatten)]
    pub sources: Sources,
}

#[derive(Args, Debug)]
pub struct TimeLimitArgs {
    /// A package folder (holding problem.yaml), or a contest folder of packages [default: the
    /// current folder].
    #[arg(value_name = "PKG")]
    pub packages: Vec<PathBuf>,
    /// How many times each accepted submission runs on every case.
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    pub runs: u32,
    /// Set `limits.time_limit` in each problem.yaml to the computed limit, keeping the rest of
    /// the file as it is.
    #[arg(long)]
    pub write: bool,
    /// Worker threads (0 = one per core; at most 1024). Timing is by CPU time, so a busy
    /// machine does not change the figures much; fewer workers than cores change them least.
    #[arg(short = 'j', long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// How much containment the programs need, as for `verify`.
    #[arg(long, value_name = "strict|off", value_parser = ["strict", "off"])]
    pub isolate: Option<String>,
    /// Output format: the human report, or JSON lines (one object per line).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// A package folder (holding problem.yaml), or a contest folder of packages.
    #[arg(value_name = "PKG|CONTEST")]
    pub target: PathBuf,
    /// The system the zip is for.
    #[arg(long, value_enum, value_name = "domjudge|kattis")]
    pub to: crate::export::Target,
    /// The zip to write (a package), or the folder to write one `<package>.zip` per package
    /// into (a contest; made if missing).
    #[arg(short = 'o', long, value_name = "FILE.zip|DIR")]
    pub output: PathBuf,
    /// Export even when verify fails, and replace an existing zip.
    #[arg(long)]
    pub force: bool,
    /// Worker threads for verify (0 = one per core; at most 1024).
    #[arg(short = 'j', long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// How much containment the programs need, as for `verify`.
    #[arg(long, value_name = "strict|off", value_parser = ["strict", "off"])]
    pub isolate: Option<String>,
}

#[derive(Args, Debug)]
pub struct MutantsArgs {
    /// A package folder (holding problem.yaml), or a built-in problem's id (its planted
    /// submissions and fixtures, in this project) [default: the package holding the current
    /// folder].
    #[arg(value_name = "PKG|PROBLEM")]
    pub package: Option<PathBuf>,
    #[command(flatten)]
    pub sources: Sources,
    /// The accepted submission to mutate, by its path or a glob below `submissions/` (e.g.
    /// `accepted/sol.cpp`) [default: the first accepted one by name].
    #[arg(long, value_name = "PATH|GLOB")]
    pub submission: Option<String>,
    /// Judge at most N of the mutants, picked by --seed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max: Option<u64>,
    #[command(flatten)]
    pub html: MutantsHtml,
    /// The seed --max picks its mutants with, and the search its generators' seeds: the same
    /// seed picks the same ones.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// How many inputs the search tries for each survivor before calling it likely
    /// equivalent.
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub budget: u64,
    /// The command the search takes its inputs from, with `{seed}` among its arguments (a
    /// program in generators/, e.g. 'gen.py {seed} 10') [default: each `generate:` command of
    /// generators.yaml that takes `{seed}`].
    #[arg(long, value_name = "CMD", alias = "generate")]
    pub generator: Option<String>,
    /// Write each input the search finds as a new case, data/secret/mutant-<n>.in with the
    /// accepted submission's answer (a built-in problem's: the fixture mutants/mutant-<n>),
    /// never over a file already there.
    #[arg(long)]
    pub add: bool,
    /// Worker threads (0 = one per core; at most 1024).
    #[arg(short = 'j', long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// How much containment the programs need, as for `verify`.
    #[arg(long, value_name = "strict|off", value_parser = ["strict", "off"])]
    pub isolate: Option<String>,
    /// Output format: the human report, or JSON lines (one object per line).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct ChecktestdataArgs {
    /// The checktestdata script (at most 1 MiB).
    #[arg(value_name = "SCRIPT")]
    pub script: PathBuf,
    /// The input to check [default: standard input].
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,
    /// The most the script's values may hold, in MiB (`verify` gives half the package's
    /// validation memory limit).
    #[arg(long, value_name = "MIB",
          default_value_t = crate::checktestdata::DEFAULT_HELD_BYTES >> 20,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub memory: u64,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Problem id, e.g. s-nim.
    pub problem: String,
    /// Use the brute force (derived from the game rules) instead of the fast solver.
    #[arg(long)]
    pub brute: bool,
    /// For an interactive problem: print the answer file for the input on stdin (as the fast
    /// solver computes it) instead of playing the judge.
    #[arg(long, conflicts_with = "brute")]
    pub answer: bool,
}

#[derive(Args, Debug)]
pub struct AddArgs {
    /// Problem id, e.g. s-nim.
    pub problem: String,
    /// Case path below the problem folder, without extension, e.g. large/max-heaps.
    pub case: String,
    /// Read the input from FILE instead of stdin.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Take the expected output from FILE instead of the built-in solver.
    #[arg(long, value_name = "FILE", conflicts_with = "brute")]
    pub expect: Option<PathBuf>,
    /// Take the expected output from the brute force (derived from the game rules alone).
    #[arg(long)]
    pub brute: bool,
    #[command(flatten)]
    pub sources: Sources,
}

#[derive(Args, Debug)]
pub struct GenArgs {
    /// Problem id, e.g. s-nim.
    pub problem: String,
    /// Case path below the problem folder, without extension, e.g. random/medium-3.
    pub case: String,
    /// Seed of the generator: the same seed gives the same input on every machine [default: a
    /// random seed, recorded in the case's `.gen` file].
    #[arg(long)]
    pub seed: Option<u64>,
    /// How large: small, medium, max (the problem's limits) or a number bounding every count and
    /// value (`--size` is the same flag).
    #[arg(long, alias = "size", default_value = "medium")]
    pub scale: Scale,
    #[command(flatten)]
    pub sources: Sources,
}

#[derive(Args, Debug)]
pub struct StressArgs {
    /// A built-in problem's id (e.g. s-nim), or a package folder (holding problem.yaml)
    /// [default: the package holding the current folder].
    #[arg(value_name = "PROBLEM|PKG")]
    pub problem: Option<String>,
    /// A package's generator command, its program in generators/ and `{seed}` among its
    /// arguments, e.g. 'gen.py {seed} 10' [default: each `generate:` command of
    /// generators.yaml that takes `{seed}`, in turn].
    #[arg(long, value_name = "'GEN ARGS'")]
    pub generator: Option<String>,
    /// How many random inputs to try.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub cases: u64,
    /// Seed of the run; case i's input comes from a seed derived from it and i [default: random,
    /// printed].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Scale of every input: small, medium, max or a number [default: from 1 up to medium, small
    /// inputs first] (`--size` is the same flag).
    #[arg(long, alias = "size", value_name = "SCALE")]
    pub scale: Option<Scale>,
    /// Stress an external program (stdin = input) instead of the built-in solver, under the
    /// limits `check --exec` uses.
    #[arg(long, value_name = "'CMD ARGS'")]
    pub exec: Option<String>,
    /// Pass an environment variable to the program: NAME=VALUE, or NAME for grundy's own value.
    #[arg(long = "env", value_name = "NAME[=VALUE]", value_parser = env_var)]
    pub env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    /// Write the shrunk counterexample as a fixture under `<fixtures>/<problem>/stress/`, with
    /// the brute force's output as the expected file; for a package, as
    /// `data/secret/stress-<seed>.in` and `.ans` (the reference solution's answer), never
    /// replacing a file.
    #[arg(long)]
    pub save: bool,
    /// Worker threads (0 = one per core; at most 1024).
    #[arg(short = 'j', long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// CPU time limit per run of the program under test, in milliseconds (at most a day).
    #[arg(short = 't', long, value_name = "MS", value_parser = milliseconds)]
    pub time_limit: Option<Duration>,
    /// Wall-clock limit per run, in milliseconds: stops a program that sleeps or blocks
    /// (default: twice the time limit plus one second).
    #[arg(long, value_name = "MS", value_parser = milliseconds)]
    pub wall_time_limit: Option<Duration>,
    /// How much containment the program needs: `strict` refuses to run it unless this machine
    /// contains programs fully; `off` runs it even where its files cannot be kept apart.
    #[arg(long, value_name = "strict|off", value_parser = ["strict", "off"])]
    pub isolate: Option<String>,
    #[command(flatten)]
    pub reports: ReportArgs,
    #[command(flatten)]
    pub sources: Sources,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// PROBLEM or PROBLEM/CASE-GLOB.
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,
    #[command(flatten)]
    pub sources: Sources,
    #[command(flatten)]
    pub reports: ReportArgs,
    /// Also list every valid input.
    #[arg(short, long)]
    pub verbose: bool,
}

#[derive(Args, Debug)]
pub struct NewArgs {
    /// The new problem's id, lowercase kebab-case, e.g. `take-away` (a package's name may
    /// hold `_` too).
    pub problem: String,
    /// The project root (the folder holding problems/lib.rs) [default: the current folder or
    /// the nearest parent that has one].
    #[arg(long, value_name = "DIR", conflicts_with = "package")]
    pub root: Option<PathBuf>,
    /// Scaffold a Kattis problem package in the folder NAME instead (no Rust, no rebuild: every
    /// command works on it at once); the default outside a grundy checkout.
    #[arg(long)]
    pub package: bool,
    /// The language of the package's programs (validator, generator, submissions).
    #[arg(long, value_enum, default_value_t = Lang::default())]
    pub lang: Lang,
    /// The package format version to write (implies --package) [default: 2025-09].
    #[arg(long, value_enum, value_name = "VERSION", conflicts_with = "root")]
    pub format: Option<PackageFormat>,
}

/// The versions of the Kattis package format `new --package --format` writes; what each writes
/// is `commands::new::package`'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum PackageFormat {
    /// The legacy format (problemtools reads it; BAPCtools no longer does).
    Legacy,
    /// 2023-07 (problemtools reads it as `2023-07-draft`; BAPCtools does not).
    #[value(name = "2023-07")]
    V2023_07,
    /// 2025-09, the current one (BAPCtools reads it; problemtools does not yet).
    #[default]
    #[value(name = "2025-09")]
    V2025_09,
}

/// The languages a package can be scaffolded in (`new --package --lang`); what each writes is
/// `commands::new::package`'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    /// Python 3: nothing to compile, so nothing to install beyond `python3`.
    #[default]
    Python,
    /// C++ (built with the language table's compiler, g++ or clang++).
    Cpp,
}

/// `--env NAME=VALUE`, or `NAME` for the value in grundy's own environment.
fn env_var(text: &str) -> Result<(std::ffi::OsString, std::ffi::OsString), ValueError> {
    let (name, value) = match text.split_once('=') {
        Some((name, value)) => (name, value.into()),
        None => (
            text,
            std::env::var_os(text).ok_or_else(|| ValueError::NotSet(text.to_string()))?,
        ),
    };
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Err(ValueError::NotAVariable(name.to_string()));
    }
    Ok((name.into(), value))
}

/// `-j N`: 0 (one per core) up to [`MAX_JOBS`].
fn jobs(text: &str) -> Result<usize, ValueError> {
    match text.parse::<usize>() {
        Ok(n) if n <= MAX_JOBS => Ok(n),
        _ => Err(ValueError::Jobs(text.to_string())),
    }
}

/// `--time-limit MS` and `--wall-time-limit MS`: a whole number of milliseconds within
/// [`bounds::MILLISECONDS`], as a time.
fn milliseconds(text: &str) -> Result<Duration, ValueError> {
    let bound = bounds::MILLISECONDS;
    text.parse::<i64>()
        .ok()
        .and_then(|n| bound.admits(n))
        .map(Duration::from_millis)
        .ok_or_else(|| ValueError::OutOfRange(text.to_string(), bound))
}

/// `--memory-limit MB` and `--output-limit MB`: within [`bounds::mebibytes`].
fn mebibytes(text: &str) -> Result<u64, ValueError> {
    let bound = bounds::mebibytes();
    text.parse::<i64>()
        .ok()
        .and_then(|n| bound.admits(n))
        .ok_or_else(|| ValueError::OutOfRange(text.to_string(), bound))
}

/// A flag's value that grundy's own parsers reject (clap shows it after the flag's name).
#[derive(Debug, thiserror::Error)]
pub enum ValueError {
    /// `--env NAME` for a variable grundy's environment does not have.
    #[error("`{0}` is not set here; give it as {0}=VALUE")]
    NotSet(String),
    #[error("`{0}` is not a variable name (letters, digits and _)")]
    NotAVariable(String),
    #[error("`{0}` is not a number of jobs from 0 (one per core) to {MAX_JOBS}")]
    Jobs(String),
    #[error("`{0}` is not {1}")]
    OutOfRange(String, bounds::Whole),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_of_a_package_is_what_the_command_line_makes_of_it_alone() {
        let Command::Verify(parsed) = Cli::parse_from(["grundy", "verify", "pkg"]).command else {
            panic!("verify parses as verify");
        };
        let made = VerifyArgs::of("pkg".into());
        assert_eq!(format!("{made:?}"), format!("{parsed:?}"));
    }
}
