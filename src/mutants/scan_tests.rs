use super::scan::{scan, Family, Kind, ScanError};

/// The text of every token of `source`.
fn words(source: &str, family: Family) -> Vec<String> {
    scan(source.as_bytes(), family)
        .unwrap()
        .iter()
        .map(|t| source[t.start..t.end].to_string())
        .collect()
}

#[test]
fn comments_strings_and_characters_are_skipped_in_the_c_family() {
    let source = "a < b; // x < y\n/* 1 + 2 */ s = \"3 < 4\\\" + 5\"; c = '+'; d = '\\'';";
    assert_eq!(
        words(source, Family::C),
        ["a", "<", "b", ";", "s", "=", ";", "c", "=", ";", "d", "=", ";"]
    );
}

#[test]
fn cpp_raw_strings_java_text_blocks_and_digit_separators() {
    let source = "x = R\"ab(1 + \")ab\" ;\ny = \"\"\"\n 2 < 3\n\"\"\"; z = 1'000'000;";
    assert_eq!(
        words(source, Family::C),
        ["x", "=", ";", "y", "=", ";", "z", "=", "1'000'000", ";"]
    );
}

#[test]
fn rust_lifetimes_raw_strings_and_nested_comments() {
    let source = "fn f<'a>(s: &'a str) { /* a /* b */ c */ let t = r#\"1 \"+\" 2\"#; 'x' }";
    assert_eq!(
        words(source, Family::Rust),
        ["fn", "f", "<", ">", "(", "s", ":", "&", "str", ")", "{", "let", "t", "=", ";", "}"]
    );
}

#[test]
fn python_prefixes_triple_quotes_and_hash_comments() {
    let source = "a = rb'1+2' + f\"{x}\"  # 3 < 4\nb = '''\n5 - 6\n''' or c // 2";
    assert_eq!(
        words(source, Family::Python),
        ["a", "=", "+", "b", "=", "or", "c", "//", "2"]
    );
}

#[test]
fn numbers_are_one_token_with_their_exponent_and_suffix() {
    let tokens = scan(b"1e-9 + 0x1e+5 - 10LL * 2.5f", Family::C).unwrap();
    let source = "1e-9 + 0x1e+5 - 10LL * 2.5f";
    let numbers: Vec<&str> = tokens
        .iter()
        .filter(|t| t.kind == Kind::Number)
        .map(|t| &source[t.start..t.end])
        .collect();
    assert_eq!(numbers, ["1e-9", "0x1e", "5", "10LL", "2.5f"]);
}

#[test]
fn tokens_know_their_line_and_column() {
    let tokens = scan(b"a\n  bb < c", Family::C).unwrap();
    let places: Vec<(usize, usize)> = tokens.iter().map(|t| (t.line, t.column)).collect();
    assert_eq!(places, [(1, 1), (2, 3), (2, 6), (2, 8)]);
}

#[test]
fn what_never_ends_is_an_error_where_it_starts() {
    let error = |source: &str, family| scan(source.as_bytes(), family).unwrap_err();
    assert_eq!(
        error("int x;\n  /* open", Family::C),
        ScanError {
            line: 2,
            column: 3,
            what: "a comment"
        }
    );
    assert_eq!(error("s = \"abc", Family::C).what, "a string");
    assert_eq!(error("s = 'abc\nt = 1", Family::Python).line, 1);
    assert_eq!(
        error("x = \"\"\"abc", Family::Python).what,
        "a triple-quoted string"
    );
    assert_eq!(
        error("fn f() { /* /* */ }", Family::Rust).to_string(),
        "1:10: a comment that never ends"
    );
}
