//! The built-in problems as the runner names them: looking one up by id, and the one message for
//! an id that names none (with the closest id, and the whole list).

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};
use grundy_problems::Problem;

use crate::suggest::did_you_mean;

/// The built-in problem `id`, or an error naming the known ones.
pub fn problem(id: &str) -> Result<&'static Problem> {
    grundy_problems::find(id).ok_or_else(|| anyhow!("{}", unknown(id)))
}

/// `no built-in problem `snim` (did you mean `s-nim`?); known problems: lieges-of-legendre, ...`;
/// for a problem whose Rust folder is there (made by `grundy new` since this grundy was built),
/// that it is built in only once grundy is rebuilt.
pub fn unknown(id: &str) -> String {
    let ids = grundy_problems::ALL.iter().map(|p| p.id);
    let rebuild = match unbuilt_folder(id) {
        Some(folder) => format!(
            "; `{}` holds it, but this grundy was built before it was added: rebuild it \
             (`cargo install --path {}`, or run `cargo run -- ...` there)",
            folder.display(),
            folder
                .parent()
                .and_then(Path::parent)
                .map_or(".".into(), |root| root.display().to_string())
        ),
        None => String::new(),
    };
    format!(
        "no built-in problem `{id}`{}{rebuild}; known problems: {}",
        did_you_mean(id, ids.clone()),
        ids.collect::<Vec<_>>().join(", ")
    )
}

/// The folder `problems/<module>/` of the grundy checkout around the current folder, when it
/// holds a problem `id` grundy was not built with.
fn unbuilt_folder(id: &str) -> Option<PathBuf> {
    let here = std::env::current_dir().ok()?;
    let root = here
        .ancestors()
        .find(|dir| dir.join("problems").join("lib.rs").is_file())?;
    let folder = root.join("problems").join(id.replace('-', "_"));
    folder.join("mod.rs").is_file().then_some(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_id_gets_the_closest_and_the_list() {
        let message = problem("snim").err().unwrap().to_string();
        assert!(
            message.starts_with("no built-in problem `snim`"),
            "{message}"
        );
        assert!(message.contains("(did you mean `s-nim`?)"), "{message}");
        assert!(message.contains("lieges-of-legendre, nim,"), "{message}");
        assert_eq!(problem("nim").unwrap().id, "nim");
    }
}
