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
//! ancestors (a loop), is an error. Every file is opened through the package's root
//! ([`crate::files::beneath`]); the files a case is read from must be regular files.

use std::collections::BTreeMap;

use super::constants::Constants;
use super::settings::Settings;
use super::version::FormatVersion;
use super::yaml::Diagnostic;
use crate::files::beneath::{Identity, Kind, Tree, TreePath};

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

/// One case; its files are the package's, opened only through the package's root.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The path below `data/` without extension: `secret/group1/03-max`.
    pub id: String,
    pub kind: CaseKind,
    /// The id of the group holding it: `secret/group1`.
    pub group: String,
    pub input: TreePath,
    /// `.ans`, the answer given to the output validator.
    pub answer: Option<TreePath>,
    /// `.out`: a sample's shown output, or the output to validate in `*_output` folders.
    pub output: Option<TreePath>,
    pub interaction: Option<TreePath>,
    /// `.files/`: files the submission may read.
    pub files: Option<TreePath>,
    /// The other recognised companion files present.
    pub extras: Vec<TreePath>,
    pub settings: Settings,
}

/// One group (a folder of `data/`, `data` itself excluded).
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The path below `data/`: `sample`, `secret`, `secret/group1`.
    pub id: String,
    pub path: TreePath,
    pub settings: Settings,
    /// Whether it has a settings file of its own (what makes a folder of `secret` a test data
    /// group of a scoring problem in 2025-09).
    pub configured: bool,
}

/// Everything in `data/`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TestData {
    /// The settings of `data/` itself.
    pub root: Settings,
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

/// Reads `data/` of the package `package`. `output_args` are arguments every output validator
/// gets before the groups' own (legacy `validator_flags`); `constants` are substituted in the
/// groups' settings files.
pub fn read(
    package: &Tree,
    version: FormatVersion,
    output_args: &[String],
    constants: &Constants,
    warnings: &mut Vec<Diagnostic>,
) -> Result<TestData, Diagnostic> {
    let data = package.join("data");
    let mut walker = Walker {
        version,
        constants,
        warnings,
        out: TestData::default(),
        open: vec![],
    };
    let Some(Kind::Folder(identity)) = data.kind()? else {
        walker.warnings.push(Diagnostic::file(
            data.path(),
            "there is no data folder: the package has no cases",
        ));
        return Ok(walker.out);
    };
    walker.open.push(identity);
    let mut root = Settings::root();
    root.output_validator_args = output_args.to_vec();
    let (root, _) = walker.settings_file(&data, &root)?;
    walker.out.root = root.clone();
    let entries = walker.entries(&data)?;
    for (name, entry) in &entries {
        match (TOP.iter().find(|(top, _)| top == name), entry) {
            (_, Entry::Case(_)) => walker.warnings.push(Diagnostic::file(data.join(format!("{name}.in")).path(), "inputs directly in data/ are not cases; put them in data/sample or data/secret")),
            (Some(_), Entry::Group(..)) => {}
            (None, Entry::Group(path, _)) => walker.warnings.push(Diagnostic::file(path.path(), "not a folder the format knows in data/ (sample, secret, invalid_input, invalid_answer, invalid_output, valid_output); ignored")),
        }
    }
    for (name, kind) in TOP {
        if let Some(Entry::Group(path, identity)) = entries.get(*name) {
            walker.group(path, *identity, name, *kind, &root)?;
        }
    }
    walker.out.cases.sort_by_key(|c| c.kind);
    Ok(walker.out)
}

enum Entry {
    /// A case, by its `.in` file.
    Case(TreePath),
    Group(TreePath, Identity),
}

struct Walker<'a> {
    version: FormatVersion,
    /// Substituted in the groups' settings files.
    constants: &'a Constants,
    warnings: &'a mut Vec<Diagnostic>,
    out: TestData,
    /// The folders being walked (`data` and the groups down to the current one), to catch
    /// links leading back into them.
    open: Vec<Identity>,
}

impl Walker<'_> {
    fn group(
        &mut self,
        path: &TreePath,
        identity: Identity,
        id: &str,
        kind: CaseKind,
        parent: &Settings,
    ) -> Result<(), Diagnostic> {
        if self.open.contains(&identity) {
            return Err(Diagnostic::file(
                path.path(),
                "this link leads back into a folder that contains it (a loop)",
            ));
        }
        let mut start = parent.inherited(self.version);
        if kind == CaseKind::Sample && id == "sample" {
            start.full_feedback = true;
        }
        let (settings, configured) = self.settings_file(path, &start)?;
        self.out.groups.push(Group {
            id: id.to_string(),
            path: path.clone(),
            settings: settings.clone(),
            configured,
        });
        self.open.push(identity);
        for (name, entry) in self.entries(path)? {
            let child = format!("{id}/{name}");
            match entry {
                Entry::Group(sub, identity) => {
                    self.group(&sub, identity, &child, kind, &settings)?
                }
                Entry::Case(input) => self.case(&input, child, id, kind, &settings)?,
            }
        }
        self.open.pop();
        Ok(())
    }

    /// The files a case is read from (its input, answer, output and settings) must be regular
    /// files within the package; the others it has are only noted, and must stay within it.
    fn case(
        &mut self,
        input: &TreePath,
        id: String,
        group: &str,
        kind: CaseKind,
        settings: &Settings,
    ) -> Result<(), Diagnostic> {
        if !input.is_file()? {
            return Err(Diagnostic::file(input.path(), "a link to nothing"));
        }
        let base = input.tree().join(input.relative().with_extension(""));
        let file = |suffix: &str| -> Result<Option<TreePath>, Diagnostic> {
            let path = base.with_suffix(suffix);
            Ok(path.is_file()?.then_some(path))
        };
        let present = |suffix: &str| -> Result<Option<(TreePath, Kind)>, Diagnostic> {
            let path = base.with_suffix(suffix);
            Ok(path.kind()?.map(|kind| (path, kind)))
        };
        let answer = file(".ans")?;
        let output = file(".out")?;
        let missing = match kind {
            CaseKind::InvalidInput => None,
            CaseKind::InvalidOutput | CaseKind::ValidOutput if output.is_none() => Some(".out"),
            _ if answer.is_none() => Some(".ans"),
            _ => None,
        };
        if let Some(suffix) = missing {
            return Err(Diagnostic::file(
                input.path(),
                format!(
                    "this case has no {suffix} file beside it ({})",
                    base.with_suffix(suffix).path().display()
                ),
            ));
        }
        let settings = match file(".yaml")? {
            Some(config) if !self.version.is_legacy() => {
                settings.with_case_file(&config, self.version, self.warnings)?
            }
            _ => settings.clone(),
        };
        let mut extras = vec![];
        for suffix in EXTRAS {
            extras.extend(present(suffix)?.map(|(path, _)| path));
        }
        self.out.cases.push(Case {
            id,
            kind,
            group: group.to_string(),
            input: input.clone(),
            answer,
            output,
            interaction: present(".interaction")?.map(|(path, _)| path),
            files: present(".files")?
                .filter(|(_, kind)| matches!(kind, Kind::Folder(_)))
                .map(|(path, _)| path),
            extras,
            settings,
        });
        Ok(())
    }

    /// The folder's settings file laid over `inherited`, or `inherited` itself, and whether there
    /// was a file. New versions read `test_group.yaml`, and the older draft name `testdata.yaml`
    /// when that is all there is.
    fn settings_file(
        &mut self,
        folder: &TreePath,
        inherited: &Settings,
    ) -> Result<(Settings, bool), Diagnostic> {
        let names: &[&str] = if self.version.is_legacy() {
            &["testdata.yaml"]
        } else {
            &["test_group.yaml", "testdata.yaml"]
        };
        for name in names {
            let file = folder.join(name);
            if file.is_file()? {
                if *name == "testdata.yaml" && !self.version.is_legacy() {
                    self.warnings.push(Diagnostic::file(
                        file.path(),
                        format!(
                            "format {} names this file test_group.yaml; read all the same",
                            self.version
                        ),
                    ));
                }
                let settings = inherited.with_group_file(
                    &file,
                    self.version,
                    self.constants,
                    self.warnings,
                )?;
                return Ok((settings, true));
            }
        }
        Ok((inherited.clone(), false))
    }

    /// The cases and subgroups of a folder, sorted by name. Hidden names and `.files` folders
    /// are skipped; a name that is both a case and a folder is an error. Links are followed
    /// within the package; one leading out of it is an error, whatever its name.
    fn entries(&self, folder: &TreePath) -> Result<BTreeMap<String, Entry>, Diagnostic> {
        let mut entries = BTreeMap::new();
        for name in folder.list()? {
            let Some(name) = name.to_str().map(str::to_string) else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let path = folder.join(&name);
            let entry = match (path.kind()?, name.strip_suffix(".in")) {
                (Some(Kind::Folder(identity)), _) if !name.ends_with(".files") => {
                    (name, Entry::Group(path, identity))
                }
                (Some(Kind::Folder(_)), _) | (_, None) => continue,
                (_, Some(case)) => (case.to_string(), Entry::Case(path)),
            };
            if entries.contains_key(&entry.0) {
                return Err(Diagnostic::file(
                    folder.join(&entry.0).path(),
                    "a case and a folder have the same name",
                ));
            }
            entries.insert(entry.0, entry.1);
        }
        Ok(entries)
    }
}

#[cfg(test)]
#[path = "testdata_tests.rs"]
mod tests;
