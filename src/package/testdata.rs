//! `data/`: the groups and cases of a package in judging order, each case with its files and
//! the settings it inherits.
//!
//! Order: `sample`, then `secret`; inside a group its cases and subgroups sorted together by name
//! (byte order), depth first. After them come the validation-only folders, which are never judged:
//! `invalid_input` (inputs every input validator must reject), `invalid_answer` (BAPCtools:
//! answers the answer validators must reject), `invalid_output` and `valid_output` (outputs the
//! output validator must reject or accept).
//!
//! A case is a `<name>.in`; its answer is `<name>.ans`. Beside them these are recognised and kept
//! (never errors): `.out`, `.interaction`, `.files/`, `.yaml` (case settings, new versions),
//! `.in.statement`, `.ans.statement`, `.in.download`, `.ans.download`, `.hint`, `.desc`, `.args`,
//! and illustrations `.png`, `.jpg`, `.jpeg`, `.svg`. Anything else, and hidden files, is ignored.
//!
//! Symbolic links are the format's way to share cases, so they are followed, but only while their
//! target stays inside the package; a link leaving it, or a folder link back into its own
//! ancestors (a loop), is an error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::metadata::FormatVersion;
use super::settings::Settings;
use super::yaml::Diagnostic;

/// What a case is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CaseKind {
    Sample,
    Secret,
    InvalidInput,
    InvalidAnswer,
    InvalidOutput,
    ValidOutput,
}

impl CaseKind {
    /// Whether submissions are judged on it (samples and secret cases).
    pub fn is_judged(self) -> bool {
        matches!(self, CaseKind::Sample | CaseKind::Secret)
    }
}

/// The top folders of `data/`, in the order they are read.
const TOP: &[(&str, CaseKind)] = &[
    ("sample", CaseKind::Sample),
    ("secret", CaseKind::Secret),
    ("invalid_input", CaseKind::InvalidInput),
    ("invalid_answer", CaseKind::InvalidAnswer),
    ("invalid_output", CaseKind::InvalidOutput),
    ("valid_output", CaseKind::ValidOutput),
];

/// Companion files kept with a case, by suffix after the case name.
const EXTRAS: &[&str] = &[
    ".in.statement",
    ".ans.statement",
    ".in.download",
    ".ans.download",
    ".hint",
    ".desc",
    ".args",
    ".png",
    ".jpg",
    ".jpeg",
    ".svg",
];

/// One case.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The path below `data/` without extension: `secret/group1/03-max`.
    pub id: String,
    pub kind: CaseKind,
    /// The id of the group holding it: `secret/group1`.
    pub group: String,
    pub input: PathBuf,
    /// `.ans`, the answer given to the output validator.
    pub answer: Option<PathBuf>,
    /// `.out`: a sample's shown output, or the output to validate in `*_output` folders.
    pub output: Option<PathBuf>,
    pub interaction: Option<PathBuf>,
    /// `.files/`: files the submission may read.
    pub files: Option<PathBuf>,
    /// The other recognised companion files present.
    pub extras: Vec<PathBuf>,
    pub settings: Settings,
}

/// One group (a folder of `data/`, `data` itself excluded).
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The path below `data/`: `sample`, `secret`, `secret/group1`.
    pub id: String,
    pub path: PathBuf,
    pub settings: Settings,
}

/// Everything in `data/`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TestData {
    pub groups: Vec<Group>,
    /// Judged cases first (sample, then secret), then the validation-only ones.
    pub cases: Vec<Case>,
}

impl TestData {
    /// The cases submissions are judged on, in judging order.
    pub fn judged(&self) -> impl Iterator<Item = &Case> {
        self.cases.iter().filter(|c| c.kind.is_judged())
    }

    /// The cases of one kind.
    pub fn of_kind(&self, kind: CaseKind) -> impl Iterator<Item = &Case> {
        self.cases.iter().filter(move |c| c.kind == kind)
    }
}

/// Reads `<package>/data`. `output_args` are arguments every output validator gets before the
/// groups' own (legacy `validator_flags`).
pub fn read(
    package: &Path,
    version: FormatVersion,
    output_args: &[String],
    warnings: &mut Vec<Diagnostic>,
) -> Result<TestData, Diagnostic> {
    let data = package.join("data");
    let mut walker = Walker {
        root: package
            .canonicalize()
            .map_err(|e| Diagnostic::file(package, format!("cannot read it: {e}")))?,
        version,
        warnings,
        out: TestData::default(),
        open: vec![],
    };
    if !data.is_dir() {
        walker.warnings.push(Diagnostic::file(
            &data,
            "there is no data folder: the package has no cases",
        ));
        return Ok(walker.out);
    }
    let mut root = Settings::root();
    root.output_validator_args = output_args.to_vec();
    let root = walker.settings_file(&data, &root)?;
    let entries = walker.entries(&data)?;
    for (name, entry) in &entries {
        match (TOP.iter().find(|(top, _)| top == name), entry) {
            (_, Entry::Case(_)) => walker.warnings.push(Diagnostic::file(&data.join(format!("{name}.in")), "inputs directly in data/ are not cases; put them in data/sample or data/secret")),
            (Some(_), Entry::Group(_)) => {}
            (None, Entry::Group(path)) => walker.warnings.push(Diagnostic::file(path, "not a folder the format knows in data/ (sample, secret, invalid_input, invalid_answer, invalid_output, valid_output); ignored")),
        }
    }
    for (name, kind) in TOP {
        if let Some(Entry::Group(path)) = entries.get(*name) {
            walker.group(path, name, *kind, &root)?;
        }
    }
    walker.out.cases.sort_by_key(|c| c.kind);
    Ok(walker.out)
}

enum Entry {
    /// A case, by its `.in` file.
    Case(PathBuf),
    Group(PathBuf),
}

struct Walker<'a> {
    root: PathBuf,
    version: FormatVersion,
    warnings: &'a mut Vec<Diagnostic>,
    out: TestData,
    /// Canonical paths of the folders being walked, to catch link loops.
    open: Vec<PathBuf>,
}

impl Walker<'_> {
    fn group(
        &mut self,
        path: &Path,
        id: &str,
        kind: CaseKind,
        parent: &Settings,
    ) -> Result<(), Diagnostic> {
        let canonical = self.inside(path)?;
        if self.open.contains(&canonical) {
            return Err(Diagnostic::file(
                path,
                "this link leads back into a folder that contains it (a loop)",
            ));
        }
        let mut start = parent.inherited(self.version);
        if kind == CaseKind::Sample && id == "sample" {
            start.full_feedback = true;
        }
        let settings = self.settings_file(path, &start)?;
        self.out.groups.push(Group {
            id: id.to_string(),
            path: path.to_path_buf(),
            settings: settings.clone(),
        });
        self.open.push(canonical);
        for (name, entry) in self.entries(path)? {
            let child = format!("{id}/{name}");
            match entry {
                Entry::Group(sub) => self.group(&sub, &child, kind, &settings)?,
                Entry::Case(input) => self.case(&input, child, id, kind, &settings)?,
            }
        }
        self.open.pop();
        Ok(())
    }

    fn case(
        &mut self,
        input: &Path,
        id: String,
        group: &str,
        kind: CaseKind,
        settings: &Settings,
    ) -> Result<(), Diagnostic> {
        let base = input.with_extension("");
        let sibling = |suffix: &str| {
            let mut name = base.as_os_str().to_owned();
            name.push(suffix);
            PathBuf::from(name)
        };
        let existing = |path: PathBuf| path.exists().then_some(path);
        for path in [
            input.to_path_buf(),
            sibling(".ans"),
            sibling(".out"),
            sibling(".yaml"),
            sibling(".files"),
        ] {
            if path.symlink_metadata().is_ok() {
                self.inside(&path)?;
            }
        }
        let answer = existing(sibling(".ans"));
        let output = existing(sibling(".out"));
        let missing = match kind {
            CaseKind::InvalidInput => None,
            CaseKind::InvalidOutput | CaseKind::ValidOutput if output.is_none() => Some(".out"),
            _ if answer.is_none() => Some(".ans"),
            _ => None,
        };
        if let Some(suffix) = missing {
            return Err(Diagnostic::file(
                input,
                format!(
                    "this case has no {suffix} file beside it ({})",
                    sibling(suffix).display()
                ),
            ));
        }
        let config = sibling(".yaml");
        let settings = if !self.version.is_legacy() && config.is_file() {
            settings.with_case_file(&config, self.version, self.warnings)?
        } else {
            settings.clone()
        };
        self.out.cases.push(Case {
            id,
            kind,
            group: group.to_string(),
            input: input.to_path_buf(),
            answer,
            output,
            interaction: existing(sibling(".interaction")),
            files: existing(sibling(".files")).filter(|p| p.is_dir()),
            extras: EXTRAS
                .iter()
                .filter_map(|suffix| existing(sibling(suffix)))
                .collect(),
            settings,
        });
        Ok(())
    }

    /// The folder's settings file laid over `inherited`, or `inherited` itself. New versions read
    /// `test_group.yaml`, and the older draft name `testdata.yaml` when that is all there is.
    fn settings_file(
        &mut self,
        folder: &Path,
        inherited: &Settings,
    ) -> Result<Settings, Diagnostic> {
        let names: &[&str] = if self.version.is_legacy() {
            &["testdata.yaml"]
        } else {
            &["test_group.yaml", "testdata.yaml"]
        };
        for name in names {
            let file = folder.join(name);
            if file.is_file() {
                self.inside(&file)?;
                if *name == "testdata.yaml" && !self.version.is_legacy() {
                    self.warnings.push(Diagnostic::file(
                        &file,
                        format!(
                            "format {} names this file test_group.yaml; read all the same",
                            self.version
                        ),
                    ));
                }
                return inherited.with_group_file(&file, self.version, self.warnings);
            }
        }
        Ok(inherited.clone())
    }

    /// The cases and subgroups of a folder, sorted by name. Hidden names and `.files` folders
    /// are skipped; a name that is both a case and a folder is an error.
    fn entries(&self, folder: &Path) -> Result<BTreeMap<String, Entry>, Diagnostic> {
        let listing = std::fs::read_dir(folder)
            .map_err(|e| Diagnostic::file(folder, format!("cannot list it: {e}")))?;
        let mut entries = BTreeMap::new();
        for item in listing {
            let item =
                item.map_err(|e| Diagnostic::file(folder, format!("cannot list it: {e}")))?;
            let path = item.path();
            let Some(name) = item.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let is_dir = path.is_dir();
            let entry = if is_dir && !name.ends_with(".files") {
                (name, Entry::Group(path))
            } else if let (false, Some(case)) = (is_dir, name.strip_suffix(".in")) {
                (case.to_string(), Entry::Case(path))
            } else {
                continue;
            };
            if entries.contains_key(&entry.0) {
                return Err(Diagnostic::file(
                    &folder.join(&entry.0),
                    "a case and a folder have the same name",
                ));
            }
            entries.insert(entry.0, entry.1);
        }
        Ok(entries)
    }

    /// The canonical path of `path`, which must lie inside the package.
    fn inside(&self, path: &Path) -> Result<PathBuf, Diagnostic> {
        let canonical = path
            .canonicalize()
            .map_err(|e| Diagnostic::file(path, format!("cannot follow it: {e}")))?;
        if !canonical.starts_with(&self.root) {
            return Err(Diagnostic::file(
                path,
                format!(
                    "links outside the package (to {}); the format allows links only within it",
                    canonical.display()
                ),
            ));
        }
        Ok(canonical)
    }
}

#[cfg(test)]
#[path = "testdata_tests.rs"]
mod tests;
