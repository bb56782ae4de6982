use super::*;

fn error(script: &str) -> String {
    match parse(script.as_bytes()) {
        Ok(_) => panic!("{script:?} parsed"),
        Err(error) => error.to_string(),
    }
}

/// The one ASSERT's test of a script, as a tree.
fn test_of(script: &str) -> String {
    let parsed = parse(script.as_bytes()).unwrap();
    match &parsed.body[0].what {
        Cmd::Assert { test, .. } => format!("{test:?}"),
        other => panic!("not an ASSERT: {other:?}"),
    }
}

/// The one SET's value of a script.
fn value_of(script: &str) -> String {
    let parsed = parse(script.as_bytes()).unwrap();
    match &parsed.body[0].what {
        Cmd::Set(assignments) => match &assignments[0].1 {
            Expr::Const(value) => value.to_string(),
            other => format!("{other:?}"),
        },
        other => panic!("not a SET: {other:?}"),
    }
}

#[test]
fn keywords_take_the_longest_match_and_comments_run_to_the_line_end() {
    let tokens = tokens(b"REPI(i, 3) # REP\nFLOATP WHILEIX").unwrap_err();
    assert_eq!(
        tokens.to_string(),
        "script line 2, column 14: unknown command or keyword `X`"
    );
    let kinds: Vec<Tok> = tokens_of("REPI # x\nINT").into_iter().collect();
    assert_eq!(
        kinds,
        [Tok::Word(Word::RepI), Tok::Word(Word::Int), Tok::End]
    );
}

fn tokens_of(text: &str) -> Vec<Tok> {
    tokens(text.as_bytes())
        .unwrap()
        .into_iter()
        .map(|(t, _)| t)
        .collect()
}

#[test]
fn strings_have_escapes_and_span_lines() {
    assert_eq!(
        tokens_of(
            r#""a\n\t\"\\\101\7\q" "x\
y""#
        ),
        [
            Tok::Str(b"a\n\t\"\\A\x07\\q".to_vec()),
            Tok::Str(b"xy".to_vec()),
            Tok::End
        ]
    );
    assert_eq!(
        tokens_of("\"two\nlines\""),
        [Tok::Str(b"two\nlines".to_vec()), Tok::End]
    );
    assert_eq!(
        error("SET(s = \"\\777\")"),
        "script line 1, column 11: the escape `\\777` is not a byte"
    );
    assert_eq!(
        error("STRING(\"open"),
        "script line 1, column 8: a string that is never closed"
    );
}

#[test]
fn numbers_are_integers_unless_they_have_a_dot_or_an_exponent() {
    assert_eq!(
        tokens_of("12 1.5 2e3 1. 7E-2 1e x"),
        [
            Tok::Int("12".into()),
            Tok::Float("1.5".into()),
            Tok::Float("2e3".into()),
            Tok::Float("1.".into()),
            Tok::Float("7E-2".into()),
            Tok::Int("1".into()),
            Tok::Var("e".into()),
            Tok::Var("x".into()),
            Tok::End
        ]
    );
    assert!(error("INT(010, 20)").contains("leading zero"));
}

#[test]
fn arithmetic_follows_domjudge_precedence() {
    assert_eq!(value_of("SET(x = 2 + 3 * 4)"), "14");
    assert_eq!(value_of("SET(x = 2 ^ 3 ^ 2)"), "64", "^ groups left");
    assert_eq!(value_of("SET(x = -2 ^ 2)"), "-4", "a minus takes the power");
    assert_eq!(
        value_of("SET(x = 2 ^ -1 ^ 1)"),
        "Pow(Const(Int(Small(2))), Const(Int(Small(-1))))"
    );
    assert_eq!(value_of("SET(x = 7 - 2 - 1)"), "4");
    assert_eq!(value_of("SET(x = -7 / 2 % 2)"), "-1");
    assert_eq!(value_of("SET(x = 10 ^ 9 + 7)"), "1000000007");
    assert_eq!(value_of("SET(x = 1.5 * 2)"), "3");
    assert!(
        value_of("SET(x = 1 / 0)").starts_with("Bin(Div"),
        "left for run time"
    );
}

#[test]
fn tests_group_as_domjudge_parses_them() {
    let and_or = test_of("ASSERT(1 < 2 || 2 < 1 && 3 < 1)");
    assert!(
        and_or.starts_with("And(Or("),
        "left to right, one precedence: {and_or}"
    );
    let not = test_of("ASSERT(!1 < 2 && 2 < 1)");
    assert!(
        not.starts_with("Not(And("),
        "! takes the whole test after it: {not}"
    );
    let parenthesised = test_of("ASSERT((1 + 2) * 3 == 9 && (ISEOF))");
    assert!(
        parenthesised.starts_with("And(Compare(Eq"),
        "{parenthesised}"
    );
    let nested = test_of("ASSERT(((1 < 2)))");
    assert!(nested.starts_with("Compare(Lt"), "{nested}");
}

#[test]
fn blocks_nest_and_must_close() {
    let parsed = parse(b"REP(2, SPACE) IF(ISEOF) ELSE INT(1, 2) END END").unwrap();
    match &parsed.body[0].what {
        Cmd::Rep {
            separator: Some(separator),
            body,
            ..
        } => {
            assert!(matches!(separator.what, Cmd::Space));
            assert!(
                matches!(&body[0].what, Cmd::If { then, otherwise, .. } if then.is_empty() && otherwise.len() == 1)
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        error("INT(1, 2)\nREP(3)\nSPACE"),
        "script line 2, column 1: a block that no END closes"
    );
    assert_eq!(
        error("SPACE\nEND"),
        "script line 2, column 1: `END` with no block to close"
    );
    assert_eq!(
        error("REP(2) ELSE END"),
        "script line 1, column 8: `ELSE` outside an IF"
    );
    assert!(error("REP(2, REP(1) END) END").contains("single command"));
}

#[test]
fn syntax_errors_say_where_and_what_was_found() {
    assert_eq!(
        error("INT(1 2)"),
        "script line 1, column 7: expected `,`, found the number `2`"
    );
    assert_eq!(
        error("\n  SET(x 1)"),
        "script line 2, column 9: expected `=`, found the number `1`"
    );
    assert_eq!(
        error("ASSERT(x)"),
        "script line 1, column 9: expected a comparison (`<`, `==`, ...), found `)`"
    );
    assert_eq!(
        error("FLOAT(0, 1, x, EXACT)"),
        "script line 1, column 16: unknown command or keyword `EXACT`"
    );
    assert_eq!(
        error("FLOAT(0, 1, x, SPACE)"),
        "script line 1, column 16: expected FIXED or SCIENTIFIC, found `SPACE`"
    );
    assert_eq!(
        error("x"),
        "script line 1, column 1: expected a command, found the variable `x`"
    );
    assert_eq!(
        error("INT(1, 2) @"),
        "script line 1, column 11: unexpected character '@'"
    );
}

#[test]
fn nesting_is_bounded() {
    let deep = format!("SET(x = {}1{})", "(".repeat(500), ")".repeat(500));
    assert!(error(&deep).contains("nested more than"));
    let long = format!("SET(x = y{})", " + y".repeat(500));
    assert!(error(&long).contains("nested more than"));
    let blocks = format!("{}{}", "IF(ISEOF) ".repeat(500), "END ".repeat(500));
    assert!(error(&blocks).contains("nested more than"));
    let nots = format!("ASSERT({}ISEOF)", "!".repeat(500));
    assert!(error(&nots).contains("nested more than"));
    let fine = format!("SET(x = {}1{})", "(".repeat(40), ")".repeat(40));
    assert_eq!(value_of(&fine), "1");
}

#[test]
fn variables_are_slots_and_asserts_keep_their_text() {
    let parsed = parse(b"INT(1, 5, n) SET(a[n, 2] = n) ASSERT( a[n,2] <= n )").unwrap();
    assert_eq!(parsed.names, ["n", "a"]);
    match &parsed.body[2].what {
        Cmd::Assert { text, .. } => assert_eq!(text, "a[n,2] <= n"),
        other => panic!("{other:?}"),
    }
}
