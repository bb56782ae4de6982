//! Writing what `generate` made into `data/`: a case's files (a new case published whole through
//! the fixture store's journal, a changed one file by file, never over a file `generate` did not
//! make without `--force`), included cases copied, `test_group.yaml` per group, and the files no
//! rule describes (reported; removed with `--clean`). The manifest records each.

use super::*;

/// Writes a case's files ([`write_case`]) and records them in `manifest` under `key`: whether
/// they were written (when not, the case is among `generated`'s failures, with why).
pub(super) fn write_recorded(
    data: &Path,
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
                .push((path.to_string(), format!("{error:#}")));
            false
        }
    }
}

/// Writes a case's files: a new case whole or not at all (the fixture store's journal), a
/// changed one file by file, each atomically (the `.in` last); removes files of it the last run
/// made that this one did not. A file `generate` did not make is replaced only under `--force`.
pub(super) fn write_case(
    data: &Path,
    path: &str,
    files: &Files,
    manifest: &Manifest,
    force: bool,
) -> Result<()> {
    let previous = manifest.cases.get(path);
    let targets: Vec<(PathBuf, &[u8])> = files
        .get_key_value("in")
        .into_iter()
        .chain(files.iter().filter(|(e, _)| *e != "in"))
        .map(|(ext, bytes)| (case_file(data, path, ext), bytes.as_slice()))
        .collect();
    if targets
        .iter()
        .all(|(target, _)| target.symlink_metadata().is_err())
    {
        // A new case: published whole or not at all, through the fixture store's journal.
        let writer = store::Writer::open(data)?;
        let files: Vec<(&Path, &[u8])> = targets.iter().map(|(t, b)| (t.as_path(), *b)).collect();
        return writer.create(&files);
    }
    for (ext, bytes) in files
        .iter()
        .filter(|(e, _)| *e != "in")
        .chain(files.get_key_value("in"))
    {
        let target = case_file(data, path, ext);
        match std::fs::read(&target) {
            Ok(old) if &old == bytes => continue,
            Ok(_) if !force && !previous.is_some_and(|p| p.files.contains_key(ext)) => bail!(
                "`{}` is there and was not made by generate; --force replaces it",
                target.display()
            ),
            _ => write_atomic(&target, bytes, Existing::Replace)?,
        }
    }
    if let Some(previous) = previous {
        for ext in previous.files.keys().filter(|e| !files.contains_key(*e)) {
            let _ = std::fs::remove_file(case_file(data, path, ext));
        }
    }
    Ok(())
}

/// Included cases: the files of the case they include, as made.
pub(super) fn include_cases(
    plan: &Plan,
    data: &Path,
    manifest: &mut Manifest,
    options: &Options,
    generated: &mut Generated,
) {
    for case in &plan.cases {
        let Source::Included(original) = &case.source else {
            continue;
        };
        let Some(entry) = manifest.cases.get(original).cloned() else {
            generated.failed.push((
                case.path.clone(),
                format!("included case `{original}` was not made"),
            ));
            continue;
        };
        let key = format!("include {original} {}", entry.key);
        if !options.force && manifest.is_current(data, &case.path, &key) {
            generated.unchanged += 1;
            continue;
        }
        let mut files = Files::new();
        for ext in entry.files.keys() {
            match std::fs::read(case_file(data, original, ext)) {
                Ok(bytes) => {
                    files.insert(ext.clone(), bytes);
                }
                Err(e) => generated.failed.push((
                    case.path.clone(),
                    format!("cannot read `{original}.{ext}`: {e}"),
                )),
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
    data: &Path,
    manifest: &mut Manifest,
    options: &Options,
    generated: &mut Generated,
) {
    for group in &plan.groups {
        let folder = data.join(&group.path);
        let _ = std::fs::create_dir_all(&folder);
        let target = folder.join("test_group.yaml");
        let ours = manifest.groups.contains(&group.path);
        match &group.test_group_yaml {
            GroupYaml::Unset => {}
            GroupYaml::Remove => {
                if target.is_file() && (ours || options.force) {
                    let _ = std::fs::remove_file(&target);
                }
            }
            GroupYaml::Write(text) => {
                let old = std::fs::read(&target).ok();
                if old.as_deref() == Some(text.as_bytes()) {
                } else if old.is_some() && !ours && !options.force {
                    generated.failed.push((
                        format!("{}/test_group.yaml", group.path),
                        "is there and was not made by generate; --force replaces it".into(),
                    ));
                    continue;
                } else if let Err(error) = write_atomic(&target, text.as_bytes(), Existing::Replace)
                {
                    generated
                        .failed
                        .push((group.path.clone(), format!("{error:#}")));
                    continue;
                }
                if !ours {
                    manifest.groups.push(group.path.clone());
                }
            }
        }
    }
}

/// Data files no rule describes: reported, and removed under `--clean`.
pub(super) fn unlisted(
    plan: &Plan,
    data: &Path,
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
    let walk = walkdir::WalkDir::new(data)
        .follow_links(false)
        .sort_by_file_name();
    for entry in walk.into_iter().filter_map(|e| e.ok()) {
        if !entry.file_type().is_file() {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(data) else {
            continue;
        };
        let relative = relative.to_string_lossy();
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
        if options.clean && std::fs::remove_file(entry.path()).is_ok() {
            generated.removed = true;
        }
    }
}
