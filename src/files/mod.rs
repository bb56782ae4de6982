//! Writing files safely: a temporary file in the destination folder, then a rename, so a reader
//! never sees half a file; existing files are replaced only when the caller says so. Fixtures
//! are written through [`store`] instead, which also survives SIGKILL and concurrent writers.
//! Package and fixture files are read through [`beneath`], which never leaves their tree.
//! Taking a `flock`: [`flock`].

pub mod beneath;
pub mod store;

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
    let mut builder = tempfile::Builder::new();
    builder.prefix(".grundy-");
    // Temporary files are private (0600); what is written here is an ordinary file, so it gets
    // 0666 less the umask like any new file, or the permissions of the file it replaces.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temp = builder
        .tempfile_in(folder)
        .with_context(|| format!("cannot create a temporary file in `{}`", folder.display()))?;
    if let Some(old) = std::fs::symlink_metadata(path).ok().filter(|m| m.is_file()) {
        temp.as_file()
            .set_permissions(old.permissions())
            .with_context(|| format!("cannot set the permissions of `{}`", path.display()))?;
    }
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

/// Takes (or changes, or with a non-blocking operation tries) a `flock` on `file`, again when a
/// signal interrupted the wait.
pub fn flock(file: &std::fs::File, operation: rustix::fs::FlockOperation) -> std::io::Result<()> {
    loop {
        match rustix::fs::flock(file, operation) {
            Err(rustix::io::Errno::INTR) => continue,
            done => return done.map_err(Into::into),
        }
    }
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

    #[cfg(unix)]
    #[test]
    fn new_files_get_the_usual_mode_and_replaced_ones_keep_theirs() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        let dir = tempfile::tempdir().unwrap();
        let probe = dir.path().join("probe");
        std::fs::write(&probe, "x").unwrap();
        let path = dir.path().join("new.out");
        write_atomic(&path, b"one", Existing::Keep).unwrap();
        assert_eq!(mode(&path), mode(&probe), "0666 less the umask, not 0600");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"two", Existing::Replace).unwrap();
        assert_eq!(mode(&path), 0o640);
    }
}
