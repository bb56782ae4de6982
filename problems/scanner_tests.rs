use super::*;
use crate::test_support::Trickle;

#[test]
fn reads_numbers_across_any_whitespace() {
    let mut s = Scanner::new(b" 12\t0\r\n\n18446744073709551615 ");
    assert_eq!(s.u64("a").unwrap(), 12);
    assert_eq!(s.u64("b").unwrap(), 0);
    assert_eq!(s.u64("c").unwrap(), u64::MAX);
    assert!(s.at_end());
}

#[test]
fn missing_number_names_line_and_column_of_the_end() {
    let mut s = Scanner::new(b"3\n1 2");
    for _ in 0..3 {
        s.u64("heap").unwrap();
    }
    let err = s.u64("heap").unwrap_err();
    assert_eq!((err.line, err.column), (2, 4));
    assert!(err.message.contains("found end of input"), "{err}");
}

#[test]
fn non_digit_is_reported_with_its_text() {
    let err = Scanner::new(b"1 2\n  3x 4").u64_nth(3).unwrap_err();
    assert_eq!((err.line, err.column), (2, 3));
    assert!(err.message.contains("`3x`"), "{err}");
    let err = Scanner::new(b"-5").u64("k").unwrap_err();
    assert!(err.message.contains("`-5`"), "{err}");
}

#[test]
fn overflow_is_an_error_not_a_wrap() {
    let err = Scanner::new(b"18446744073709551616").u64("h").unwrap_err();
    assert!(err.message.contains("too large"), "{err}");
    assert_eq!((err.line, err.column), (1, 1));
}

#[test]
fn the_fast_path_and_the_checked_path_agree_around_nineteen_digits() {
    let mut s = Scanner::new(
        b"9999999999999999999 10000000000000000000 0000000000000000000000042 \
          1234567890123456789",
    );
    assert_eq!(s.u64("a").unwrap(), 9_999_999_999_999_999_999);
    assert_eq!(s.u64("b").unwrap(), 10_000_000_000_000_000_000);
    assert_eq!(s.u64("c").unwrap(), 42);
    assert_eq!(s.u64("d").unwrap(), 1_234_567_890_123_456_789);
    assert!(s.at_end());
    let err = Scanner::new(b"99999999999999999999").u64("h").unwrap_err();
    assert!(err.message.contains("too large"), "{err}");
    let err = Scanner::new(b"1234567890123456789x").u64("h").unwrap_err();
    assert!(err.message.contains("`1234567890123456789x`"), "{err}");
    let err = Scanner::new(b"12345678901234567890x").u64("h").unwrap_err();
    assert!(err.message.contains("`12345678901234567890x`"), "{err}");
}

#[test]
fn range_errors_point_at_the_number() {
    let mut s = Scanner::new(b"5\n 10001");
    s.u64("k").unwrap();
    let err = s.u64_in("heap size", 1..=10000).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2, column 2: heap size 10001 is above the limit 10000"
    );
    let err = Scanner::new(b"1 00000007")
        .u64_nth_in(2, 1..=5)
        .unwrap_err();
    assert_eq!(
        (err.line, err.column),
        (1, 3),
        "leading zeros do not shift the column"
    );
    let err = Scanner::new(b"0").u64_in("n", 1..=5).unwrap_err();
    assert_eq!(err.message, "n 0 is below the minimum 1");
}

#[test]
fn the_fast_path_decides_as_the_checked_path_on_random_bytes() {
    let mut state = 0x853c_49e6_748f_ea9bu64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let len = (next() % 48) as usize;
        // Mostly digits, so long runs around 19 and 20 digits come up often.
        let bytes: Vec<u8> = (0..len)
            .map(|_| b"000123456789999 \n\tx"[(next() % 19) as usize])
            .collect();
        let (mut fast, mut slow) = (Scanner::new(&bytes), Scanner::new(&bytes));
        loop {
            slow.skip_space();
            let (a, b) = (fast.u64("n"), slow.u64_slow("n"));
            assert_eq!(a, b, "{:?}", String::from_utf8_lossy(&bytes));
            assert_eq!(fast.offset(), slow.offset());
            if a.is_err() {
                break;
            }
        }
    }
}

#[test]
fn token_on_line_stops_at_newline() {
    let mut s = Scanner::new(b"1 2 \r\n3");
    s.u64("a").unwrap();
    assert!(s.token_on_line());
    s.u64("b").unwrap();
    assert!(!s.token_on_line());
    s.skip_space();
    assert!(s.token_on_line());
}

#[test]
fn trailing_garbage_is_reported() {
    let mut s = Scanner::new(b"1\nfoo");
    s.u64("a").unwrap();
    let err = s.expect_end().unwrap_err();
    assert_eq!((err.line, err.column), (2, 1));
    assert!(err.message.contains("`foo`"));
}

/// Every operation a parser uses, in a pseudo-random order, on both sources: the same values,
/// the same errors (line, column, message) and the same offsets.
#[test]
fn a_stream_reads_exactly_as_the_whole_input() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..4000 {
        let len = (next() % 80) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| b"0001234567899 \n\n\t\rx-"[(next() % 19) as usize])
            .collect();
        let mut whole = Scanner::new(&bytes);
        let mut trickle = Trickle::new(&bytes);
        let mut stream = Scanner::from_reader(&mut trickle);
        for _ in 0..40 {
            let step = next() % 6;
            let context = format!(
                "round {round}, step {step}: {:?}",
                String::from_utf8_lossy(&bytes)
            );
            let (a, b) = match step {
                0 => (whole.u64("n").map(Some), stream.u64("n").map(Some)),
                1 => (
                    whole.u64_in("n", 3..=99).map(Some),
                    stream.u64_in("n", 3..=99).map(Some),
                ),
                2 => (
                    Ok(Some(u64::from(whole.token_on_line()))),
                    Ok(Some(u64::from(stream.token_on_line()))),
                ),
                3 => (
                    Ok(Some(u64::from(whole.at_end()))),
                    Ok(Some(u64::from(stream.at_end()))),
                ),
                4 => (
                    whole.expect_end().map(|()| None),
                    stream.expect_end().map(|()| None),
                ),
                _ => {
                    let (x, y) = (whole.next_token_offset(), stream.next_token_offset());
                    assert_eq!(whole.place(x), stream.place(y), "{context}");
                    (Ok(Some(x as u64)), Ok(Some(y as u64)))
                }
            };
            assert_eq!(a, b, "{context}");
            assert_eq!(whole.offset(), stream.offset(), "{context}");
            if a.is_err() {
                break;
            }
        }
    }
}

#[test]
fn a_stream_holds_a_window_not_the_input() {
    // Two million heaps, then a number with a million leading zeros, then a bad token on the
    // last line: the window never holds more than a read or two, and the error is placed.
    let mut input = "123456789 ".repeat(2_000_000).into_bytes();
    input.extend_from_slice(b"\n");
    input.extend(std::iter::repeat_n(b'0', 1_000_000));
    input.extend_from_slice(b"42\n\n  7 x");
    let mut stream = &input[..];
    let mut scanner = Scanner::from_reader(&mut stream);
    let mut largest_window = 0;
    for _ in 0..2_000_000 {
        assert_eq!(scanner.u64("h").unwrap(), 123_456_789);
        largest_window = largest_window.max(scanner.source.window.capacity());
    }
    assert_eq!(scanner.u64("h").unwrap(), 42);
    largest_window = largest_window.max(scanner.source.window.capacity());
    assert_eq!(scanner.u64("h").unwrap(), 7);
    let err = scanner.u64("h").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 4, column 5: expected h (a non-negative integer), found `x`"
    );
    assert!(largest_window <= 4 * READ_CHUNK, "{largest_window}");
    // A too-large number longer than the window is placed at its start, on its line.
    let mut long = b"1\n  ".to_vec();
    long.extend(std::iter::repeat_n(b'9', 300_000));
    let mut stream = &long[..];
    let mut scanner = Scanner::from_reader(&mut stream);
    scanner.u64("a").unwrap();
    let err = scanner.u64("b").unwrap_err();
    assert_eq!((err.line, err.column), (2, 3));
    assert_eq!(err.message, format!("b `{}…` is too large", "9".repeat(24)));
}

#[test]
fn places_noted_early_stay_right() {
    let input = b"5 7\n\n 8 9\n10";
    let mut trickle = Trickle::new(input);
    let mut scanner = Scanner::from_reader(&mut trickle);
    let first = scanner.next_token_offset();
    let first = scanner.place(first);
    for _ in 0..4 {
        scanner.u64("n").unwrap();
    }
    let last = scanner.next_token_offset();
    assert_eq!(first, Place { line: 1, column: 1 });
    assert_eq!(scanner.place(last), Place { line: 4, column: 1 });
    assert_eq!(
        InputError::at(input, 8, "m").to_string(),
        "line 3, column 4: m"
    );
    assert_eq!(
        InputError::at(input, 99, "m").to_string(),
        "line 4, column 3: m"
    );
}

impl<S: Source> Scanner<S> {
    fn u64_nth(&mut self, n: usize) -> Result<u64, InputError> {
        for _ in 1..n {
            self.u64("x")?;
        }
        self.u64("x")
    }

    fn u64_nth_in(&mut self, n: usize, range: RangeInclusive<u64>) -> Result<u64, InputError> {
        for _ in 1..n {
            self.u64("x")?;
        }
        self.u64_in("x", range)
    }
}
