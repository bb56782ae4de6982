//! Writing what `generate` made into `data/`: a case's files (a new case published whole through
//! the fixture store's journal, a changed one file by file, never over a file `generate` did not
//! make without `--force`), included cases copied, `test_group.yaml` per group, and the files no
//! rule describes (reported; removed with `--clean`). The manifest records each. Every file is
//! read and written beneath the package's descriptor, and written (and removed) without
//! following a link: `data/` swapped for a link while a generator runs makes the writes fail,
//! naming it, and nothing lands where it leads.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::findings::Unmade;
use super::make::Files;
use super::manifest::{case_file, Manifest};
use super::report::Generated;
use crate::files::beneath::{Listed, TreePath};
use crate::files::Entry;
use crate::files::{store, Existing};
use crate::package::generators::{GroupYaml, Plan, Source, IMAGE_EXTENSIONS, TEXT_EXTENSIONS};

/// How a package is generated.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Make every case again, and replace files `generate` did not make.
    pub force: bool,
    /// Remove data files no rule describes.
    pub clean: bool,
}

/// Writes a case's files ([`write_case`]) and records them in `manifest` under `key`: whether
/// they were written (when not, the case is among `generated`'s failures, with why).
pub(super) fn write_recorded(
    data: &TreePath,
    path: &str,
    key: String,
    files: &Files,
    manifest: &mut Manifest,
    force: bool,
    generated: &mut Generated,
) -> bool {
    match write_case(data, path, files, manifest, force) {
        Ok(()) => {
            manifest.record(path, key, files);
            true
        }
        Err(error) => {
            generated
                .failed
                .push((path.to_string(), Unmade::Write(error)));
            false
        }
    }
}

/// Writes a case's files: a new case whole or not at all (the fixture store's journal), a
/// changed one file by file, each atomically (the `.in` last); removes files of it the last run
/// made that this one did not. A file `generate` did not make is replaced only under `--force`.
pub(super) fn write_case(
    data: &TreePath,
    path: &str,
    files: &Files,
    manifest: &Manifest,
    force: bool,
) -> Result<()> {
    let previous = manifest.cases.get(path);
    let targets: Vec<(TreePath, &[u8])> = files
        .get_key_value("in")
        .into_iter()
        .chain(files.iter().filter(|(e, _)| *e != "in"))
        .map(|(ext, bytes)| (case_file(data, path, ext), bytes.as_slice()))
        .collect();
    let mut missing = true;
    for (target, _) in &targets {
        missing &= target.entry()? == Entry::Missing;
    }
    if missing {
        // A new case: published whole or not at all, through the fixture store's journal.
        let writer = store::Writer::open_beneath(data)?;
        let files: Vec<(&Path, &[u8])> = targets.iter().map(|(t, b)| (t.path(), *b)).collect();
        return writer.create(&files);
    }
    for (ext, bytes) in files
        .iter()
        .filter(|(e, _)| *e != "in")
        .chain(files.get_key_value("in"))
    {
        let target = case_file(data, path, ext);
        match target.read() {
            Ok(old) if &old == bytes => continue,
            Ok(_) if !force && !previous.is_some_and(|p| p.files.contains_key(ext)) => bail!(
                "`{}` is there and was not made by generate; --force replaces it",
                target.path().display()
            ),
            _ => target.write(bytes, Existing::Replace)?,
        }
    }
    if let Some(previous) = previous {
        for ext in previous.files.keys().filter(|e| !files.contains_key(*e)) {
            let _ = case_file(data, path, ext).remove();
        }
    }
    Ok(())
}

/// Included cases: the files of the case they include, as made.
pub(super) fn include_cases(
    plan: &Plan,
    data: &TreePath,
    manifest: &mut Manifest,
    options: &Options,
    generated: &mut Generated,
) {
    for case in &plan.cases {
        let Source::Included(original) = &case.source else {
            continue;
        };
        let Some(entry) = manifest.cases.get(original).cloned() else {
            generated
                .failed
                .push((case.path.clone(), Unmade::NotIncluded(original.clone())));
            continue;
        };
        let key = format!("include {original} {}", entry.key);
        if !options.force && manifest.is_current(data, &case.path, &key) {
            generated.unchanged += 1;
            continue;
        }
        let mut files = Files::new();
        for ext in entry.files.keys() {
            match case_file(data, original, ext).read() {
                Ok(bytes) => {
                    files.insert(ext.clone(), bytes);
                }
                Err(e) => generated
                    .failed
                    .push((case.path.clone(), Unmade::Unreadable(e))),
            }
        }
        if write_recorded(
            data,
            &case.path,
            key,
            &files,
            manifest,
            options.force,
            generated,
        ) {
            generated.included += 1;
        }
    }
}

/// Each group's folder and `test_group.yaml`.
pub(super) fn groups(
    plan: &Plan,
    data: &TreePath,
    manifest: &mut Manifest,
    options: &Options,
    generated: &mut Generated,
) {
    for group in &plan.groups {
        let folder = data.join(&group.path);
        if let Err(error) = folder.open_folder(true) {
            generated.failed.push((group.path.clone(), error.into()));
            continue;
        }
        let target = folder.join("test_group.yaml");
        let ours = manifest.groups.contains(&group.path);
        match &group.test_group_yaml {
            GroupYaml::Unset => {}
            GroupYaml::Remove => {
                if ours || options.force {
                    if let Err(error) = target.remove() {
                        generated.failed.push((group.path.clone(), error.into()));
                    }
                }
            }
            GroupYaml::Write(text) => {
                let old = target.read().ok();
                if old.as_deref() == Some(text.as_bytes()) {
                } else if old.is_some() && !ours && !options.force {
                    generated
                        .failed
                        .push((format!("{}/test_group.yaml", group.path), Unmade::NotOurs));
                    continue;
                } else if let Err(error) = target.write(text.as_bytes(), Existing::Replace) {
                    generated.failed.push((group.path.clone(), error.into()));
                    continue;
                }
                if !ours {
                    manifest.groups.push(group.path.clone());
                }
            }
        }
    }
}

/// Data files no rule describes: reported, and removed under `--clean`. `data/` is walked
/// beneath the package (depth first, each folder's names in order), and a file is removed
/// without following a link on the way to it.
pub(super) fn unlisted(
    plan: &Plan,
    data: &TreePath,
    manifest: &mut Manifest,
    options: &Options,
    generated: &mut Generated,
) {
    let listed: BTreeSet<&str> = plan.cases.iter().map(|c| c.path.as_str()).collect();
    manifest
        .cases
        .retain(|path, _| listed.contains(path.as_str()));
    let extensions: Vec<String> = TEXT_EXTENSIONS
        .iter()
        .chain(&IMAGE_EXTENSIONS)
        .map(|e| format!(".{e}"))
        .collect();
    // Entries still to visit, by their path below `data/`, the next one last.
    let mut pending: Vec<(PathBuf, Listed)> = vec![(PathBuf::new(), Listed::Folder)];
    while let Some((below, kind)) = pending.pop() {
        if kind == Listed::Folder {
            let mut entries = vec![];
            let listed = data.join(&below).for_each_entry(|name, kind| {
                entries.push((OsStr::from_bytes(name).to_owned(), kind));
            });
            if listed.is_ok() {
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                pending.extend(entries.into_iter().rev().map(|(n, k)| (below.join(n), k)));
            }
            continue;
        }
        if kind != Listed::File {
            continue;
        }
        let relative = below.to_string_lossy();
        let name = relative.rsplit('/').next().unwrap_or_default();
        if name.starts_with('.') || name == "test_group.yaml" || name == "testdata.yaml" {
            continue;
        }
        // The case is the name up to its first `.` (`1.in.statement` is case `1`).
        let Some(dot) = name.find('.') else { continue };
        if !extensions.iter().any(|e| &name[dot..] == e) {
            continue;
        }
        let case = &relative[..relative.len() - (name.len() - dot)];
        if listed.contains(case) {
            continue;
        }
        generated.unlisted.push(format!("data/{relative}"));
        if options.clean && data.join(&below).remove().is_ok_and(|removed| removed) {
            generated.removed = true;
        }
    }
}
