//! Writing files safely: a temporary file in the destination folder, then a rename, so a reader
//! never sees half a file; existing files are replaced only when the caller says so.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

/// Whether an existing file at the destination may be replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    Keep,
    Replace,
}

/// Writes `bytes` to `path` atomically, creating missing folders. With [`Existing::Keep`] an
/// existing file is an error and stays untouched.
pub fn write_atomic(path: &Path, bytes: &[u8], existing: Existing) -> Result<()> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create the folder `{}`", folder.display()))?;
    let mut temp = tempfile::Builder::new()
        .prefix(".grundy-")
        .tempfile_in(folder)
        .with_context(|| format!("cannot create a temporary file in `{}`", folder.display()))?;
    temp.write_all(bytes)
        .and_then(|()| temp.as_file().sync_all())
        .with_context(|| format!("cannot write `{}`", path.display()))?;
    match existing {
        Existing::Replace => temp.persist(path).map(drop).map_err(|e| e.error),
        Existing::Keep => temp.persist_noclobber(path).map(drop).map_err(|e| e.error),
    }
    .with_context(|| match existing {
        Existing::Keep if path.exists() => {
            format!(
                "`{}` already exists; refusing to overwrite it",
                path.display()
            )
        }
        _ => format!("cannot write `{}`", path.display()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_creates_folders_and_never_clobbers_unless_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/c.out");
        write_atomic(&path, b"one", Existing::Keep).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        let err = write_atomic(&path, b"two", Existing::Keep).unwrap_err();
        assert!(
            format!("{err:#}").contains("refusing to overwrite"),
            "{err:#}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        write_atomic(&path, b"three", Existing::Replace).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"three");
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
    }
}
