use super::scan::Family;
use super::{of_source, sample, Mutant};

/// Each mutant of `source` as `line: from → to`.
pub(super) fn made(source: &str, family: Family) -> Vec<String> {
    of_source(source.as_bytes(), family)
        .unwrap()
        .iter()
        .map(|m| format!("{}: {} → {}", m.line, m.from, m.to))
        .collect()
}

#[test]
fn every_operator_of_a_cpp_loop() {
    let source = "#include <bits/stdc++.h>\n\
                  long long f(int n) {\n\
                  \tlong long s = 0;\n\
                  \tfor (int i = 1; i < n && !done; i++) s += i * 2 % 7;\n\
                  \treturn s;\n\
                  }\n";
    assert_eq!(
        made(source, Family::C),
        [
            "2: long long → int",
            "3: long long → int",
            "3: 0 → 1",
            "4: 1 → 2",
            "4: 1 → 0",
            "4: < → <=",
            "4: && → ||",
            "4: ! → ",
            "4: ++ → --",
            "4: += → -=",
            "4: * → /",
            "4: 2 → 3",
            "4: 2 → 1",
            "4: % → *",
            "4: 7 → 8",
            "4: 7 → 6",
        ]
    );
}

#[test]
fn a_simple_update_statement_is_removed_and_its_semicolon_kept() {
    let mutants = of_source(b"void f() { x += 1; }", Family::C).unwrap();
    let removed: Vec<&Mutant> = mutants
        .iter()
        .filter(|m| m.operator == super::Operator::Removed)
        .collect();
    assert_eq!(removed.len(), 1);
    assert_eq!(removed[0].from, "x += 1");
    assert_eq!(
        String::from_utf8(removed[0].apply(b"void f() { x += 1; }")).unwrap(),
        "void f() { ; }"
    );
    // Not a statement of its own: a loop's update, a declaration.
    let kept = of_source(b"for (;; i += 2) {} int y = z;", Family::C).unwrap();
    assert!(kept.iter().all(|m| m.operator != super::Operator::Removed));
}

#[test]
fn java_long_and_its_literals() {
    assert_eq!(
        made(
            "static long m = 1000000007L; // 5 + 5\nString s = \"a < b\";",
            Family::C
        ),
        [
            "1: long → int",
            "1: 1000000007L → 1000000008L",
            "1: 1000000007L → 1000000006L"
        ]
    );
}

#[test]
fn python_words_comments_and_removed_updates() {
    assert_eq!(
        made(
            "import sys\nif a and not b:  # x < y\n    total += a % 10\nprint('1 + 1')\n",
            Family::Python
        ),
        [
            "2: a and not b → not (a and not b)",
            "2: and → or",
            "2: not → ",
            "3: total += a % 10 → pass",
            "3: += → -=",
            "3: % → *",
            "3: 10 → 11",
            "3: 10 → 9",
        ]
    );
}

#[test]
fn rust_widths_suffixes_and_macros() {
    assert_eq!(
        made(
            "use std::io;\nlet x: i64 = 3u64 - 1; println!(\"{}\", x);",
            Family::Rust
        ),
        [
            "2: i64 → i32",
            "2: 3u64 → 4u64",
            "2: 3u64 → 2u64",
            "2: - → +",
            "2: 1 → 2",
            "2: 1 → 0",
        ]
    );
}

#[test]
fn every_mutant_differs_from_its_source_in_exactly_one_place() {
    let source = b"int main() { long n; if (n >= 2 || n == 0) n -= 1; return n / 3; }";
    for mutant in of_source(source, Family::C).unwrap() {
        let mutated = mutant.apply(source);
        assert_ne!(mutated, source.to_vec(), "{mutant:?}");
        let prefix = source
            .iter()
            .zip(&mutated)
            .take_while(|(a, b)| a == b)
            .count();
        let suffix = source
            .iter()
            .rev()
            .zip(mutated.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        // What differs lies within the one edit.
        assert!(prefix + suffix >= source.len().min(mutated.len()) - mutant.from.len());
        assert!(mutant.diff().contains(" → "), "{}", mutant.diff());
    }
}

#[test]
fn the_diff_names_the_change_and_shows_the_line_mutated() {
    let mutants = of_source(b"x = 1\nwhile i < n:\n    i += 1\n", Family::Python).unwrap();
    let relational = mutants.iter().find(|m| m.from == "<").unwrap();
    assert_eq!(relational.diff(), "< → <=: while i <= n:");
    let removed = mutants.iter().find(|m| m.to == "pass").unwrap();
    assert_eq!(removed.diff(), "i += 1 → pass: pass");
}

#[test]
fn a_sample_is_the_same_for_a_seed_and_in_order() {
    let source = b"int f(int a, int b) { return a + b * 2 - a / 3 % 4 + (a < b) + (a == b); }";
    let mut all = of_source(source, Family::C).unwrap();
    for (n, mutant) in all.iter_mut().enumerate() {
        mutant.number = n + 1;
    }
    let numbers = |picked: Vec<Mutant>| picked.iter().map(|m| m.number).collect::<Vec<_>>();
    let one = numbers(sample(all.clone(), 5, 7));
    assert_eq!(one, numbers(sample(all.clone(), 5, 7)));
    assert_eq!(one.len(), 5);
    assert!(one.windows(2).all(|w| w[0] < w[1]));
    assert_ne!(one, numbers(sample(all.clone(), 5, 8)));
    assert_eq!(numbers(sample(all.clone(), 100, 7)).len(), all.len());
}
