//! Which validators include the `validation.h` BAPCtools' validators use without shipping it:
//! grundy supplies its own to them when it builds ([`crate::build`]), and the package is
//! warned of, since the peers supply none (BAPCtools 2026.10.0 and problemtools fail to compile
//! such a validator: `validation.h: No such file or directory`).

use std::io::Read;

use super::programs::{Kind, Program, SUPPLIED_HEADER};

/// How much of each source file is searched for the `#include`.
const SCAN_BYTES: u64 = 64 * 1024;

/// Whether `program` (a validator) needs the header supplied: it is C++, one of its files
/// includes `validation.h` (in its first 64 KiB), and none of its files is named so.
pub fn needs_header(program: &Program) -> bool {
    let Kind::Source { language, .. } = &program.kind else {
        return false;
    };
    if language.code != "cpp" {
        return false;
    }
    let ships = program
        .files
        .iter()
        .any(|f| f.file_name().is_some_and(|n| n == SUPPLIED_HEADER));
    !ships
        && program.files.iter().any(|file| {
            let mut bytes = Vec::new();
            let read = file
                .open()
                .ok()
                .and_then(|opened| opened.take(SCAN_BYTES).read_to_end(&mut bytes).ok());
            read.is_some() && includes_header(&bytes)
        })
}

/// Whether a source's text has an `#include` of `validation.h` (quoted or bracketed).
fn includes_header(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes).lines().any(|line| {
        let Some(directive) = line.trim_start().strip_prefix('#') else {
            return false;
        };
        let Some(target) = directive.trim_start().strip_prefix("include") else {
            return false;
        };
        let target = target.trim();
        target == format!("\"{SUPPLIED_HEADER}\"") || target == format!("<{SUPPLIED_HEADER}>")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::test_support::{root, tree};

    fn program(files: &[(&str, &str)]) -> (tempfile::TempDir, Program) {
        let dir = tree(files);
        let path = root(dir.path()).join("validator");
        let program = Program::new(&path, None, None).unwrap();
        (dir, program)
    }

    #[test]
    fn a_cpp_validator_including_the_header_without_shipping_it_needs_it() {
        let (_dir, p) = program(&[(
            "validator/v.cpp",
            "#include \"validation.h\"\nint main() {}\n",
        )]);
        assert!(needs_header(&p));
        let (_dir, p) = program(&[("validator/v.cpp", "  #  include <validation.h>\n")]);
        assert!(needs_header(&p));
        let (_dir, p) = program(&[
            ("validator/v.cpp", "#include \"validation.h\"\n"),
            ("validator/validation.h", "// the package's own\n"),
        ]);
        assert!(!needs_header(&p), "shipped");
        let (_dir, p) = program(&[("validator/v.cpp", "// see validation.h\nint main() {}\n")]);
        assert!(!needs_header(&p), "not included");
        let (_dir, p) = program(&[("validator/v.py", "# include \"validation.h\"\n")]);
        assert!(!needs_header(&p), "not C++");
    }
}
