//! The loop-bound and negated-condition operators, each on the shapes it changes and those it
//! leaves alone. Expected mutants written by hand.

use super::scan::Family;
use super::{of_source, Operator};

/// The mutants of `source` by `operator`, as `line: from → to`.
fn by(source: &str, family: Family, operator: Operator) -> Vec<String> {
    of_source(source.as_bytes(), family)
        .unwrap()
        .iter()
        .filter(|m| m.operator == operator)
        .map(|m| format!("{}: {} → {}", m.line, m.from, m.to))
        .collect()
}

#[test]
fn a_for_headers_bound_moves_the_way_its_relational_mutant_does_not() {
    let source = "for (int i = 0; i < n; i++) s += a[i];\n\
                  for (int i = n; i >= 1; i--) {}\n\
                  for (int i = 1; i * i <= n; ++i) {}\n\
                  for (auto x : v) {}\n\
                  for (int j = 0; j < v.size() && ok; j++) {}\n\
                  for (int j = 0; j < v.size(); j++) {}\n\
                  for (i = 0; i < n << 1; i++) {}\n\
                  for i := 0; i < n; i++ {\n\
                  for (int i = n; i > lo; i--) {}\n";
    assert_eq!(
        by(source, Family::C, Operator::LoopBound),
        [
            "1: n → n - 1",
            "3: n → n + 1",
            "6: v.size() → v.size() - 1",
            "7: n << 1 → (n << 1) - 1",
            "8: n → n - 1",
            "9: lo → lo + 1",
        ]
    );
}

#[test]
fn pythons_range_stop_moves_down_and_up() {
    let source = "for i in range(n):\n\
                  for i in range(1, n + 1):\n\
                  for i in range(10):\n\
                  for i in range(0, len(a), 2):\n\
                  x = r.range(n)\n\
                  for i in range(a if b else c):\n";
    assert_eq!(
        by(source, Family::Python, Operator::LoopBound),
        [
            "1: n → n - 1",
            "1: n → n + 1",
            "2: n + 1 → n + 1 - 1",
            "2: n + 1 → n + 1 + 1",
            "4: len(a) → len(a) - 1",
            "4: len(a) → len(a) + 1",
            "6: a if b else c → (a if b else c) - 1",
            "6: a if b else c → (a if b else c) + 1",
        ]
    );
}

#[test]
fn a_rust_range_with_both_ends_includes_or_excludes_its_end() {
    let source = "for i in 0..n {}\n\
                  for i in 1..=n {}\n\
                  let t = &a[1..];\n\
                  let s = S { x: 1, ..d };\n\
                  let w = (0..k).sum::<u64>();\n";
    assert_eq!(
        by(source, Family::Rust, Operator::LoopBound),
        ["1: .. → ..=", "2: ..= → ..", "5: .. → ..="]
    );
}

#[test]
fn an_ifs_condition_is_negated_unless_it_declares() {
    let negations = |source: &str, family| {
        let all = by(source, family, Operator::Logical);
        all.into_iter()
            .filter(|m| m.contains("→ !(") || m.contains("→ not ("))
            .collect::<Vec<_>>()
    };
    let c = "if (a[i] > 0) x++;\n\
             } else if (s == \"no\") {\n\
             if (int k = f(); k) {}\n\
             if constexpr (N > 1) {}\n";
    assert_eq!(
        negations(c, Family::C),
        [
            "1: a[i] > 0 → !(a[i] > 0)",
            "2: s == \"no\" → !(s == \"no\")"
        ]
    );
    let rust = "if x % 2 == 0 {\n\
                if let Some(v) = o {\n\
                let m = if a < b { a } else { b };\n";
    assert_eq!(
        negations(rust, Family::Rust),
        ["1: x % 2 == 0 → !(x % 2 == 0)", "3: a < b → !(a < b)"]
    );
    let python = "if n % 2 == 0:\n\
                  elif s == \"x\":\n\
                  y = a if c else b\n";
    assert_eq!(
        negations(python, Family::Python),
        [
            "1: n % 2 == 0 → not (n % 2 == 0)",
            "2: s == \"x\" → not (s == \"x\")"
        ]
    );
}
