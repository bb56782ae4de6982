//! What a compiler says, told in the user's terms: it compiled the program's files as the box
//! holds them (`src/ce.cpp`), and its messages name them so; each is put back as the user's
//! path (`ce.cpp`, `submissions/accepted/a.cpp`), so an error points at the file to edit.

use std::path::PathBuf;

/// `said` with every whole mention of a source's path in the box (`inside`, as the compiler
/// was given it) replaced by its path outside (relative to the current folder where it is
/// below it). A mention is whole where no character of a path goes on either side of it, so
/// `src/a.cpp` is not found in `src/a.cpp.h` or `xsrc/a.cpp`.
pub(super) fn in_users_paths(said: &str, sources: &[(PathBuf, PathBuf)]) -> String {
    let here = std::env::current_dir().ok();
    let mut mentions: Vec<(String, String)> = sources
        .iter()
        .map(|(inside, outside)| {
            let shown = here
                .as_deref()
                .and_then(|here| outside.strip_prefix(here).ok())
                .filter(|relative| !relative.as_os_str().is_empty())
                .unwrap_or(outside);
            (inside.display().to_string(), shown.display().to_string())
        })
        .collect();
    // The longest first, so a path is never taken for the start of a longer one.
    mentions.sort_by_key(|(inside, _)| std::cmp::Reverse(inside.len()));
    let mut told = said.to_string();
    for (inside, outside) in &mentions {
        told = replace_whole(&told, inside, outside);
    }
    told
}

/// `text` with each whole mention of `from` replaced by `to`.
fn replace_whole(text: &str, from: &str, to: &str) -> String {
    let of_a_path = |c: char| c.is_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '+');
    let mut told = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        told.push_str(&rest[..at]);
        rest = &rest[at + from.len()..];
        let mut after = rest.chars();
        let ends = match after.next() {
            None => true,
            // A `.` after the name ends a sentence where no more of a name follows it.
            Some('.') => after.next().is_none_or(|c| !of_a_path(c)),
            Some(c) => !of_a_path(c),
        };
        let starts = !told.chars().last().is_some_and(of_a_path);
        told.push_str(if starts && ends { to } else { from });
    }
    told.push_str(rest);
    told
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources() -> Vec<(PathBuf, PathBuf)> {
        let here = std::env::current_dir().unwrap();
        vec![
            (PathBuf::from("src/ce.cpp"), here.join("work/ce.cpp")),
            (
                PathBuf::from("src/Main.java"),
                PathBuf::from("/elsewhere/Main.java"),
            ),
        ]
    }

    #[test]
    fn each_mention_of_a_source_in_the_box_names_the_users_file() {
        let said = "src/ce.cpp: In function 'int main()':\nsrc/ce.cpp:2:13: error: x\n\
                    In file included from src/ce.cpp:1:\nsrc/Main.java:3: error: ';' expected";
        assert_eq!(
            in_users_paths(said, &sources()),
            "work/ce.cpp: In function 'int main()':\nwork/ce.cpp:2:13: error: x\n\
             In file included from work/ce.cpp:1:\n/elsewhere/Main.java:3: error: ';' expected"
        );
    }

    #[test]
    fn only_whole_mentions_are_replaced() {
        let said = "src/ce.cpp.h xsrc/ce.cpp src/ce.cppx \"src/ce.cpp\" (src/ce.cpp) src/ce.cpp.";
        assert_eq!(
            in_users_paths(said, &sources()),
            "src/ce.cpp.h xsrc/ce.cpp src/ce.cppx \"work/ce.cpp\" (work/ce.cpp) work/ce.cpp."
        );
    }
}
