//! The built-in problems' fixtures and settings as this binary ships them (the checkout's
//! `fixtures/` and `runner.toml`, embedded by `build.rs`), for a command run where there is no
//! checkout, package or fixtures of the user's own: unpacked once into the user's cache, whole
//! or not at all, and judged from there as any fixtures root is.

use std::path::{Path, PathBuf};

mod table {
    include!(concat!(env!("OUT_DIR"), "/shipped.rs"));
}

/// Why the shipped fixtures could not be had.
#[derive(Debug, thiserror::Error)]
pub enum Unshipped {
    #[error(
        "the built-in problems' fixtures need a folder to be unpacked into, and neither \
         XDG_CACHE_HOME nor HOME is set: set one, or run inside a checkout of grundy"
    )]
    NoCache,
    #[error(
        "cannot unpack the built-in problems' fixtures into {}: {source}; free that folder (or \
         set XDG_CACHE_HOME to another), or run inside a checkout of grundy",
        folder.display()
    )]
    Unpacking {
        folder: PathBuf,
        source: std::io::Error,
    },
}

/// The folder holding the shipped `runner.toml` and `fixtures/`, unpacked on first use into
/// `$XDG_CACHE_HOME/grundy/builtin-<digest>` (else `~/.cache/...`). Its name is a digest of
/// what it holds, so a folder there is this binary's; it is made under a temporary name and
/// renamed into place, so it is whole or absent, and two runs unpacking at once both end up
/// with the one that got there first.
pub fn unpacked() -> Result<PathBuf, Unshipped> {
    let cache = match (std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME")) {
        (Some(cache), _) if Path::new(&cache).is_absolute() => PathBuf::from(cache),
        (_, Some(home)) if Path::new(&home).is_absolute() => Path::new(&home).join(".cache"),
        _ => return Err(Unshipped::NoCache),
    };
    let parent = cache.join("grundy");
    let folder = parent.join(format!("builtin-{}", table::DIGEST));
    if folder.join(crate::locate::RUNNER_FILE).is_file() {
        return Ok(folder);
    }
    let failed = |source| Unshipped::Unpacking {
        folder: folder.clone(),
        source,
    };
    std::fs::create_dir_all(&parent).map_err(failed)?;
    let staging = tempfile::Builder::new()
        .prefix(".unpacking-")
        .tempdir_in(&parent)
        .map_err(failed)?;
    unpack_into(staging.path()).map_err(failed)?;
    match std::fs::rename(staging.path(), &folder) {
        Ok(()) => Ok(folder),
        // Another run put it there first; ours is dropped with `staging`.
        Err(_) if folder.join(crate::locate::RUNNER_FILE).is_file() => Ok(folder),
        Err(error) => Err(failed(error)),
    }
}

/// Every shipped file written below `root` (a folder no one else sees yet).
fn unpack_into(root: &Path) -> std::io::Result<()> {
    for (path, bytes) in files()? {
        let file = root.join(path);
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::write(file, bytes)?;
    }
    Ok(())
}

/// The shipped files, each its path (below the checkout) and its bytes: the blob `build.rs`
/// deflated, read back.
fn files() -> std::io::Result<Vec<(String, Vec<u8>)>> {
    use std::io::Read;
    let mut blob = Vec::new();
    flate2::read::DeflateDecoder::new(table::PACKED).read_to_end(&mut blob)?;
    let broken = || std::io::Error::other("the shipped fixtures in this binary are damaged");
    let mut files = Vec::new();
    let mut rest = blob.as_slice();
    while !rest.is_empty() {
        let end = rest.iter().position(|&b| b == 0).ok_or_else(broken)?;
        let path = std::str::from_utf8(&rest[..end]).map_err(|_| broken())?;
        let (length, after) = rest[end + 1..]
            .split_first_chunk::<8>()
            .ok_or_else(broken)?;
        let length = usize::try_from(u64::from_le_bytes(*length)).map_err(|_| broken())?;
        let bytes = after.get(..length).ok_or_else(broken)?;
        files.push((path.to_string(), bytes.to_vec()));
        rest = &after[length..];
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_files_are_the_checkouts() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
        let files = files().unwrap();
        for (path, bytes) in &files {
            assert_eq!(
                std::fs::read(checkout.join(path)).unwrap(),
                *bytes,
                "{path}"
            );
        }
        let shipped = |p: &str| files.iter().any(|(path, _)| path == p);
        assert!(shipped("runner.toml"));
        assert!(shipped("fixtures/s-nim/sample-1.in"));
    }

    #[test]
    fn unpacking_writes_every_file_whole() {
        let root = tempfile::tempdir().unwrap();
        unpack_into(root.path()).unwrap();
        for (path, bytes) in files().unwrap() {
            assert_eq!(
                std::fs::read(root.path().join(&path)).unwrap(),
                bytes,
                "{path}"
            );
        }
    }
}
