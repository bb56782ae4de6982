use super::super::decimal::MAX_EXPONENT;
use super::super::number::MAX_DIGITS;
use super::*;

fn int(n: i64) -> Int {
    Int::Small(n)
}

fn dec(text: &str) -> Dec {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let negative = whole.starts_with('-');
    Dec::parse(
        negative,
        whole.trim_start_matches('-').as_bytes(),
        fraction.as_bytes(),
        0,
    )
    .unwrap()
}

#[test]
fn small_integers_overflow_into_big_ones_and_back() {
    let max = int(i64::MAX);
    let sum = max.add(&int(1)).unwrap();
    assert!(matches!(sum, Int::Big(_)));
    assert_eq!(sum.to_string(), "9223372036854775808");
    assert_eq!(
        sum.sub(&int(1)).unwrap(),
        max,
        "back to small, so equal values are equal"
    );
    assert_eq!(int(i64::MIN).neg().to_string(), "9223372036854775808");
    assert_eq!(
        int(i64::MIN).div(&int(-1)).unwrap().to_string(),
        "9223372036854775808"
    );
    assert_eq!(int(i64::MIN).rem(&int(-1)).unwrap(), int(0));
}

#[test]
fn division_truncates_toward_zero_and_the_remainder_follows_the_dividend() {
    assert_eq!(int(-7).div(&int(2)).unwrap(), int(-3));
    assert_eq!(int(-7).rem(&int(2)).unwrap(), int(-1));
    assert_eq!(int(7).rem(&int(-2)).unwrap(), int(1));
    assert_eq!(int(7).div(&int(0)), Err(Fault::DivisionByZero));
    let big = Int::parse(false, b"100000000000000000000").unwrap();
    assert_eq!(
        big.neg().div(&int(3)).unwrap().to_string(),
        "-33333333333333333333"
    );
    assert_eq!(big.neg().rem(&int(3)).unwrap(), int(-1));
}

#[test]
fn powers_are_exact_and_bounded() {
    assert_eq!(int(2).pow(64).unwrap().to_string(), "18446744073709551616");
    assert_eq!(int(-1).pow(u64::MAX).unwrap(), int(-1));
    assert_eq!(int(0).pow(0).unwrap(), int(1));
    assert_eq!(int(10).pow(200_000), Err(Fault::TooLarge));
    assert_eq!(
        Int::pow10(MAX_DIGITS - 1).map(|n| n.to_string().len()),
        Ok(MAX_DIGITS as usize)
    );
}

#[test]
fn floats_compare_exactly_whatever_their_exponents() {
    assert_eq!(dec("0.1").compare(&dec("0.10")), Ordering::Equal);
    assert_eq!(
        dec("0.1").compare(&dec("0.1000000000000000000000000001")),
        Ordering::Less
    );
    assert_eq!(dec("-2.5").compare(&Dec::from(int(-2))), Ordering::Less);
    let tiny = Dec::new(int(1), -1_000_000_000).unwrap();
    let huge = Dec::new(int(-1), 1_000_000_000).unwrap();
    assert_eq!(tiny.compare(&dec("0")), Ordering::Greater);
    assert_eq!(tiny.compare(&dec("0.000001")), Ordering::Less);
    assert_eq!(huge.compare(&dec("-99999999999999999999")), Ordering::Less);
    assert_eq!(
        Dec::new(int(1), MAX_EXPONENT + 1).err(),
        Some(Fault::TooLarge)
    );
}

#[test]
fn float_arithmetic_is_exact_but_for_quotients() {
    let sum = Value::arith(
        Arith::Add,
        &Value::Float(dec("0.1")),
        &Value::Float(dec("0.2")),
    )
    .unwrap();
    assert_eq!(
        Value::compare(&sum, &Value::Float(dec("0.3"))),
        Ok(Ordering::Equal)
    );
    let mixed = Value::arith(Arith::Mul, &Value::Int(int(3)), &Value::Float(dec("0.5"))).unwrap();
    assert_eq!(mixed.to_string(), "1.5");
    let third = Value::arith(Arith::Div, &Value::Float(dec("1.0")), &Value::Int(int(3))).unwrap();
    assert!(
        third.to_string().starts_with("0.33333333333333333333"),
        "{third}"
    );
    let product = Value::arith(Arith::Mul, &third, &Value::Int(int(3))).unwrap();
    assert_eq!(
        Value::compare(&product, &Value::Int(int(1))),
        Ok(Ordering::Less),
        "truncated"
    );
    assert_eq!(
        Value::arith(Arith::Rem, &Value::Float(dec("1.5")), &Value::Int(int(1))).map(|_| ()),
        Err(Fault::Type(
            "a remainder of floats: `%` takes integers only".into()
        ))
    );
    assert_eq!(
        Value::pow(&Value::Float(dec("1.5")), &Value::Int(int(2)))
            .unwrap()
            .to_string(),
        "2.25"
    );
    assert!(Value::pow(&Value::Int(int(2)), &Value::Int(int(-1))).is_err());
    assert!(Value::pow(&Value::Int(int(2)), &Value::Float(dec("2"))).is_err());
}

#[test]
fn strings_compare_bytewise_and_not_with_numbers() {
    let s = |t: &str| Value::Str(t.as_bytes().into());
    assert_eq!(Value::compare(&s("abc"), &s("abd")), Ok(Ordering::Less));
    assert_eq!(Value::compare(&s("B"), &s("a")), Ok(Ordering::Less));
    assert!(Value::compare(&s("1"), &Value::Int(int(1))).is_err());
    assert!(Value::arith(Arith::Add, &s("a"), &s("b")).is_err());
}

#[test]
fn keys_tell_types_apart_and_ignore_trailing_zeros() {
    assert_eq!(
        Value::Float(dec("1.50")).key(),
        Value::Float(dec("1.5")).key()
    );
    assert_ne!(Value::Float(dec("1.0")).key(), Value::Int(int(1)).key());
    assert_eq!(
        Value::Float(dec("0.000")).key(),
        Value::Float(dec("0")).key()
    );
}

#[test]
fn floats_show_plainly_until_long() {
    assert_eq!(dec("-0.05").to_string(), "-0.05");
    assert_eq!(dec("120").to_string(), "120");
    assert_eq!(Dec::new(int(15), -40).unwrap().to_string(), "1.5e-39");
    assert_eq!(Dec::new(int(2), 30).unwrap().to_string(), "2e30");
}
