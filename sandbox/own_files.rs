//! A program's own files, the ones a run shows it besides the system folders: its executable,
//! its `#!` interpreter and the absolute paths among its arguments that exist. What a box binds
//! (view.rs), what Landlock lets it read (landlock.rs) and what is checked against the hidden
//! folders (hidden.rs) all start from this list; it reads only the files themselves.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The program's own files: its executable, its `#!` interpreter and the absolute paths among
/// its arguments that exist, each with whether it is executed.
pub(crate) fn own_files(exe: &Path, argv: &[OsString]) -> Vec<(PathBuf, bool)> {
    let mut wanted: Vec<(PathBuf, bool)> = vec![(exe.to_path_buf(), true)];
    if let Ok(exe_meta) = std::fs::metadata(exe) {
        wanted.extend(interpreter(exe, &exe_meta).map(|p| (p, true)));
    }
    for word in argv.iter().skip(1) {
        let path = Path::new(word);
        if path.is_absolute() && path.exists() {
            wanted.push((path.to_path_buf(), false));
        }
    }
    wanted
}

pub(crate) fn version(m: &std::fs::Metadata) -> (u64, u64, u64, i128) {
    let mtime = i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec());
    (m.dev(), m.ino(), m.size(), mtime)
}

/// The absolute interpreter path of a `#!` script (remembered per version of the file).
fn interpreter(exe: &Path, meta: &std::fs::Metadata) -> Option<PathBuf> {
    type Seen = HashMap<(PathBuf, (u64, u64, u64, i128)), Option<PathBuf>>;
    static SEEN: Mutex<Option<Seen>> = Mutex::new(None);
    let key = (exe.to_path_buf(), version(meta));
    if let Some(found) = SEEN.lock().ok()?.get_or_insert_with(HashMap::new).get(&key) {
        return found.clone();
    }
    let found = read_interpreter(exe);
    let mut seen = SEEN.lock().ok()?;
    let seen = seen.get_or_insert_with(HashMap::new);
    if seen.len() > 256 {
        seen.clear();
    }
    seen.insert(key, found.clone());
    found
}

fn read_interpreter(exe: &Path) -> Option<PathBuf> {
    let mut head = [0u8; 256];
    let n = std::fs::File::open(exe).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let word = line
        .split(|b| b.is_ascii_whitespace())
        .find(|w| !w.is_empty())?;
    let path = PathBuf::from(OsStr::from_bytes(word));
    path.is_absolute().then_some(path)
}
