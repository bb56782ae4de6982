//! Registering a problem in the text of `problems/lib.rs`: its `mod` line among the problem
//! modules and its line in `ALL`, each in alphabetical order, everything else untouched. Lines
//! under a `#[cfg(...)]` (the test-only problems) are left where they are.

/// Why a problem cannot be registered in the text of `problems/lib.rs`.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    #[error("a module `{0}` is there already")]
    ModuleTaken(String),
    #[error("`&{0}::PROBLEM,` is there already: the problem exists")]
    EntryTaken(String),
    #[error("no `pub static ALL` registry found; is this grundy's problems/lib.rs?")]
    NoRegistry,
    #[error("the `ALL` registry has no closing `];`")]
    UnclosedRegistry,
    #[error("no problem `mod` line found before the `ALL` registry")]
    NoModules,
}

/// `lib` with `mod <module>;` and `&<module>::PROBLEM,` added; an error when the module is
/// registered already or the file does not have the expected shape.
pub fn register(lib: &str, module: &str) -> Result<String, RegisterError> {
    let mut lines: Vec<String> = lib.lines().map(str::to_string).collect();
    let mod_line = format!("mod {module};");
    let entry = format!("&{module}::PROBLEM,");
    if lines
        .iter()
        .any(|l| l.trim().ends_with(&format!(" {mod_line}")) || l.trim() == mod_line)
    {
        return Err(RegisterError::ModuleTaken(module.to_string()));
    }
    if lines.iter().any(|l| l.trim() == entry) {
        return Err(RegisterError::EntryTaken(module.to_string()));
    }

    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with("pub static ALL"))
        .ok_or(RegisterError::NoRegistry)?;
    let end = start
        + lines[start..]
            .iter()
            .position(|l| l.trim() == "];")
            .ok_or(RegisterError::UnclosedRegistry)?;
    let entries = unconditional(&lines, start + 1..end, |l| {
        l.trim().strip_prefix('&')?.strip_suffix("::PROBLEM,")
    });
    let (at, indent) = sorted_slot(&lines, &entries, module, start + 1, "    ");
    lines.insert(at, format!("{indent}{entry}"));

    let modules = unconditional(&lines, 0..start, |l| {
        l.strip_prefix("mod ")?.strip_suffix(';')
    });
    if modules.is_empty() {
        return Err(RegisterError::NoModules);
    }
    let (at, _) = sorted_slot(&lines, &modules, module, 0, "");
    lines.insert(at, mod_line);

    let mut text = lines.join("\n");
    if lib.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// The lines in `range` whose name `name_of` extracts, without a `#[cfg` attribute on the line
/// above: (line index, name).
fn unconditional<'a>(
    lines: &'a [String],
    range: std::ops::Range<usize>,
    name_of: impl Fn(&'a str) -> Option<&'a str>,
) -> Vec<(usize, &'a str)> {
    range
        .filter(|&i| i == 0 || !lines[i - 1].trim_start().starts_with("#[cfg"))
        .filter_map(|i| name_of(&lines[i]).map(|name| (i, name)))
        .collect()
}

/// Where `module` goes among `existing` (sorted by name): before the first larger name, else
/// after the last one (`after_nothing` when there are none), with that line's indentation.
fn sorted_slot(
    lines: &[String],
    existing: &[(usize, &str)],
    module: &str,
    after_nothing: usize,
    default_indent: &str,
) -> (usize, String) {
    let indent_of = |i: usize| {
        let line = &lines[i];
        line[..line.len() - line.trim_start().len()].to_string()
    };
    match existing.iter().find(|(_, name)| *name > module) {
        Some(&(i, _)) => (i, indent_of(i)),
        None => match existing.last() {
            Some(&(i, _)) => (i + 1, indent_of(i)),
            None => (after_nothing, default_indent.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = include_str!("../../../problems/lib.rs");

    #[test]
    fn the_real_registry_takes_a_new_problem_in_order() {
        let text = register(LIB, "m_game").unwrap();
        let mods: Vec<&str> = text.lines().filter(|l| l.starts_with("mod ")).collect();
        let at = mods.iter().position(|l| *l == "mod m_game;").unwrap();
        assert!(
            mods[at - 1] < "mod m_game;" && "mod m_game;" < mods[at + 1],
            "{mods:?}"
        );
        let entry = text
            .lines()
            .position(|l| l == "    &m_game::PROBLEM,")
            .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[entry - 1] < lines[entry] && lines[entry] < lines[entry + 1]);
        assert_eq!(text.lines().count(), LIB.lines().count() + 2);
        assert!(text.ends_with('\n'));
        // The test-only problems keep their attribute.
        assert!(text.contains("#[cfg(feature = \"test-problems\")]\nmod test_problems;"));
        assert_eq!(
            register(&text, "m_game").unwrap_err(),
            RegisterError::ModuleTaken("m_game".into())
        );
        assert_eq!(
            register(&text, "m_game").unwrap_err().to_string(),
            "a module `m_game` is there already"
        );
        assert_eq!(
            register(LIB, "scanner").unwrap_err(),
            RegisterError::ModuleTaken("scanner".into())
        );
    }

    #[test]
    fn first_and_last_places_and_bad_shapes() {
        let lib = "mod b;\nmod c;\n\npub static ALL: &[&Problem] = &[\n    &b::PROBLEM,\n    &c::PROBLEM,\n    #[cfg(x)]\n    &z::PROBLEM,\n];\n";
        let first = register(lib, "a").unwrap();
        assert!(first.starts_with("mod a;\nmod b;\n"), "{first}");
        assert!(
            first.contains("= &[\n    &a::PROBLEM,\n    &b::PROBLEM,"),
            "{first}"
        );
        let last = register(lib, "d").unwrap();
        assert!(last.contains("mod c;\nmod d;\n"), "{last}");
        assert!(
            last.contains("    &c::PROBLEM,\n    &d::PROBLEM,\n    #[cfg(x)]"),
            "{last}"
        );
        assert_eq!(
            register("mod a;\n", "b").unwrap_err(),
            RegisterError::NoRegistry
        );
        assert_eq!(
            register("pub static ALL: &[&Problem] = &[\n];\n", "b").unwrap_err(),
            RegisterError::NoModules
        );
        assert_eq!(
            register("mod a;\npub static ALL: &[&Problem] = &[\n", "b").unwrap_err(),
            RegisterError::UnclosedRegistry
        );
        assert_eq!(
            register("&b::PROBLEM,\n", "b").unwrap_err().to_string(),
            "`&b::PROBLEM,` is there already: the problem exists"
        );
    }
}
