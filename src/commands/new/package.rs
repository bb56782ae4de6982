//! `grundy new NAME --package`: a Kattis problem package that every command works on at once,
//! without Rust or a rebuild: `problem.yaml`, a LaTeX statement, a sample and a few secret
//! cases, an input validator (and, in 2025-09, an answer validator), an accepted and a wrong
//! submission, `generators/generators.yaml` (BAPCtools' format) with one random generator
//! taking `{seed}`, and a `.gitignore` for what grundy writes into it; the programs in the
//! language the user picks (`--lang`), the format version too (`--format`): each written as the
//! peers that read that version accept it (problemtools' `verifyproblem` legacy and 2023-07,
//! BAPCtools' `bt` 2025-09; both read only LaTeX statements in common). The example problem is
//! a sum of integers, to be replaced file by file.
//!
//! Writes the folder `NAME/` in the current folder and nothing else; refuses a name that exists.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use crate::cli::{Lang, PackageFormat};
use crate::files::beneath::{Scope, Tree};
use crate::files::{Existing, Folder};

impl Lang {
    /// The file extension of its programs.
    fn extension(self) -> &'static str {
        match self {
            Lang::Python => "py",
            Lang::Cpp => "cpp",
        }
    }

    /// Its name for people.
    fn name(self) -> &'static str {
        match self {
            Lang::Python => "Python",
            Lang::Cpp => "C++",
        }
    }

    /// Its programs: (accepted, wrong, input validator, generator, answer validator) sources.
    fn programs(self) -> [&'static str; 5] {
        match self {
            Lang::Python => [
                include_str!("package_template/python/accepted.py"),
                include_str!("package_template/python/wrong.py"),
                include_str!("package_template/python/validate.py"),
                include_str!("package_template/python/random_case.py"),
                include_str!("package_template/python/validate_answer.py"),
            ],
            Lang::Cpp => [
                include_str!("package_template/cpp/accepted.cpp"),
                include_str!("package_template/cpp/wrong.cpp"),
                include_str!("package_template/cpp/validate.cpp"),
                include_str!("package_template/cpp/random_case.cpp"),
                include_str!("package_template/cpp/validate_answer.cpp"),
            ],
        }
    }
}

impl PackageFormat {
    /// How `problem.yaml` names it, and its `problem_format_version` line (none in legacy,
    /// which older tools read best without one; `2023-07-draft` as problemtools spells it).
    fn version(self) -> (&'static str, &'static str) {
        match self {
            PackageFormat::Legacy => ("legacy, without a problem_format_version", ""),
            PackageFormat::V2023_07 => {
                ("version 2023-07", "problem_format_version: 2023-07-draft\n")
            }
            PackageFormat::V2025_09 => ("version 2025-09", "problem_format_version: 2025-09\n"),
        }
    }

    /// `problem.yaml`'s limits: legacy sets no time limit (it is computed from the accepted
    /// submissions' times), the others one second.
    fn limits(self) -> &'static str {
        match self {
            PackageFormat::Legacy => {
                "# No time limit: the legacy format computes it from the accepted submissions' CPU\n\
                 # times (`grundy timelimit` shows how)."
            }
            _ => {
                "limits:\n  # Seconds of CPU time per case; `grundy timelimit` times the accepted \
                 submissions and says\n  # what the format's rules make of them.\n  time_limit: 1.0"
            }
        }
    }

    /// The folder of the statement.
    fn statement_folder(self) -> &'static str {
        match self {
            PackageFormat::Legacy => "problem_statement",
            _ => "statement",
        }
    }

    /// How people name it.
    fn name(self) -> &'static str {
        match self {
            PackageFormat::Legacy => "legacy",
            PackageFormat::V2023_07 => "2023-07",
            PackageFormat::V2025_09 => "2025-09",
        }
    }
}

/// The package's `.gitignore`: what grundy writes into a package that a repository need not
/// keep. Its build folder lands beside the package, where this file cannot name it.
const GITIGNORE: &str = include_str!("package_template/gitignore");

/// The cases written with the package, each `(path below data/, input, answer)`; the answers
/// worked out by hand. `generators.yaml` lists the same inputs, so `generate` remakes them.
pub const CASES: [(&str, &str, &str); 4] = [
    ("sample/1", "3\n1 2 3\n", "6\n"),
    ("secret/negative", "4\n-5 2 -7 1\n", "-9\n"),
    (
        "secret/large",
        "3\n1000000000 1000000000 -1000000000\n",
        "1000000000\n",
    ),
    ("secret/single", "1\n0\n", "0\n"),
];

/// The names the package goes by: its folder `sum-up`, its title `Sum Up`.
struct Names {
    name: String,
    title: String,
}

impl Names {
    /// A package name: lowercase letters, digits, `-` and `_`, starting with a letter or digit
    /// (what the format allows of a problem's short name, and safe as a folder name anywhere).
    fn new(name: &str) -> Result<Names> {
        let valid = name.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            && name.len() <= 64
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !valid {
            bail!(
                "package name `{}` must be lowercase letters, digits, `-` and `_`, starting with \
                 a letter or digit (at most 64), like `sum-up`",
                crate::escape::visible_line(name)
            );
        }
        Ok(Names {
            name: name.to_string(),
            title: title_of(name),
        })
    }
}

/// Every file of the package for `names` in `lang` and `format`, each `(path below the
/// package, contents)`.
fn files(names: &Names, lang: Lang, format: PackageFormat, uuid: &str) -> Vec<(PathBuf, String)> {
    let ext = lang.extension();
    let [accepted, wrong, validate, random, validate_answer] = lang.programs();
    let (format_name, version) = format.version();
    let fill = |template: &str| {
        template
            .replace("{{format}}", format_name)
            .replace("{{version}}", version)
            .replace("{{limits}}", format.limits())
            .replace("{{title}}", &names.title)
            .replace("{{uuid}}", uuid)
            .replace("{{solution}}", &format!("sol.{ext}"))
            // Not `random.py`: Python puts a script's own folder first on its module path, so a
            // generator of that name imports itself for `import random`.
            .replace("{{generator}}", &format!("random_case.{ext}"))
    };
    let mut files = vec![
        (
            "problem.yaml".into(),
            fill(include_str!("package_template/problem.yaml.tmpl")),
        ),
        (
            format!("{}/problem.en.tex", format.statement_folder()).into(),
            fill(include_str!("package_template/problem.en.tex.tmpl")),
        ),
        (".gitignore".into(), GITIGNORE.into()),
        (
            "generators/generators.yaml".into(),
            fill(include_str!("package_template/generators.yaml.tmpl")),
        ),
        (
            format!("generators/random_case.{ext}").into(),
            random.into(),
        ),
        (
            format!("input_validators/validate.{ext}").into(),
            validate.into(),
        ),
        (
            format!("submissions/accepted/sol.{ext}").into(),
            accepted.into(),
        ),
        (
            format!("submissions/wrong_answer/wrong.{ext}").into(),
            wrong.into(),
        ),
    ];
    // bt warns (and exits 1) without an answer validator; only 2025-09 has their folder.
    if format == PackageFormat::V2025_09 {
        files.push((
            format!("answer_validators/validate_answer.{ext}").into(),
            validate_answer.into(),
        ));
    }
    for (case, input, answer) in CASES {
        files.push((format!("data/{case}.in").into(), input.into()));
        files.push((format!("data/{case}.ans").into(), answer.into()));
    }
    files
}

/// Writes the package `name` in `lang` below `parent`; returns its folder.
pub fn scaffold(parent: &Path, name: &str, lang: Lang, format: PackageFormat) -> Result<PathBuf> {
    let names = Names::new(name)?;
    let folder = parent.join(&names.name);
    // The package's folder is made here, new, and every file is written beneath its
    // descriptor: nothing lands elsewhere if a folder is swapped for a link meanwhile.
    let made = Folder::open(parent)
        .and_then(|parent| parent.create_folder(names.name.as_ref()))
        .map_err(|error| match error.already_exists() {
            true => anyhow::anyhow!(
                "`{}` exists already; pick another name, or remove it first",
                folder.display()
            ),
            false => anyhow::anyhow!("cannot create `{}`: {}", folder.display(), error.reason()),
        })?;
    let tree = Tree::of(made, Scope::Package);
    let written = files(&names, lang, format, &uuid())
        .into_iter()
        .try_for_each(|(path, text)| tree.join(path).write(text.as_bytes(), Existing::Keep));
    if let Err(error) = written {
        // Leave nothing half-made behind: the folder is ours, created above.
        let _ = std::fs::remove_dir_all(&folder);
        return Err(error.into());
    }
    Ok(folder)
}

/// What to do next, printed after scaffolding the package in `folder`.
pub fn next_steps(folder: &Path, lang: Lang, format: PackageFormat) -> String {
    let shown = folder.display();
    let check = format!(
        "grundy check --exec submissions/accepted/sol.{}",
        lang.extension()
    );
    let stress = format!(
        "grundy stress --exec submissions/wrong_answer/wrong.{}",
        lang.extension()
    );
    let steps = [
        (check.as_str(), "judge a program on the data"),
        (
            "grundy generate",
            "make the random cases generators.yaml lists",
        ),
        (
            stress.as_str(),
            "random cases until the wrong one is caught",
        ),
        ("grundy validate", "check the inputs"),
        ("grundy verify", "validators and every submission"),
    ];
    let width = steps
        .iter()
        .map(|(command, _)| command.len())
        .max()
        .unwrap_or(0);
    let mut text = format!(
        "created {shown}/ (a Kattis package, format {}; programs in {})\nnext, inside it \
         (cd {shown}):\n",
        format.name(),
        lang.name()
    );
    for (command, what) in steps {
        text += &format!("  {command:<width$}   {what}\n");
    }
    text += &format!(
        "then replace the example problem (a sum of integers) file by file: \
         {}/problem.en.tex says what it is\n",
        format.statement_folder()
    );
    let name = folder.file_name().unwrap_or_default().to_string_lossy();
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        let plain: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
        text += &format!(
            "note: problemtools' verifyproblem refuses, and bt warns of, a package folder named \
             other than lowercase letters and digits: rename it (`{plain}`) before they read it\n"
        );
    }
    text
}

/// A title from an id: `take-away_2` is `Take Away 2`.
pub fn title_of(id: &str) -> String {
    id.split(['-', '_'])
        .filter(|word| !word.is_empty())
        .map(|word| {
            let (first, rest) = word.split_at(1);
            first.to_ascii_uppercase() + rest
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A random (version 4) UUID for `problem.yaml`, from the kernel's random source.
fn uuid() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let random = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if random.is_err() {
        // No random source: the time and the process still make it unlikely to repeat.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = (nanos ^ (u128::from(std::process::id()) << 64)).to_le_bytes();
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_titled() {
        assert_eq!(Names::new("sum-up_2").unwrap().title, "Sum Up 2");
        for bad in ["Sum", "-x", "", "a/b", "a b", "../x", &"x".repeat(65)] {
            assert!(Names::new(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_placeholder_is_filled_and_the_uuid_has_its_version() {
        let id = uuid();
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        for lang in [Lang::Python, Lang::Cpp] {
            let names = Names::new("sum-up").unwrap();
            for format in [
                PackageFormat::Legacy,
                PackageFormat::V2023_07,
                PackageFormat::V2025_09,
            ] {
                for (path, text) in files(&names, lang, format, &id) {
                    assert!(!text.contains("{{"), "{}", path.display());
                }
            }
        }
    }

    /// The answers written by hand are the sums of their inputs, computed here independently.
    #[test]
    fn the_written_answers_are_the_sums_of_the_inputs() {
        for (case, input, answer) in CASES {
            let words: Vec<i64> = input
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            assert_eq!(words[0] as usize, words.len() - 1, "{case}");
            let sum: i64 = words[1..].iter().sum();
            assert_eq!(answer, format!("{sum}\n"), "{case}");
        }
    }

    #[test]
    fn the_generators_file_lists_the_written_cases() {
        let names = Names::new("sum-up").unwrap();
        let (_, yaml) = files(&names, Lang::Python, PackageFormat::default(), "u")
            .into_iter()
            .find(|(path, _)| path.ends_with("generators.yaml"))
            .unwrap();
        // It reads as YAML, and names each written case with its input.
        assert!(crate::package::yaml::parse(Path::new("generators.yaml"), &yaml).is_ok());
        for (case, input, _) in CASES {
            let (_, name) = case.split_once('/').unwrap();
            let quoted = format!("in: {input:?}");
            assert!(yaml.contains(&quoted), "{case}: {quoted}");
            assert!(yaml.contains(name), "{case}");
        }
        assert!(yaml.contains("generate: random_case.py {seed}"));
    }

    #[test]
    fn an_existing_folder_is_refused_and_a_new_one_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let folder = scaffold(dir.path(), "sum-up", Lang::Cpp, PackageFormat::default()).unwrap();
        assert!(folder.join("submissions/accepted/sol.cpp").is_file());
        assert!(folder.join("data/secret/large.ans").is_file());
        let again = scaffold(dir.path(), "sum-up", Lang::Python, PackageFormat::default())
            .unwrap_err()
            .to_string();
        assert!(again.contains("exists already"), "{again}");
        assert!(!folder.join("submissions/accepted/sol.py").exists());
    }

    #[test]
    fn no_python_program_is_named_like_a_module_the_programs_import() {
        let names = Names::new("sum-up").unwrap();
        let python: Vec<_> = files(&names, Lang::Python, PackageFormat::default(), "u")
            .into_iter()
            .filter(|(path, _)| path.extension().is_some_and(|ext| ext == "py"))
            .collect();
        let imported: Vec<&str> = python
            .iter()
            .flat_map(|(_, text)| text.lines())
            .filter_map(|line| line.strip_prefix("import "))
            .flat_map(|modules| modules.split(',').map(str::trim))
            .collect();
        assert!(imported.contains(&"random"), "{imported:?}");
        for (path, _) in &python {
            let stem = path.file_stem().unwrap().to_str().unwrap();
            assert!(
                !imported.contains(&stem),
                "{} shadows a module",
                path.display()
            );
        }
    }
}
