//! Discovery: finding the cases under the fixtures root ([`walk`]), selecting them with filters
//! ([`filter`]) and splitting them into partitions ([`partition`]); where the answers of judged
//! cases lie ([`answers`]). Layout mistakes are errors here, before anything runs.
//!
//! A folder holding `problem.yaml` is a Kattis problem package rather than a folder of cases
//! ([`packages`]): the fixtures root itself (`--fixtures PKG`) or any folder in it (a contest).
//!
//! Two group names mean something, and [`case`] reads them into each case. Below a folder named
//! [`INVALID_GROUP`] (at any depth) inputs are deliberately malformed: the expected file is
//! `<name>.err`, the exact error message the solver must reject the input with, and only there
//! may an `.err` file stand. Below a folder named `extended` inputs use the extended limits
//! rather than the original ones.

mod answers;
mod case;
mod filter;
mod packages;
mod partition;
mod walk;

pub use answers::{answer_folders, package_answers};
pub use case::{constraints_of, Case, Expects, INVALID_GROUP};
pub use filter::{select_cases, Judged, LeftOut};
pub use packages::{cases_of, PackageCases, ReadEach};
pub use partition::{NoBucket, Partition};
pub use walk::{discover, is_kebab_case};
