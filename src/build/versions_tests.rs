//! Tests of asking a tool its version (versions.rs), with stand-in tools the tests write.

use super::*;
use crate::package::languages::Entry;
use std::os::unix::fs::PermissionsExt;

/// A language whose tool is the script `text` at a path of its own.
fn language_of(dir: &std::path::Path, name: &str, text: &str) -> Language {
    let tool = dir.join(name);
    std::fs::write(&tool, text).unwrap();
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    let tool: &'static str = Box::leak(tool.display().to_string().into_boxed_str());
    Language {
        code: "test",
        name: "Test",
        extensions: &["test"],
        shebang: None,
        compile: None,
        compile_env: &[],
        run: "{main}",
        tools: Box::leak(vec![tool].into_boxed_slice()),
        version: &["--version"],
        entry: Entry::File(&[]),
    }
}

#[test]
fn the_first_line_a_tool_says_is_its_version_on_stdout_or_else_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let out = language_of(
        dir.path(),
        "out",
        "#!/bin/sh\n[ \"$1\" = --version ] || exit 3\nprintf '\\n  tool 1.2.3  \\nmore\\n'\n",
    );
    let Version::Said { tool, line } = version(&out) else {
        panic!("{:?}", version(&out));
    };
    assert_eq!(line, "tool 1.2.3");
    assert_eq!(tool, out.tools[0]);
    let err = language_of(dir.path(), "err", "#!/bin/sh\necho 'jvm \"17\"\x1b' >&2\n");
    assert_eq!(
        version(&err).to_string(),
        format!("{}: jvm \"17\"\\x1b", err.tools[0])
    );
    let silent = language_of(dir.path(), "silent", "#!/bin/sh\nexit 0\n");
    assert!(matches!(version(&silent), Version::Unknown { .. }));
}

#[test]
fn a_missing_tool_says_where_it_was_looked_for() {
    let dir = tempfile::tempdir().unwrap();
    let missing = Language {
        tools: &["/nonexistent/tool"],
        ..language_of(dir.path(), "x", "")
    };
    assert_eq!(
        version(&missing).to_string(),
        "missing: /nonexistent/tool not found"
    );
}
