//! Kattis problem packages (legacy, 2023-07, 2025-09) as data: reading a package and
//! understanding it, without running anything.

mod default_validator;
mod expectations;
mod languages;
mod limits;
mod metadata;
mod programs;
mod settings;
mod submissions;
mod testdata;
mod yaml;
