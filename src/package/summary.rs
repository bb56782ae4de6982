//! A package in a few lines of text: what `grundy verify -v` can print and tests assert on.

use std::fmt;

use super::programs::{Kind, Program};
use super::{OutputValidator, Package};

impl fmt::Display for Package {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.metadata;
        let title = m
            .display_name()
            .map_or(String::new(), |n| format!(" \"{n}\""));
        writeln!(
            f,
            "{}{title} ({}, {})",
            self.name, m.version, m.problem_type
        )?;
        let l = &m.limits;
        let time = match l.time_limit {
            Some(t) => format!("{}s", t.as_secs_f64()),
            None => format!(
                "computed (×{} of the slowest AC, by {}s)",
                l.ac_to_time_limit,
                l.time_resolution.as_secs_f64()
            ),
        };
        let mib = |v: Option<u64>| v.map_or("default".to_string(), |v| format!("{v} MiB"));
        writeln!(
            f,
            "limits: time {time}, TLE margin ×{}, memory {}, output {}",
            l.time_limit_to_tle,
            mib(l.memory_mib),
            mib(l.output_mib)
        )?;
        let groups: Vec<&str> = self.data.groups.iter().map(|g| g.id.as_str()).collect();
        writeln!(f, "groups: {}", groups.join(", "))?;
        let cases: Vec<&str> = self.data.cases.iter().map(|c| c.id.as_str()).collect();
        writeln!(f, "cases: {}", cases.join(", "))?;
        writeln!(f, "input validators: {}", programs(&self.input_validators))?;
        if !self.answer_validators.is_empty() {
            writeln!(
                f,
                "answer validators: {}",
                programs(&self.answer_validators)
            )?;
        }
        match &self.output_validator {
            OutputValidator::Default => writeln!(f, "output validator: default")?,
            OutputValidator::Custom(list) => writeln!(f, "output validator: {}", programs(list))?,
        }
        writeln!(f, "submissions:")?;
        for s in &self.submissions {
            let expected = s
                .expectation
                .as_ref()
                .map_or("nothing expected".to_string(), |e| e.describe());
            writeln!(f, "  {} [{}]: {expected}", s.id, kind(&s.program))?;
        }
        Ok(())
    }
}

fn programs(list: &[Program]) -> String {
    if list.is_empty() {
        return "none".into();
    }
    list.iter()
        .map(|p| format!("{} [{}]", p.name, kind(p)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn kind(program: &Program) -> String {
    match &program.kind {
        Kind::Scripts => "build/run".into(),
        Kind::Source {
            language,
            entry: Some(entry),
        } => format!("{} {entry}", language.code),
        Kind::Source {
            language,
            entry: None,
        } => language.code.into(),
        Kind::Checktestdata { .. } => "checktestdata".into(),
        Kind::Unsupported(what) => format!("unsupported: {what}"),
        Kind::Invalid(why) => format!("invalid: {why}"),
    }
}
