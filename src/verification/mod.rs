//! Verification: a problem's submissions judged against what they must get, the way
//! problemtools' `verifyproblem` and BAPCtools' `bt run` do, over every problem at once on the
//! worker pool: [`judge`] (every submission on every case, the output judged by the checker
//! [`crate::validation::checkers`] picks, under the limit [`time_limit`] fixes or computes),
//! [`settle`] (each submission settled as its last run is in), [`results`] (what judging found,
//! as data), [`outcome`] (each submission against what it must get), [`explain`] (why one was
//! likely not), [`first_failure`] and
//! [`select`] (which runs and submissions are judged; under `--partition`, [`other_buckets`]
//! times the accepted submissions a computed limit needs from the other buckets), [`report`] (what is reported of each
//! problem, streamed in order through the shared reporters), and [`timing`] (`timelimit`'s
//! timing of the accepted submissions and its report).
//!
//! The problems come from [`crate::model`], their programs from [`crate::build`], their data's
//! validity from [`crate::validation`]; which of these stages run, with which flags, and the
//! exit code are the front-ends' (`commands::verify`, `commands::timelimit`).

mod explain;
mod first_failure;
pub mod judge;
pub mod other_buckets;
mod outcome;
pub mod report;
pub mod results;
pub mod select;
mod settle;
pub mod time_limit;
pub mod timing;
pub mod timing_cache;
