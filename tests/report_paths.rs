//! What may stand at a report's path (`--junit FILE`), through the real binary: a regular file
//! is replaced whole, a character device or a FIFO is written into and stays what it is, a link
//! to grundy's own standard output gets the report there, any other link is refused unless
//! followed on request, and a folder is refused. A report that cannot be written is exit 2.
//!
//! The devices and the link to standard output are made in the project folder (`mknod`, and a
//! link to where `/dev/stdout` leads): the same kinds of file as the machine's own, so that a
//! regression replaces the test's copies, not `/dev/null` for every process on the machine.

use crate::common;

use std::io::{ErrorKind, Read};
use std::os::unix::fs::{symlink, FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::process::Output;

use common::{closing_line, code, dump, mode, set_mode, stderr, stdout, Project};

/// A project with three powers-of-two cases, all passing.
fn project() -> Project {
    let project = Project::new();
    project.powers("a", &[1, 2, 3]);
    project.powers("b", &[4]);
    project.powers("c", &[5, 6]);
    project
}

fn check(project: &Project, extra: &[&str]) -> Output {
    let mut args = vec!["check", "-q", "--junit"];
    args.extend(extra);
    project.grundy(&args)
}

/// The JUnit report in `text` (which may follow other lines), parsed: its number of tests.
fn tests_in(text: &str) -> usize {
    let start = text
        .find("<?xml")
        .unwrap_or_else(|| panic!("no report in {text:?}"));
    let doc = roxmltree::Document::parse(&text[start..]).unwrap();
    doc.root_element()
        .attribute("tests")
        .unwrap()
        .parse()
        .unwrap()
}

fn mknod(path: &Path, major: u32, minor: u32) {
    let made = std::process::Command::new("mknod")
        .arg(path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .status()
        .unwrap();
    assert!(made.success(), "mknod {}", path.display());
}

fn is_char_device(path: &Path) -> bool {
    path.symlink_metadata()
        .unwrap()
        .file_type()
        .is_char_device()
}

#[test]
#[cfg_attr(
    not(as_root),
    ignore = "needs root: makes device nodes in the project folder"
)]
fn a_device_is_written_into_and_a_full_one_is_exit_2_after_the_summary() {
    let project = project();
    let (null, full) = (project.path().join("null"), project.path().join("full"));
    mknod(&null, 1, 3);
    mknod(&full, 1, 7);
    let output = check(&project, &["full"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "3 passed, 0 failed",
        "{}",
        dump(&output)
    );
    assert!(
        stderr(&output).contains(
            "cannot write the JUnit report `full`: `full` refused the report: No space left on \
             device"
        ),
        "{}",
        dump(&output)
    );
    assert!(is_char_device(&full), "the device is never replaced");
    let output = check(&project, &["null"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(is_char_device(&null), "the device is never replaced");
    let others: Vec<String> = common::tree(project.path())
        .into_iter()
        .filter(|file| !file.starts_with("fixtures/"))
        .collect();
    assert_eq!(others, ["full", "null"], "no temporary file is left");
}

#[test]
fn a_link_to_standard_output_or_error_gets_the_report_there() {
    let project = project();
    // Where /dev/stdout and /dev/stderr lead (/proc/self/fd/1 and 2), as links of the project.
    let stdout_link = project.path().join("stdout.xml");
    symlink(std::fs::read_link("/dev/stdout").unwrap(), &stdout_link).unwrap();
    symlink(
        std::fs::read_link("/dev/stderr").unwrap(),
        project.path().join("stderr.xml"),
    )
    .unwrap();
    let output = check(&project, &["stdout.xml"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("Judged 3 cases"),
        "the summary first: {text}"
    );
    assert_eq!(tests_in(&text), 3);
    assert!(stdout_link.symlink_metadata().unwrap().is_symlink());

    let output = check(&project, &["stderr.xml"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(tests_in(&stderr(&output)), 3);
    assert!(!stdout(&output).contains("<?xml"));
}

#[test]
fn a_fifo_gets_the_report_and_stays_a_fifo() {
    let project = project();
    let fifo = project.path().join("report.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // Opened for reading and writing, without waiting: grundy's open finds a reader at once,
    // and reading after grundy is gone takes what it wrote (a few KiB: the pipe holds them).
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(&fifo)
        .unwrap();
    let output = check(&project, &["report.fifo"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let mut report = vec![];
    let mut buffer = [0u8; 4096];
    loop {
        match reader.read(&mut buffer) {
            Ok(read) => report.extend_from_slice(&buffer[..read]),
            Err(error) if error.kind() == ErrorKind::WouldBlock => break,
            Err(error) => panic!("{error}"),
        }
    }
    assert_eq!(tests_in(&String::from_utf8(report).unwrap()), 3);
    let kind = fifo.symlink_metadata().unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO is never replaced");
}

#[test]
fn a_link_is_refused_unless_followed_and_neither_a_link_nor_a_folder_is_replaced() {
    let project = project();
    let target = project.file("theirs.xml", "theirs\n");
    let link = project.path().join("report.xml");
    symlink("theirs.xml", &link).unwrap();
    let output = check(&project, &["report.xml"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert_eq!(closing_line(&output), "3 passed, 0 failed");
    assert!(
        stderr(&output).contains(
            "`report.xml` is a symbolic link (to `theirs.xml`); a report is not written through \
             a link, nor does it replace one: give the path it leads to, or \
             --follow-report-links to follow it"
        ),
        "{}",
        dump(&output)
    );
    assert!(link.symlink_metadata().unwrap().is_symlink());
    assert_eq!(project.read("theirs.xml"), "theirs\n");

    // Asked to, grundy follows it: the file it leads to is replaced, the link stays.
    let output = check(&project, &["report.xml", "--follow-report-links"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(link.symlink_metadata().unwrap().is_symlink());
    assert_eq!(tests_in(&std::fs::read_to_string(&target).unwrap()), 3);

    std::fs::create_dir(project.path().join("reports")).unwrap();
    let output = check(&project, &["reports"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("`reports` is a directory; a report is written as a regular file"),
        "{}",
        dump(&output)
    );
    assert!(project.path().join("reports").is_dir());
}

#[test]
fn a_regular_file_is_replaced_whole_keeping_its_permissions() {
    let project = project();
    let report = project.file("out/junit.xml", "stale\n");
    set_mode(&report, 0o640);
    let inode = report.metadata().unwrap().ino();
    let output = check(&project, &["out/junit.xml"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(tests_in(&project.read("out/junit.xml")), 3);
    assert_eq!(mode(&report), 0o640);
    assert_ne!(
        report.metadata().unwrap().ino(),
        inode,
        "a new file, renamed over the old"
    );
    assert_eq!(common::tree(&project.path().join("out")), ["junit.xml"]);
}

/// `--html` goes by the same rules as `--junit`: a link at its path is refused and left as it
/// is, and followed only on request (`--follow-report-links` with `--html` alone).
#[test]
fn the_html_report_goes_by_the_same_rules() {
    let project = project();
    project.file("theirs.html", "theirs\n");
    let link = project.path().join("page.html");
    symlink("theirs.html", &link).unwrap();
    let output = project.grundy(&["check", "-q", "--html", "page.html"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains(
            "cannot write the HTML report `page.html`: `page.html` is a symbolic link (to \
             `theirs.html`)"
        ),
        "{}",
        dump(&output)
    );
    assert!(link.symlink_metadata().unwrap().is_symlink());
    assert_eq!(project.read("theirs.html"), "theirs\n");

    let output = project.grundy(&[
        "check",
        "-q",
        "--html",
        "page.html",
        "--follow-report-links",
    ]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(link.symlink_metadata().unwrap().is_symlink());
    assert!(project.read("theirs.html").starts_with("<!DOCTYPE html>"));
}
