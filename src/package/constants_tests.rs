//! Tests of constants (constants.rs).

use super::*;
use crate::package::test_support::constants;

fn substituted(constants: &Constants, text: &str) -> Option<String> {
    let out = constants.substitute(text.as_bytes()).unwrap();
    out.map(|bytes| String::from_utf8(bytes).unwrap())
}

#[test]
fn a_name_or_a_variant_is_replaced_and_anything_else_stays() {
    let c = constants(
        "constants:\n  k: 5\n  n_max:\n    value: 5000000\n    tex: 5\\,000\\,000\n  f: 0.5\n",
    )
    .unwrap();
    assert_eq!(
        substituted(&c, "K = {{k}}\nN = {{n_max}} ({{n_max.tex}}) {{f}}\n").unwrap(),
        "K = 5\nN = 5000000 (5\\,000\\,000) 0.5\n"
    );
    // Unknown names and variants, and braces that hold no name, are left as they are.
    assert_eq!(substituted(&c, "{{other}} {{k.tex}} {{ k }} {{k"), None);
    assert_eq!(substituted(&c, "{{{k}}}").unwrap(), "{5}");
    assert_eq!(substituted(&Constants::default(), "{{k}}"), None);
}

#[test]
fn a_bad_constant_is_an_error_at_its_place() {
    let error = constants("constants:\n  k:\n    tex: x\n").unwrap_err();
    assert!(error.message.contains("must have a `value`"), "{error}");
    assert_eq!(error.line, 3);
    let error = constants("constants:\n  2k: 1\n").unwrap_err();
    assert!(error.message.contains("a constant's name"), "{error}");
    let error = constants("constants:\n  k: [1, 2]\n").unwrap_err();
    assert!(
        error.message.contains("an integer, a float or a string"),
        "{error}"
    );
}

#[test]
fn a_substitution_is_bounded() {
    let big = "x".repeat(1 << 20);
    let c = constants(&format!("constants:\n  k: {big}\n")).unwrap();
    let many = "{{k}}".repeat(100);
    assert_eq!(c.substitute(many.as_bytes()), Err(TooLarge));
    // A file of nothing but openings is read once, not once per opening.
    let openings = "{{".repeat(1 << 19);
    assert_eq!(c.substitute(openings.as_bytes()), Ok(None));
}
