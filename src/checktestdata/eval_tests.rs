use super::super::budget::{steps_for, Budget, DEFAULT_HELD_BYTES};
use super::super::Script;

/// What checking `input` with `script` says: "ok", or the message.
fn check(script: &str, input: &str) -> String {
    let script = Script::parse(script.as_bytes()).unwrap_or_else(|e| panic!("{script:?}: {e}"));
    match script.check(input.as_bytes(), DEFAULT_HELD_BYTES) {
        Ok(()) => "ok".into(),
        Err(failure) => failure.to_string(),
    }
}

fn accepts(script: &str, input: &str) -> bool {
    check(script, input) == "ok"
}

#[test]
fn whitespace_is_never_skipped() {
    let script = "INT(1, 10) SPACE INT(1, 10) NEWLINE";
    assert!(accepts(script, "3 4\n"));
    assert_eq!(check(script, "3  4\n"), "input line 1, column 3: expected an integer in [1, 10], found \" \" (not an integer) (script line 1)");
    assert_eq!(
        check(script, "3 4"),
        "input line 1, column 4: expected a newline, found the end of the input (script line 1)"
    );
    assert_eq!(
        check(script, "3 4\n\n"),
        "input line 2, column 1: expected the end of the input, found ... (script line 1)"
            .replace(", found ...", "")
    );
    assert_eq!(check(script, " 3 4\n"), "input line 1, column 1: expected an integer in [1, 10], found \" \" (not an integer) (script line 1)");
    assert_eq!(
        check(script, "3\t4\n"),
        "input line 1, column 2: expected a space, found \"\\t\" (script line 1)"
    );
    assert!(!accepts(script, "3 4\r\n"));
}

#[test]
fn integers_are_read_exactly_with_the_message_naming_the_place() {
    let script = "INT(1, 1000)\nNEWLINE\nINT(-5, 5)";
    assert!(accepts(script, "1000\n-5"));
    assert_eq!(
        check(script, "1000\n6"),
        "input line 2, column 1: expected an integer in [1, 1000]".replace("1, 1000", "-5, 5")
            + ", found \"6\" (script line 3)"
    );
    assert_eq!(
        check(script, "0\n1"),
        "input line 1, column 1: expected an integer in [1, 1000], found \"0\" (script line 1)"
    );
    for (input, why) in [
        ("01\n1", "leading zeros"),
        (
            "-0\n1",
            "a minus sign without a non-zero integer (-0 is not allowed)",
        ),
        (
            "-\n1",
            "a minus sign without a non-zero integer (-0 is not allowed)",
        ),
        ("+1\n1", "not an integer"),
    ] {
        assert!(
            check(script, input).contains(why),
            "{input:?}: {}",
            check(script, input)
        );
    }
}

#[test]
fn integers_of_any_size() {
    let script = "INT(-10^30, 10^30, x) NEWLINE ASSERT(x * x >= 0)";
    assert!(accepts(script, "-1000000000000000000000000000000\n"));
    assert!(accepts(script, "999999999999999999999999999999\n"));
    assert!(!accepts(script, "1000000000000000000000000000001\n"));
    let huge = format!("1{}\n", "0".repeat(1_000_000));
    assert!(check(script, &huge).contains("expected an integer in [-1000000000000000000000000000000, 1000000000000000000000000000000]"));
}

#[test]
fn floats_by_notation_and_decimals() {
    let any = "FLOAT(-1, 1)";
    for ok in [
        "0", "-0", "0.5", "-1", "1.0", "1e0", "5E-1", "-0.000", "1e-100",
    ] {
        assert!(accepts(any, ok), "{ok}");
    }
    for bad in [
        ".5", "1.", "00.5", "1.5", "1e05", "1e", "--1", "0x1", "1e+1",
    ] {
        assert!(!accepts(any, bad), "{bad}");
    }
    assert!(accepts("FLOAT(0, 10, x, FIXED)", "2.5"));
    assert!(!accepts("FLOAT(0, 10, x, FIXED)", "2e0"));
    assert!(accepts("FLOAT(0, 10, x, SCIENTIFIC)", "2.5e0"));
    assert!(check("FLOAT(0, 10, x, SCIENTIFIC)", "2.5").contains("no exponent"));
    let floatp = "FLOATP(0, 100, 1, 2)";
    assert!(accepts(floatp, "3.5"));
    assert!(accepts(floatp, "3.25"));
    assert!(check(floatp, "3").contains("(0 decimals)"));
    assert!(check(floatp, "3.125").contains("(3 decimals)"));
    assert!(accepts(floatp, "1.5e1"));
    assert!(check(floatp, "15.0e0").contains("one non-zero digit"));
    assert!(check("FLOATP(0, 100, 0, 2)", "1e1").contains("one non-zero digit"));
    assert_eq!(
        check("FLOAT(0.5, 1.5)", "1.50001"),
        "input line 1, column 1: expected a float in [0.5, 1.5], found \"1.50001\" (script line 1)"
    );
    assert!(
        accepts("FLOAT(0.1, 0.3, x) ASSERT(x == 0.1 + 0.2)", "0.3"),
        "exact, not binary"
    );
}

#[test]
fn strings_and_regexes() {
    assert!(accepts("STRING(\"YES\") NEWLINE", "YES\n"));
    assert_eq!(
        check("STRING(\"YES\")", "YEA"),
        "input line 1, column 1: expected \"YES\", found \"YEA\" (script line 1)"
    );
    let regex = "REGEX(\"[a-z]+\", s) SPACE ASSERT(STRLEN(s) <= 3)";
    assert!(accepts(regex, "abc "));
    assert!(
        !accepts(regex, "abcd "),
        "the longest match, then the assertion"
    );
    assert!(check(regex, "Abc ").contains("expected text matching the REGEX, found \"Abc\""));
    assert!(
        accepts("REGEX(\"a|ab\") EOF", "ab"),
        "POSIX: the longest alternative"
    );
    assert!(accepts("REGEX(\"a.b\")", "a\nb"), "a dot matches a newline");
    assert!(accepts("REGEX(\"[^\\n]*\") NEWLINE", "any thing\n"));
    assert!(
        accepts("REGEX(\"x*\") STRING(\"y\")", "y"),
        "an empty match"
    );
    assert!(
        accepts("SET(p = \"[0-9]\") REP(2) REGEX(p) END", "12"),
        "a pattern computed"
    );
    assert!(
        accepts("REGEX(\"\\303\\251\")", "é"),
        "bytes that are not ASCII"
    );
    assert!(accepts("REGEX(\"[[:digit:]]{2,3}\") EOF", "123"));
    let bad = Script::parse(b"\nREGEX(\"(\")").err().unwrap().to_string();
    assert!(
        bad.starts_with("script line 2: invalid regular expression"),
        "{bad}"
    );
}

#[test]
fn loops_separators_and_counters() {
    let script =
        "INT(0, 5, n) NEWLINE REPI(i, n, SPACE) INT(0, 9, a[i]) END NEWLINE ASSERT(i == n)";
    assert!(accepts(script, "3\n1 2 3\n"));
    assert!(accepts(script, "0\n\n"));
    assert!(!accepts(script, "3\n1 2 3 \n"));
    assert!(!accepts(script, "3\n1 2\n"));
    let words = "WHILEI(k, !MATCH(\"\\n\"), SPACE) REGEX(\"[a-z]+\") END NEWLINE ASSERT(k == 3)";
    assert!(accepts(words, "ab cd ef\n"));
    assert!(!accepts(words, "ab cd\n"));
    let until_eof = "WHILE(!ISEOF) INT(1, 9) NEWLINE END";
    assert!(accepts(until_eof, ""));
    assert!(accepts(until_eof, "1\n2\n"));
    let branches = "INT(1, 2, t) NEWLINE IF(t == 1) STRING(\"one\") ELSE STRING(\"two\") END";
    assert!(accepts(branches, "1\none"));
    assert!(accepts(branches, "2\ntwo"));
    assert!(!accepts(branches, "2\none"));
}

#[test]
fn arrays_unique_and_inarray() {
    let unique =
        "INT(1, 9, n) REP(n) SPACE INT(1, 9, x[n]) SPACE INT(1, 9, y[n]) SET(n = n - 1) END \
                  ASSERT(UNIQUE(x, y))";
    assert!(accepts(unique, "2 1 2 2 1"));
    assert!(
        check(unique, "3 1 2 3 4 1 2").contains("UNIQUE: the tuple (1, 2) is at both [1] and [3]")
    );
    let mismatched = "SET(a[1] = 1, a[2] = 2, b[1] = 1, b[3] = 3) ASSERT(UNIQUE(a, b))";
    assert!(check(mismatched, "").contains("UNIQUE: b has no value at [2] where a has one"));
    let counts = "SET(a[1] = 1, b[1] = 1, b[2] = 2) ASSERT(UNIQUE(a, b))";
    assert!(check(counts, "").contains("have different indices"));
    let member = "SET(a[1, 1] = 5, a[2, 7] = 6) INT(1, 9, v) ASSERT(INARRAY(v, a))";
    assert!(accepts(member, "6"));
    assert!(!accepts(member, "7"));
    assert!(
        !accepts("SET(a[1] = 1.0) ASSERT(INARRAY(1, a))", ""),
        "an integer is no float"
    );
    let kept =
        "SET(a[1] = 1) ASSERT(INARRAY(1, a)) SET(a[1] = 2) ASSERT(!INARRAY(1, a) && INARRAY(2, a))";
    assert!(accepts(kept, ""), "the index follows changes");
    let unset = "SET(a[1] = 1) UNSET(a) ASSERT(INARRAY(1, a))";
    assert!(check(unset, "").starts_with("script line 1: the variable `a` has no value"));
}

#[test]
fn faults_of_the_script_are_not_rejections() {
    for (script, message) in [
        (
            "ASSERT(x == 1)",
            "script line 1: the variable `x` has no value",
        ),
        (
            "SET(a[1] = 1) ASSERT(a[2] == 1)",
            "script line 1: the variable `a[2]` has no value",
        ),
        ("SET(x = 1 / 0)", "script line 1: division by zero"),
        (
            "SET(x = \"a\" + 1)",
            "script line 1: arithmetic of a string",
        ),
        (
            "ASSERT(\"a\" < 1)",
            "script line 1: a comparison of a string with a number",
        ),
        ("INT(1.5, 2)", "script line 1: 1.5 is not an integer"),
        (
            "REP(-1) END",
            "script line 1: the count of REP is not an integer in [0, 2^64)",
        ),
        (
            "SET(x = 2 ^ 10000000)",
            "script line 1: a number beyond the interpreter's bounds",
        ),
    ] {
        let said = check(script, "");
        assert!(said.starts_with(message), "{script}: {said}");
    }
}

#[test]
fn a_loop_that_reads_nothing_ends_at_the_step_bound() {
    let script = Script::parse(b"SET(i = 0)\nWHILE(i >= 0)\nSET(i = i + 1)\nEND").unwrap();
    let said = within(&script, "", 1000, MIB);
    assert!(
        said.starts_with(
            "script line 2: the script's work exceeds its budget of 1000 steps for this input (a \
             loop that reads no input, or arithmetic on huge numbers?)"
        ),
        "{said}"
    );
    assert_eq!(steps_for(0), 100_000_000);
    assert_eq!(steps_for(10), 100_000_160);
}

const MIB: u64 = 1 << 20;

/// What checking `input` with `script` says within a budget of `steps` steps and `bytes` bytes.
fn within(script: &Script, input: &str, steps: u64, bytes: u64) -> String {
    match super::run_with(script, input.as_bytes(), Budget::new(steps, bytes)) {
        Ok(()) => "ok".into(),
        Err(failure) => failure.to_string(),
    }
}

#[test]
fn arithmetic_on_big_numbers_costs_by_their_size() {
    // 10^99000 has 5,139 words, 10^49000 + 1 has 2,544: a quotient touches their product,
    // 13.07 million words, 204,275 steps of 64 words. Ten of them are more than 10^6 steps; ten
    // quotients of small numbers are a few dozen.
    let big = "SET(x = 10^99000, d = 10^49000 + 1)\nREP(10)\nSET(y = x / d)\nEND";
    let said = within(&Script::parse(big.as_bytes()).unwrap(), "", 1_000_000, MIB);
    assert!(
        said.starts_with("script line 3: the script's work exceeds its budget of 1000000 steps"),
        "{said}"
    );
    let small = "SET(x = 10^18, d = 7)\nREP(10)\nSET(y = x / d)\nEND";
    assert_eq!(
        within(&Script::parse(small.as_bytes()).unwrap(), "", 1000, MIB),
        "ok"
    );
    // A power is weighed before it is computed: 10^99000 is 38 million words of squarings.
    let power = Script::parse(b"SET(e = 99000)\nSET(x = 10^e)").unwrap();
    let said = within(&power, "", 100_000, MIB);
    assert!(
        said.starts_with("script line 2: the script's work exceeds its budget"),
        "{said}"
    );
    assert_eq!(within(&power, "", 1_000_000, MIB), "ok");
}

#[test]
fn the_values_held_are_counted_in_bytes() {
    // Each element holds a number of 5,139 words (41 KiB): 32 MiB hold fewer than 800 of them.
    let blow_up = Script::parse(b"REPI(i, 1000000)\nSET(a[i] = 10^99000 + i)\nEND").unwrap();
    assert_eq!(
        blow_up.check(b"", 32 * MIB).unwrap_err().to_string(),
        "script line 2: the script's values would hold more than 32 MiB, the most the \
         interpreter lets them hold"
    );
    // A small number is an element's place alone (128 bytes): 100,000 of them fit in 32 MiB.
    let small = Script::parse(b"REPI(i, 100000) SET(a[i] = i) END").unwrap();
    assert_eq!(small.check(b"", 32 * MIB), Ok(()));
    // What is replaced or unset is given back.
    for script in [
        "REP(1000) SET(x = 10^99000) END",
        "REP(1000) SET(a[1] = 10^99000) END",
        "REPI(i, 1000) SET(a[i] = 10^99000) UNSET(a) END",
    ] {
        let parsed = Script::parse(script.as_bytes()).unwrap();
        assert_eq!(parsed.check(b"", MIB), Ok(()), "{script}");
    }
    // INARRAY's index of an array holds a place for each of its values (96 bytes): 5,000
    // elements take 640,000 bytes, and their index 480,000 more.
    let search = "REPI(i, 5000) SET(a[i] = i) END\nASSERT(INARRAY(1, a))";
    let said = within(&Script::parse(search.as_bytes()).unwrap(), "", 1 << 30, MIB);
    assert!(
        said.starts_with("script line 2: the script's values would hold more than 1 MiB"),
        "{said}"
    );
}

#[test]
fn unique_weighs_each_comparison_as_it_sorts() {
    // Floats of 40,001 digits times 10^-40000 beside short ones of the same magnitude: each
    // comparison of the two kinds aligns them, millions of words; the sort ends at the budget.
    let script = "SET(b = 10^40000)\nREPI(i, 100)\n\
                  SET(a[2 * i] = (b + i) * 1.0e-40000, a[2 * i + 1] = 1.5 + i * 1.0e-9)\nEND\n\
                  ASSERT(UNIQUE(a))";
    let said = within(
        &Script::parse(script.as_bytes()).unwrap(),
        "",
        2_000_000,
        64 * MIB,
    );
    assert!(
        said.starts_with("script line 5: the script's work exceeds its budget of 2000000 steps"),
        "{said}"
    );
}

#[test]
fn a_regular_expression_costs_what_it_reads() {
    // `(a*b)?` matches nothing in a run of a's, but reads all of it each time looking for a b:
    // 100,000 bytes, 1,562 steps.
    let script = Script::parse(b"REP(100)\nREGEX(\"(a*b)?\")\nEND\nREGEX(\"a*\")").unwrap();
    let input = "a".repeat(100_000);
    let said = within(&script, &input, 100_000, MIB);
    assert!(
        said.starts_with("script line 2: the script's work exceeds its budget of 100000 steps"),
        "{said}"
    );
    assert_eq!(within(&script, &input, 200_000, MIB), "ok");
}

#[test]
fn what_a_script_makes_while_it_is_parsed_is_bounded() {
    // Ten million states: refused as too large, not built.
    let said = Script::parse(b"REGEX(\"a{1000}{1000}{10}\")")
        .err()
        .unwrap();
    assert!(
        said.to_string()
            .starts_with("script line 1: invalid regular expression"),
        "{said}"
    );
    // Each compiled pattern counts 4 KiB besides its NFA: 20,000 of them pass 64 MiB.
    let said = Script::parse("REGEX(\"a\")\n".repeat(20_000).as_bytes())
        .err()
        .unwrap();
    assert!(
        said.to_string()
            .ends_with(": the script's regular expressions would take more than 64 MiB compiled"),
        "{said}"
    );
    // Constants beyond what folding may spend are computed as the script runs, to the same
    // values (the quotient checked by what a quotient is).
    let line = "SET(x = 10^99000 / (10^49000 + 1)) \
                ASSERT(x * (10^49000 + 1) <= 10^99000 && (x + 1) * (10^49000 + 1) > 10^99000)\n";
    let script = Script::parse(line.repeat(20).as_bytes()).unwrap();
    assert_eq!(script.check(b"", DEFAULT_HELD_BYTES), Ok(()));
}

#[test]
fn the_assertion_is_quoted_where_it_failed() {
    let script = "INT(1, 9, a)\nSPACE\nINT(1, 9, b)\nASSERT(a < b)";
    assert_eq!(
        check(script, "5 3"),
        "input line 1, column 4: the assertion `a < b` does not hold (script line 4)"
    );
}
