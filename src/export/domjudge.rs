//! What DOMjudge's problem import reads of a package (its `ImportProblemService`, DOMjudge 8.0
//! to 10.0): `problem.yaml` (`name`, `type` or `validation`, `validator_flags`, `limits`),
//! `domjudge-problem.ini` (`timelimit`, `name`, `externalid`, `special_compare`, `special_run`,
//! and the contest's `points`, `color`, `allow_submit`, ... ), `.timelimit`, `data/sample/` and
//! `data/secret/` (each `.in` with its `.ans`, groups as folders), one output validator's files
//! (`output_validators/` or `output_validator/`), attachments, the statement
//! (`problem.{pdf,html,txt}` at the top or in `problem_statement/`; a package with only a PDF
//! named for its language, `problem.en.pdf`, gets a copy of it as `problem.pdf`), and the
//! submissions below `submissions/<verdict>/`, whose folder alone says what DOMjudge expects of
//! them: `accepted`, `wrong_answer`, `time_limit_exceeded`, `run_time_error` (an
//! `@EXPECTED_RESULTS@` tag in such a submission must name that folder's verdict, so a tag
//! grundy already holds to goes as it is). A submission of any other folder (`rejected/`, `mixed/`, a `submissions.yaml` rule) has
//! no folder DOMjudge reads as its verdict: it is left out, and said to be.
//!
//! The package's ini goes as it is, line for line, but for its `timelimit`, which says the limit
//! verify judged with: the package's own where it has one (`problem.yaml`'s, else the ini's,
//! else `.timelimit`'s, DOMjudge's precedence, which verify follows), else the one verify
//! computed, which DOMjudge cannot. The `.timelimit` then says nothing more, and DOMjudge 10
//! refuses a zip whose `.timelimit` disagrees with the limit in force: it goes only when there is
//! no limit to write.

use std::time::Duration;

use super::walk::Contents;
use super::{Entry, ExportError};
use crate::files::beneath::Tree;
use crate::package::domjudge::{located, parse_ini, read_capped, INI_FILE, TIMELIMIT_FILE};
// The folders whose name alone is a verdict, to DOMjudge as to the format.
use crate::package::submissions::NAMED_FOLDERS as VERDICT_FOLDERS;

/// The folders DOMjudge imports whole.
const FOLDERS: &[&str] = &[
    "data/sample/",
    "data/secret/",
    "output_validators/",
    "output_validator/",
    "attachments/",
];

/// The statements DOMjudge reads, whichever it finds first (8.0 looks at the top first, 9.0 and
/// later in `problem_statement/` first; each takes a PDF before HTML before text).
const STATEMENTS: &[&str] = &[
    "problem.pdf",
    "problem.html",
    "problem.txt",
    "problem_statement/problem.pdf",
    "problem_statement/problem.html",
    "problem_statement/problem.txt",
];

/// Where a statement in a language's name goes in the archive: DOMjudge 8.0 to 10.0 all read it
/// there.
pub const STATEMENT_COPY: &str = "problem.pdf";

/// The folders a PDF statement named for its language (`problem.en.pdf`) is in: the package's
/// top (the legacy format's problemtools builds it there), `problem_statement/` (the legacy
/// format), `statement/` (2023-07).
const LANGUAGE_STATEMENT_FOLDERS: &[&str] = &["", "problem_statement/", "statement/"];

/// The PDF statement among `paths` (sorted, below the package) DOMjudge would not find, named for
/// its language: the English one where there is one, else the first by name.
pub fn statement_in_a_language(paths: &[String]) -> Option<&str> {
    let pdfs: Vec<(&str, &str)> = paths
        .iter()
        .filter_map(|path| Some((path.as_str(), language(path)?)))
        .collect();
    pdfs.iter()
        .find(|(_, language)| *language == "en")
        .or(pdfs.first())
        .map(|(path, _)| *path)
}

/// The language `path` names a PDF statement in (`en` of `statement/problem.en.pdf`), if it is
/// one.
fn language(path: &str) -> Option<&str> {
    let name = LANGUAGE_STATEMENT_FOLDERS
        .iter()
        .find_map(|folder| path.strip_prefix(folder).filter(|n| !n.contains('/')))?;
    let language = name.strip_prefix("problem.")?.strip_suffix(".pdf")?;
    let valid = !language.is_empty()
        && language
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-');
    valid.then_some(language)
}

/// Whether the archive takes the package file at `path` (below the package, `/`-separated) as it
/// is; the ini is [`ini`]'s, and `.timelimit` goes only without a `time_limit` to write.
pub fn imports(path: &str, time_limit: Option<Duration>) -> bool {
    path == "problem.yaml"
        || (path == TIMELIMIT_FILE && time_limit.is_none())
        || is_statement(path)
        || FOLDERS.iter().any(|folder| path.starts_with(folder))
        || submission_folder(path).is_some_and(|folder| VERDICT_FOLDERS.contains(&folder))
}

/// Whether DOMjudge reads the file at `path` as the problem's statement.
pub fn is_statement(path: &str) -> bool {
    STATEMENTS.contains(&path)
}

/// The folder below `submissions/` of a submission's file.
fn submission_folder(path: &str) -> Option<&str> {
    let (folder, _) = path.strip_prefix("submissions/")?.split_once('/')?;
    Some(folder)
}

/// The submissions' files among the paths left out: a note names them.
pub fn left_out(skipped: Vec<String>) -> Vec<String> {
    skipped
        .into_iter()
        .filter(|path| submission_folder(path).is_some())
        .collect()
}

/// The `domjudge-problem.ini` of the archive: the package's own, read beneath `tree`, with its
/// `timelimit` lines replaced by the one `time_limit` (in seconds, DOMjudge's unit) when there is
/// one. An ini DOMjudge could not parse is an error at its line: DOMjudge would ignore all of it,
/// the time limit written into it too.
pub fn ini(tree: &Tree, time_limit: Option<Duration>) -> Result<Entry, ExportError> {
    let file = tree.join(INI_FILE);
    let own = read_capped(&file)?.unwrap_or_default();
    let entries = parse_ini(&own).map_err(|(line, column, why)| {
        located(
            &file,
            line,
            column,
            format!(
                "{why}; DOMjudge ignores an ini it cannot parse, the exported time limit with it: \
                 fix this line and export again"
            ),
        )
    })?;
    let text = match time_limit {
        None => own,
        Some(limit) => {
            let replaced: Vec<_> = entries
                .iter()
                .filter(|entry| entry.key == "timelimit")
                .map(|entry| entry.line..=entry.last_line)
                .collect();
            let mut text: String = own
                .split_inclusive('\n')
                .enumerate()
                .filter(|(index, _)| !replaced.iter().any(|lines| lines.contains(&(index + 1))))
                .map(|(_, line)| line)
                .collect();
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!("timelimit = {}\n", seconds(limit)));
            text
        }
    };
    Ok(Entry {
        name: INI_FILE.to_string(),
        contents: Contents::Made(text.into_bytes()),
        executable: false,
    })
}

/// `limit` in seconds, to the millisecond, without trailing zeros: `1`, `0.25`, `2.5`.
fn seconds(limit: Duration) -> String {
    let millis = limit.as_millis();
    let (whole, part) = (millis / 1000, millis % 1000);
    if part == 0 {
        return whole.to_string();
    }
    let part = format!("{part:03}");
    format!("{whole}.{}", part.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_written_without_trailing_zeros() {
        assert_eq!(seconds(Duration::from_secs(2)), "2");
        assert_eq!(seconds(Duration::from_millis(250)), "0.25");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.5");
        assert_eq!(seconds(Duration::from_millis(3007)), "3.007");
    }

    #[test]
    fn imports_what_domjudge_reads_and_nothing_else() {
        for path in [
            "problem.yaml",
            "data/sample/1.in",
            "data/secret/group/2.ans",
            "output_validators/check/check.cpp",
            "output_validator/validate.py",
            "attachments/tool.py",
            "submissions/accepted/a.py",
            "submissions/time_limit_exceeded/slow/main.cpp",
            "problem.pdf",
            "problem_statement/problem.html",
        ] {
            assert!(imports(path, LIMIT), "{path}");
        }
        for path in [
            "domjudge-problem.ini",
            ".timelimit",
            "data/invalid_input/1.in",
            "data/secret.in",
            "generators/generators.yaml",
            "input_validators/v.py",
            "submissions/rejected/a.py",
            "submissions/submissions.yaml",
            "problem_statement/problem.en.tex",
            "problem_statement/problem.en.pdf",
            "statement/problem.pdf",
        ] {
            assert!(!imports(path, LIMIT), "{path}");
        }
        // Without a limit of its own to write, the ini leaves `.timelimit` to say it.
        assert!(imports(".timelimit", None));
    }

    const LIMIT: Option<Duration> = Some(Duration::from_millis(1500));

    /// The archive's ini made from a package whose own ini is `own`.
    fn ini_of(own: &str, limit: Option<Duration>) -> Result<String, ExportError> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(INI_FILE), own).unwrap();
        let tree = Tree::open(dir.path(), crate::files::beneath::Scope::Package).unwrap();
        let Contents::Made(bytes) = ini(&tree, limit)?.contents else {
            panic!("the ini is made")
        };
        Ok(String::from_utf8(bytes).unwrap())
    }

    #[test]
    fn the_packages_ini_goes_line_for_line_but_its_timelimit() {
        let own = "; colours\nname = \"Twice\"\ntimelimit = \"3\n\"\ncolor = #00ff00\n\
                   [contest]\npoints = 2\nspecial_compare = float";
        assert_eq!(
            ini_of(own, LIMIT).unwrap(),
            "; colours\nname = \"Twice\"\ncolor = #00ff00\n[contest]\npoints = 2\n\
             special_compare = float\ntimelimit = 1.5\n"
        );
        assert_eq!(ini_of(own, None).unwrap(), own);
        assert_eq!(ini_of("", LIMIT).unwrap(), "timelimit = 1.5\n");
    }

    #[test]
    fn an_ini_domjudge_cannot_parse_is_an_error_at_its_line() {
        let error = ini_of("name = Twice\ncolor\n", LIMIT).err().unwrap();
        let ExportError::Package(diagnostic) = error else {
            panic!("{error}")
        };
        assert_eq!((diagnostic.line, diagnostic.column), (2, 1));
        assert!(diagnostic.file.ends_with(INI_FILE), "{diagnostic}");
    }

    #[test]
    fn only_submissions_are_named_as_left_out() {
        let skipped = vec![
            "generators/gen.py".to_string(),
            "submissions/mixed/m.py".to_string(),
            "submissions/submissions.yaml".to_string(),
        ];
        assert_eq!(
            left_out(skipped),
            vec!["submissions/mixed/m.py".to_string()]
        );
    }
}
