//! `grundy new PROBLEM-ID [--root DIR]`: scaffolds a problem that builds, passes its tests and
//! passes `check` straight away: `problems/<module>/` from the templates in `template/` (a small
//! subtraction game to replace file by file), its `mod` and registry lines in `problems/lib.rs`,
//! and a sample fixture. It refuses to touch a problem that exists in any of those places.
//!
//! Not for generating fixtures (`gen`) or running anything: it only writes source files.

mod package;
mod registry;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::cli::NewArgs;
use crate::commands::error::CommandError;
use crate::config::{Config, Overrides};
use crate::discovery::is_kebab_case;
use crate::files::store::Writer;
use crate::files::{write_atomic, Existing};
use crate::reporting::Ended;

/// The files of a new problem folder, with `{{id}}`, `{{module}}` and `{{title}}` to fill in.
const TEMPLATES: [(&str, &str); 7] = [
    ("mod.rs", include_str!("template/mod.rs.tmpl")),
    ("solver.rs", include_str!("template/solver.rs.tmpl")),
    ("brute.rs", include_str!("template/brute.rs.tmpl")),
    ("generator.rs", include_str!("template/generator.rs.tmpl")),
    ("validator.rs", include_str!("template/validator.rs.tmpl")),
    ("shrink.rs", include_str!("template/shrink.rs.tmpl")),
    ("statement.md", include_str!("template/statement.md.tmpl")),
];

/// The sample of the template's statement, and its answers by hand (4 divides 4 only).
const SAMPLE_INPUT: &str = "1\n4\n7\n";
const SAMPLE_OUTPUT: &str = "First\nSecond\nFirst\n";

pub fn run(args: NewArgs) -> Result<Ended, CommandError> {
    // A format is a package's: it asks for one as `--package` does.
    let root = match args.package || args.format.is_some() {
        true => None,
        false => match find_root(args.root.as_deref()) {
            Ok(root) => Some(root),
            // Outside a checkout a problem cannot be built in: it is a package.
            Err(RootError::NoCheckout(_)) => None,
            Err(error) => return Err(error.into()),
        },
    };
    let Some(root) = root else {
        let here = std::env::current_dir().context("cannot tell the current folder")?;
        let format = args.format.unwrap_or_default();
        let folder = package::scaffold(&here, &args.problem, args.lang, format)?;
        let shown = folder.strip_prefix(&here).unwrap_or(&folder);
        crate::reporting::print(&package::next_steps(shown, args.lang, format))?;
        return Ok(Ended::Passed);
    };
    let names = Names::new(&args.problem)?;
    let lib_path = root.join("problems").join("lib.rs");
    let lib = std::fs::read_to_string(&lib_path)
        .with_context(|| format!("cannot read `{}`", lib_path.display()))?;
    let registered = registry::register(&lib, &names.module)
        .map_err(|reason| anyhow::anyhow!("{}: {reason}", lib_path.display()))?;
    let folder = root.join("problems").join(&names.module);
    for taken in [folder.clone(), folder.with_extension("rs")] {
        if taken.exists() {
            return Err(anyhow::anyhow!(
                "`{}` exists already; pick another problem id",
                taken.display()
            )
            .into());
        }
    }
    let fixtures = fixtures_root(&root)?;
    let sample = fixtures.join(&names.id).join("sample-1");
    for extension in ["in", "out", "ans"] {
        let taken = sample.with_extension(extension);
        if taken.exists() {
            return Err(anyhow::anyhow!(
                "`{}` exists already; refusing to overwrite it",
                taken.display()
            )
            .into());
        }
    }

    std::fs::create_dir(&folder)
        .with_context(|| format!("cannot create `{}`", folder.display()))?;
    let written = write_problem(&folder, &names, &fixtures, &sample).and_then(|()| {
        write_atomic(&lib_path, registered.as_bytes(), Existing::Replace)
            .with_context(|| format!("cannot register the problem in `{}`", lib_path.display()))
    });
    if let Err(error) = written {
        // Leave nothing half-made behind: the folder is ours, created above.
        let _ = std::fs::remove_dir_all(&folder);
        let _ = std::fs::remove_file(sample.with_extension("in"));
        let _ = std::fs::remove_file(sample.with_extension("out"));
        return Err(error.into());
    }
    let files: Vec<&str> = TEMPLATES.iter().map(|(name, _)| *name).collect();
    crate::reporting::print(&format!(
        "created {}/ ({})\nregistered `{}` in {}\nwrote {}\nwrote {}\nnext: `cargo run -- check \
         {}` passes as it is; then replace the example game file by file (statement.md says what \
         it is), and `cargo run -- stress {}` compares your solver with your brute force\n\
         note: a built-in problem is compiled into grundy: an installed `grundy` knows `{}` only \
         once rebuilt (`cargo install --path {}`); a problem without Rust is a package (`grundy \
         new NAME --package`)\n",
        folder.display(),
        files.join(", "),
        names.id,
        lib_path.display(),
        sample.with_extension("in").display(),
        sample.with_extension("out").display(),
        names.id,
        names.id,
        names.id,
        match root.as_os_str().is_empty() {
            true => ".".to_string(),
            false => root.display().to_string(),
        },
    ))?;
    Ok(Ended::Passed)
}

/// The names a problem goes by: `take-away`, `take_away`, `Take Away`.
#[derive(Debug, PartialEq, Eq)]
struct Names {
    id: String,
    module: String,
    title: String,
}

/// Words that cannot name a module, and module names `problems/lib.rs` already uses.
const TAKEN_MODULES: &[&str] = &[
    "abstract",
    "as",
    "async",
    "await",
    "become",
    "box",
    "break",
    "const",
    "continue",
    "crate",
    "do",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "final",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "macro",
    "match",
    "mod",
    "move",
    "mut",
    "override",
    "priv",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "try",
    "type",
    "typeof",
    "unsafe",
    "unsized",
    "use",
    "virtual",
    "where",
    "while",
    "yield",
    "lib",
    "scanner",
    "sg",
    "support",
    "test_problems",
];

impl Names {
    fn new(id: &str) -> Result<Names> {
        if !is_kebab_case(id) {
            bail!("problem id `{id}` must be lowercase kebab-case, like `take-away`");
        }
        if !id.starts_with(|c: char| c.is_ascii_lowercase()) {
            bail!(
                "problem id `{id}` must start with a letter: its module `{}` would not be a Rust \
                 name",
                id.replace('-', "_")
            );
        }
        let module = id.replace('-', "_");
        if TAKEN_MODULES.contains(&module.as_str()) {
            bail!("problem id `{id}` cannot name a module (`{module}` is reserved); pick another");
        }
        if grundy_problems::find(id).is_some() {
            bail!("problem `{id}` exists already; pick another id");
        }
        Ok(Names {
            id: id.to_string(),
            module,
            title: package::title_of(id),
        })
    }

    fn fill(&self, template: &str) -> String {
        template
            .replace("{{id}}", &self.id)
            .replace("{{module}}", &self.module)
            .replace("{{title}}", &self.title)
    }
}

fn write_problem(folder: &Path, names: &Names, fixtures: &Path, sample: &Path) -> Result<()> {
    for (name, template) in TEMPLATES {
        write_atomic(
            &folder.join(name),
            names.fill(template).as_bytes(),
            Existing::Keep,
        )?;
    }
    // Like every write into a fixtures root: under its lock, both files or neither.
    let (input, output) = (sample.with_extension("in"), sample.with_extension("out"));
    Writer::open(fixtures)?.create(&[
        (&input, SAMPLE_INPUT.as_bytes()),
        (&output, SAMPLE_OUTPUT.as_bytes()),
    ])
}

/// `--root DIR`, or the current folder or the nearest one above it holding `problems/lib.rs`.
fn find_root(root: Option<&Path>) -> Result<PathBuf, RootError> {
    let is_checkout = |dir: &Path| dir.join("problems").join("lib.rs").is_file();
    if let Some(root) = root {
        if !is_checkout(root) {
            return Err(RootError::NotACheckout(root.to_path_buf()));
        }
        return Ok(root.to_path_buf());
    }
    let here = std::env::current_dir().map_err(RootError::Here)?;
    match here.ancestors().find(|dir| is_checkout(dir)) {
        // Relative paths read better in what `new` prints.
        Some(root) if root == here => Ok(PathBuf::new()),
        Some(root) => Ok(root.to_path_buf()),
        None => Err(RootError::NoCheckout(here)),
    }
}

/// Why there is no grundy checkout to make a built-in problem in.
#[derive(Debug, thiserror::Error)]
enum RootError {
    /// `--root DIR` names a folder without `problems/lib.rs`.
    #[error(
        "`{}` is not a grundy checkout: it has no `problems/lib.rs`",
        .0.display()
    )]
    NotACheckout(PathBuf),
    /// None around the current folder: without `--root`, `new` makes a package instead.
    #[error(
        "not in a grundy checkout: no `problems/lib.rs` in `{}` or any folder above it; run \
         `grundy new` from the project root, or pass --root DIR",
        .0.display()
    )]
    NoCheckout(PathBuf),
    #[error("cannot tell the current folder: {0}")]
    Here(#[source] std::io::Error),
}

/// The fixtures root `<root>/runner.toml` names (default `<root>/fixtures`).
fn fixtures_root(root: &Path) -> Result<PathBuf> {
    let runner = root.join("runner.toml");
    if !runner.is_file() {
        return Ok(root.join("fixtures"));
    }
    // Only its fixtures are read: what it may set beyond the project is never used here.
    let found = crate::locate::Found::Above;
    let config = Config::load(Some(&runner), found, &Overrides::default(), |_, _| true)?;
    Ok(config.fixtures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_id() {
        let names = Names::new("take-away-2").unwrap();
        assert_eq!(names.module, "take_away_2");
        assert_eq!(names.title, "Take Away 2");
        assert_eq!(
            names.fill("id: \"{{id}}\", mod {{module}}; # {{title}}"),
            "id: \"take-away-2\", mod take_away_2; # Take Away 2"
        );
        for bad in ["Take", "take_away", "2-nim", "type", "sg", "nim", "-x", ""] {
            assert!(Names::new(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn templates_fill_every_placeholder() {
        let names = Names::new("take-away").unwrap();
        for (name, template) in TEMPLATES {
            let filled = names.fill(template);
            assert!(!filled.contains("{{"), "{name}");
        }
        assert!(names.fill(TEMPLATES[0].1).contains("id: \"take-away\""));
    }

    #[test]
    fn the_root_must_hold_problems_lib_rs() {
        let dir = tempfile::tempdir().unwrap();
        let err = find_root(Some(dir.path())).unwrap_err().to_string();
        assert!(err.contains("not a grundy checkout"), "{err}");
        std::fs::create_dir(dir.path().join("problems")).unwrap();
        std::fs::write(dir.path().join("problems/lib.rs"), "").unwrap();
        assert_eq!(find_root(Some(dir.path())).unwrap(), dir.path());
        assert_eq!(
            fixtures_root(dir.path()).unwrap(),
            dir.path().join("fixtures")
        );
        std::fs::write(dir.path().join("runner.toml"), "fixtures = \"cases\"\n").unwrap();
        assert_eq!(fixtures_root(dir.path()).unwrap(), dir.path().join("cases"));
    }
}
