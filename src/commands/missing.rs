//! A folder or problem named on the command line that is not there (`check /tmp/nope`,
//! `generate aplsub`): told as the user gave it, with the closest folder beside where it was
//! looked for (`aplusb`, a typo's likely meaning), else the closest built-in problem.

use std::path::{Path, PathBuf};

use crate::suggest::closest;

/// `given` names no folder, nor (a word without `/`) a built-in problem.
#[derive(Debug, thiserror::Error)]
#[error("`{given}` is no folder in {}{hint}", looked_in.display())]
pub struct NotThere {
    given: String,
    /// The folder it was looked for in, absolute.
    looked_in: PathBuf,
    /// The closest folder there, or what the built-in problems say of a word.
    hint: String,
}

/// Why `given` names nothing: the folder it would be in, and the closest name there.
pub fn not_there(given: &str) -> NotThere {
    let path = Path::new(given);
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    let looked_in = std::path::absolute(parent.unwrap_or(Path::new(".")))
        .unwrap_or_else(|_| parent.unwrap_or(Path::new(".")).to_path_buf());
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or(given);
    let folders = folders_in(&looked_in);
    let near = closest(name, folders.iter().map(String::as_str));
    // A word without `/` may mean a built-in problem too; a path cannot.
    let a_word = !given.contains('/');
    let hint = match (near, a_word) {
        (Some(folder), _) => {
            let meant = parent.map_or(PathBuf::from(folder), |p| p.join(folder));
            let problem = if a_word {
                ", nor a built-in problem"
            } else {
                ""
            };
            format!("{problem} (did you mean the folder `{}`?)", meant.display())
        }
        (None, true) => format!(", and {}", crate::builtin::unknown(given)),
        (None, false) => String::new(),
    };
    NotThere {
        given: given.to_string(),
        looked_in,
        hint,
    }
}

/// The names of the folders in `folder` that a user would name (not hidden ones).
fn folders_in(folder: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return vec![];
    };
    let names = entries.flatten().filter(|e| e.path().is_dir());
    let names = names.filter_map(|e| e.file_name().into_string().ok());
    names.filter(|name| !name.starts_with('.')).collect()
}
