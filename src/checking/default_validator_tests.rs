//! Tests of the default output validator, from the spec's definitions.

use super::*;

fn judge(args: &[&str], answer: &str, output: &str) -> Judgement {
    validate(
        answer.as_bytes(),
        output.as_bytes(),
        &Options::parse(args).unwrap(),
    )
}

fn accepts(args: &[&str], answer: &str, output: &str) -> bool {
    judge(args, answer, output) == Judgement::Accepted
}

fn message(args: &[&str], answer: &str, output: &str) -> String {
    match judge(args, answer, output) {
        Judgement::WrongAnswer(m) => m,
        other => panic!("expected a wrong answer, got {other:?}"),
    }
}

#[test]
fn whitespace_only_separates_tokens_by_default() {
    for output in ["A B", " A  B \t\n", "A\nB", "A\x0bB\x0c", "A\r\nB\r\n"] {
        assert!(accepts(&[], "A B\n", output), "{output:?}");
    }
    for output in ["", " ", "\n", "\t"] {
        assert!(accepts(&[], "", output), "{output:?}");
        assert!(!accepts(&[], "", "0"));
    }
    assert!(!accepts(&[], "A B", "A B X"));
    assert!(!accepts(&[], "A B", "X A B"));
    assert!(!accepts(&[], "A B", "AB"));
}

#[test]
fn space_change_sensitive_compares_every_whitespace_run() {
    let flags = ["space_change_sensitive"];
    assert!(accepts(&flags, "A B\n", "A B\n"));
    assert!(accepts(&flags, "", ""));
    for output in [
        "A  B\n", "A B", "A B\n\n", " A B\n", "A\tB\n", "A B \n", "A B\r\n",
    ] {
        assert!(!accepts(&flags, "A B\n", output), "{output:?}");
    }
    assert_eq!(
        message(&flags, "A B\n", "A  B\n"),
        "line 1, column 2 (answer line 1): whitespace differs: expected \" \", found \"  \""
    );
    assert_eq!(
        message(&flags, "A B\n", "A B"),
        "the output ends too early: the answer continues with whitespace \"\\n\" on its line 1"
    );
    assert_eq!(
        message(&flags, "A\n", "A\n\n"),
        "line 1, column 2 (answer line 1): whitespace differs: expected \"\\n\", found \"\\n\\n\""
    );
}

#[test]
fn case_is_ignored_for_ascii_letters_unless_case_sensitive() {
    assert!(accepts(&[], "Yes", "YES"));
    assert!(accepts(&[], "possible", "PoSsIbLe"));
    assert!(!accepts(&[], "é", "É"), "only ASCII letters fold");
    assert!(!accepts(&["case_sensitive"], "Yes", "YES"));
    assert!(accepts(&["case_sensitive"], "Yes", "Yes"));
    assert_eq!(
        message(&["case_sensitive"], "Yes", "YES"),
        "line 1, column 1 (answer line 1), token 1: expected `Yes`, found `YES`"
    );
    assert_eq!(
        message(&[], "Yes", "No"),
        "line 1, column 1 (answer line 1), token 1: expected `Yes`, found `No` (ignoring case)"
    );
}

#[test]
fn without_a_tolerance_numbers_are_strings() {
    assert!(!accepts(&[], "1.0", "1"));
    assert!(!accepts(&[], "0.5", ".5"));
    assert!(accepts(&[], "1E5", "1e5"), "strings compare up to case");
}

#[test]
fn absolute_and_relative_tolerances_accept_within_either() {
    let abs = ["float_absolute_tolerance", "0.01"];
    assert!(accepts(&abs, "1.000", "1.009"));
    assert!(accepts(&abs, "1.000", "0.995"));
    assert!(!accepts(&abs, "1.000", "1.02"));
    let rel = ["float_relative_tolerance", "0.01"];
    assert!(accepts(&rel, "1000", "1010"));
    assert!(!accepts(&rel, "1000", "1011"));
    assert!(
        accepts(&rel, "0", "0"),
        "relative tolerance of 0 allows only 0"
    );
    assert!(!accepts(&rel, "0", "1e-300"));
    let both = [
        "float_absolute_tolerance",
        "0.5",
        "float_relative_tolerance",
        "0.01",
    ];
    assert!(accepts(&both, "1000", "1010"), "within the relative one");
    assert!(accepts(&both, "1", "1.4"), "within the absolute one");
    assert!(!accepts(&both, "1", "1.6"));
    let short = ["float_tolerance", "1e-6"];
    assert!(
        accepts(&short, "1000000", "1000000.9"),
        "relative 1e-6 of 1e6 is 1"
    );
    assert!(accepts(&short, "0", "0.0000009"), "absolute 1e-6");
    assert!(!accepts(&short, "0", "0.000002"));
}

#[test]
fn any_float_formatting_is_accepted_and_integers_compare_as_floats() {
    let tol = ["float_tolerance", "1e-9"];
    assert!(accepts(&tol, "0.0314", "3.14000000e-2"));
    assert!(accepts(&tol, "5", "5.0"));
    assert!(accepts(&tol, "5", "+5."));
    assert!(accepts(&tol, "-0.5", "-.5"));
    assert!(accepts(&tol, "100", "1E2"));
    assert!(accepts(&tol, "0", "-0"));
}

#[test]
fn tokens_that_are_not_floats_compare_as_strings_even_with_a_tolerance() {
    let tol = ["float_tolerance", "1e-6"];
    assert!(accepts(&tol, "impossible", "IMPOSSIBLE"));
    assert!(
        accepts(&tol, "nan", "NaN"),
        "nan is not a float in the answer: a string"
    );
    assert!(accepts(&tol, "inf", "inf"));
    assert!(accepts(&tol, "0x10", "0X10"), "hexadecimal is not a float");
    assert!(
        !accepts(&tol, "1.5", "nan"),
        "nan in the output is not a number"
    );
    assert!(!accepts(&tol, "1.5", "inf"));
    assert!(
        !accepts(&tol, "1e308", "1e400"),
        "overflowing values are not floats"
    );
    assert_eq!(
        message(&tol, "1.5", "abc"),
        "line 1, column 1 (answer line 1), token 1: expected a number like `1.5`, found `abc`"
    );
}

#[test]
fn float_grammar_follows_the_spec() {
    for good in [
        "0", "+1", "-1", "1.", ".5", "1.5", "1e5", "1E+5", "1.5e-3", "-.5E2", "007",
    ] {
        assert!(parse_float(good.as_bytes()).is_some(), "{good}");
    }
    for bad in [
        "", ".", "+", "e5", "1e", "1e+", "1.5.2", "0x1p3", "inf", "nan", "1,5", " 1", "1_000", "١",
    ] {
        assert_eq!(parse_float(bad.as_bytes()), None, "{bad}");
    }
    assert_eq!(parse_float(b"3.14000000e-2"), Some(0.0314));
}

#[test]
fn messages_locate_the_first_difference() {
    let tol = ["float_absolute_tolerance", "0.001"];
    assert_eq!(
        message(&tol, "1\n2.000\n", "1\n  2.5\n"),
        "line 2, column 3 (answer line 2), token 2: expected `2.000`, found `2.5`: they differ by 5e-1, more than \
         the absolute tolerance 0.001"
    );
    let both = [
        "float_absolute_tolerance",
        "0.001",
        "float_relative_tolerance",
        "0.001",
    ];
    assert!(message(&both, "2", "3").ends_with(
        "more than the absolute tolerance 0.001 and the relative tolerance 0.001 (here 2e-3)"
    ));
    assert_eq!(
        message(&[], "1 2 3\n", "1 2\n"),
        "the output ends too early: the answer continues with `3` (after 2 matching tokens) on its line 1"
    );
    assert_eq!(message(&[], "1\n", ""), "the output ends too early (the output is empty): the answer continues with `1` on its line 1");
    assert_eq!(
        message(&[], "1\n", "1\n2\n"),
        "line 2, column 1: trailing output `2` after the answer's end"
    );
    let long = "x".repeat(100);
    assert!(message(&[], "y", &long).contains(&format!("`{}…`", "x".repeat(60))));
}

#[test]
fn options_parse_flags_and_reject_bad_ones() {
    let o = Options::parse(&[
        "case_sensitive",
        "space_change_sensitive",
        "float_relative_tolerance",
        "1e-4",
    ])
    .unwrap();
    assert!(o.case_sensitive && o.space_change_sensitive);
    assert_eq!(
        (o.absolute_tolerance, o.relative_tolerance),
        (None, Some(1e-4))
    );
    let o = Options::parse(&["float_tolerance", "0.5"]).unwrap();
    assert_eq!(
        (o.absolute_tolerance, o.relative_tolerance),
        (Some(0.5), Some(0.5))
    );
    assert_eq!(Options::parse::<&str>(&[]).unwrap(), Options::default());
    let error = |args: &[&str]| Options::parse(args).unwrap_err().to_string();
    assert_eq!(
        Options::parse(&["float_tolerance"]),
        Err(OptionsError::NoValue("float_tolerance".into()))
    );
    assert_eq!(error(&["float_tolerance"]), "float_tolerance needs a value");
    assert!(error(&["float_tolerance", "small"])
        .contains("must be a non-negative number, found `small`"));
    assert!(error(&["float_tolerance", "-1"]).contains("non-negative"));
    assert!(
        error(&["float_tolerance", "1", "float_absolute_tolerance", "1"]).contains("already set")
    );
    assert!(
        error(&["float_absolute_tolerance", "1", "float_tolerance", "1"]).contains("already set")
    );
    assert!(error(&[
        "float_relative_tolerance",
        "1",
        "float_relative_tolerance",
        "2"
    ])
    .contains("already set"));
    assert_eq!(
        error(&["case_sensitiv"]),
        "unknown default validator flag `case_sensitiv` (did you mean `case_sensitive`?)"
    );
}

#[test]
fn bytes_that_are_not_utf8_are_compared_as_bytes() {
    assert_eq!(
        validate(b"\xff\xfe", b"\xff\xfe", &Options::default()),
        Judgement::Accepted
    );
    assert_ne!(
        validate(b"\xff", b"\xfe", &Options::default()),
        Judgement::Accepted
    );
}
