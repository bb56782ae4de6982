//! Reading and writing files safely. Every write goes through [`folder`]: a temporary file in the
//! destination folder's descriptor, then a rename there, so a reader never sees half a file, no
//! link is written through and nothing but a regular file is replaced (and that only when the
//! caller says so); [`write_atomic`] does it by a path. Fixtures are written through [`store`],
//! which also survives SIGKILL and concurrent writers. Package and fixture files are read (and
//! written) through [`beneath`], which never leaves their tree. Taking a `flock`: [`flock`].

pub mod beneath;
pub mod folder;
pub mod store;

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

pub use folder::{flock, kind, kind_of, Entry, Existing, Folder, WriteError};

/// Writes `bytes` to `path` atomically (see [`Folder::write`]), creating missing folders (by
/// their path: the caller's choice, links included). With [`Existing::Keep`] an existing file
/// is an error and stays untouched.
pub fn write_atomic(path: &Path, bytes: &[u8], existing: Existing) -> Result<()> {
    write_atomic_with(path, existing, |file| {
        file.write_all(bytes)
            .map_err(|error| anyhow::Error::new(WriteError::io(path, error)))
    })
}

/// Writes `path` as `fill` writes it, atomically, as [`write_atomic`] does, without holding it
/// whole (see [`Folder::write_with`]).
pub fn write_atomic_with<T>(
    path: &Path,
    existing: Existing,
    fill: impl FnOnce(&mut std::fs::File) -> Result<T>,
) -> Result<T> {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create the folder `{}`", folder.display()))?;
    let name = path
        .file_name()
        .ok_or_else(|| WriteError::not_below(path))?;
    Folder::open(folder)?.write_with(name, existing, fill)
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
