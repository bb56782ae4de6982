//! grundy's integration tests, one test binary: the command line tested through the real
//! binary (`CARGO_BIN_EXE_grundy`), each command and concern a module of its own file in this
//! folder. One binary, not one per file, because each binary links the whole dependency tree
//! again and runs its tests apart from the others': together they are linked once and share the
//! test threads. Run one file's tests with `cargo test --test cli verify::` (its module name).

mod common;
#[macro_use]
mod exec_support;

mod add;
mod bless;
mod book;
mod box_uids;
mod build_cache;
mod check;
mod checkers;
mod checktestdata;
mod checktestdata_runs;
mod config;
mod daily_loop;
mod exec_answers;
mod exec_containment;
mod exec_hostile;
mod exec_isolate;
mod exec_leftovers;
mod exec_limits;
mod exec_verdicts;
mod export;
mod formats;
mod generate;
mod generate_errors;
mod hostile_output;
mod hostile_packages;
mod html_report;
mod html_report_contest;
mod html_report_mutants;
mod interactive;
mod layout;
mod list;
mod multipass;
mod mutants;
mod new;
mod new_package;
mod numbers;
mod package_warnings;
mod package_writes;
mod partitions;
mod plan;
mod readme_judges;
mod report_merge;
mod report_paths;
mod reports;
mod sg;
mod shipped;
mod solve;
mod store;
mod stress;
mod suite;
mod timelimit;
mod validate;
mod validate_reports;
mod verify;
mod verify_builtin;
mod verify_checktestdata;
mod verify_containment;
mod verify_contest;
mod verify_domjudge;
mod verify_explain;
mod verify_format;
mod verify_languages;
mod verify_runs;
mod verify_scoring;
mod verify_stream;
mod verify_toolchains;
