use super::*;
use crate::package::yaml;

fn limits(version: FormatVersion, text: &str) -> Result<(Limits, Vec<String>), String> {
    let file = Path::new("problem.yaml");
    let root = yaml::parse(file, text).unwrap().unwrap();
    let node = &root.as_map().unwrap()[0].1;
    let mut warnings = vec![];
    let limits =
        Limits::parse(file, node, version, false, &mut warnings).map_err(|e| e.to_string())?;
    Ok((limits, warnings.iter().map(ToString::to_string).collect()))
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn defaults_differ_per_version() {
    let legacy = Limits::defaults(FormatVersion::Legacy);
    assert_eq!(
        (legacy.ac_to_time_limit, legacy.time_limit_to_tle),
        (5.0, 2.0)
    );
    let new = Limits::defaults(FormatVersion::V2025_09);
    assert_eq!(
        (
            new.ac_to_time_limit,
            new.time_limit_to_tle,
            new.time_resolution
        ),
        (2.0, 1.5, Duration::from_secs(1))
    );
    assert_eq!(new.validation_passes, 2);
    assert_eq!(new.memory_mib_or(2048), 2048);
}

#[test]
fn legacy_keys_are_read_in_legacy() {
    let (l, warnings) = limits(
        FormatVersion::Legacy,
        "limits:\n  time_multiplier: 3\n  time_safety_margin: 1.5\n  memory: 512\n",
    )
    .unwrap();
    assert_eq!(
        (l.ac_to_time_limit, l.time_limit_to_tle, l.memory_mib),
        (3.0, 1.5, Some(512))
    );
    assert!(warnings.is_empty());
}

#[test]
fn new_keys_are_read_and_legacy_names_are_honoured_with_a_warning() {
    let text = "limits:\n  time_multipliers:\n    ac_to_time_limit: 3\n  time_safety_margin: 4\n  \
                time_resolution: 0.5\n  time_limit: 2.5\n  output: 16\n";
    let (l, warnings) = limits(FormatVersion::V2025_09, text).unwrap();
    assert_eq!((l.ac_to_time_limit, l.time_limit_to_tle), (3.0, 4.0));
    assert_eq!(
        (l.time_resolution, l.time_limit, l.output_mib),
        (ms(500), Some(ms(2500)), Some(16))
    );
    assert_eq!(
        warnings,
        [
            "problem.yaml:4:23: limits.time_safety_margin is legacy; this version reads \
          limits.time_multipliers.time_limit_to_tle"
        ]
    );
}

#[test]
fn wrong_types_and_ranges_are_located_errors() {
    let error = limits(FormatVersion::Legacy, "limits:\n  time_multiplier: fast\n").unwrap_err();
    assert_eq!(
        error,
        "problem.yaml:2:20: limits.time_multiplier must be a number from 1 to 100, found \"fast\""
    );
    let error = limits(
        FormatVersion::V2023_07,
        "limits:\n  time_multipliers: {ac_to_time_limit: 0.5}\n",
    )
    .unwrap_err();
    assert!(error.ends_with(
        "limits.time_multipliers.ac_to_time_limit must be a number from 1 to 100, found 0.5"
    ));
    let error = limits(FormatVersion::V2025_09, "limits:\n  validation_passes: 1\n").unwrap_err();
    assert!(
        error.contains("validation_passes must be a whole number of passes from 2 to 1000"),
        "{error}"
    );
    let error = limits(FormatVersion::V2025_09, "limits:\n  memory: 1.5\n").unwrap_err();
    assert!(
        error.contains("limits.memory must be a whole number of MiB"),
        "{error}"
    );
}

#[test]
fn absurd_numbers_are_errors_at_their_place() {
    let machine = crate::bounds::machine_mib();
    let cases = [
        (
            "time_limit: 1e300",
            "4:15: limits.time_limit must be a number of seconds",
        ),
        ("time_limit: 1e-300", "4:15: limits.time_limit must be"),
        ("time_limit: 0.0009", "4:15: limits.time_limit must be"),
        ("time_limit: 86401", "4:15: limits.time_limit must be"),
        ("time_limit: -1", "4:15: limits.time_limit must be"),
        ("time_limit: .nan", "4:15: limits.time_limit must be"),
        ("time_limit: .inf", "4:15: limits.time_limit must be"),
        ("time_resolution: 0", "4:20: limits.time_resolution must be"),
        (
            "time_multipliers: {ac_to_time_limit: 1e300}",
            "4:40: limits.time_multipliers.ac_to_time_limit must be a number from 1 to 100",
        ),
        (
            "time_multipliers: {time_limit_to_tle: 0.5}",
            "4:41: limits.time_multipliers.time_limit_to_tle must be",
        ),
        (
            "time_multiplier: 0.5",
            "4:20: limits.time_multiplier must be",
        ),
        (
            "time_safety_margin: 101",
            "4:23: limits.time_safety_margin must be",
        ),
        (
            "code: 1073741824",
            "4:9: limits.code must be a whole number of KiB",
        ),
        (
            "compilation_time: 86401",
            "4:21: limits.compilation_time must be",
        ),
        ("validation_time: 0", "4:20: limits.validation_time must be"),
        ("generator_time: 1e9", "4:19: limits.generator_time must be"),
        (
            "validation_passes: 1001",
            "4:22: limits.validation_passes must be",
        ),
    ];
    for (line, error) in cases {
        let text = format!("problem_format_version: 2023-07\nname: X\nlimits:\n  {line}\n");
        let root = yaml::parse(Path::new("problem.yaml"), &text)
            .unwrap()
            .unwrap();
        let node = &root.as_map().unwrap()[2].1;
        let found = Limits::parse(
            Path::new("problem.yaml"),
            node,
            FormatVersion::V2023_07,
            true,
            &mut vec![],
        )
        .map(|_| ())
        .unwrap_err()
        .to_string();
        assert!(
            found.starts_with(&format!("problem.yaml:{error}")),
            "{line}: {found}"
        );
    }
    // Memory past this machine's names both figures.
    for key in [
        "memory",
        "output",
        "compilation_memory",
        "validation_memory",
    ] {
        let text = format!("limits:\n  {key}: {}\n", machine + 1);
        let error = limits(FormatVersion::Legacy, &text).unwrap_err();
        assert!(
            error.ends_with(&format!(
                "limits.{key} must be a whole number of MiB from 1 to {machine} (this \
                 machine's memory), found {}",
                machine + 1
            )),
            "{error}"
        );
    }
    let (l, _) = limits(
        FormatVersion::Legacy,
        &format!("limits:\n  memory: {machine}\n"),
    )
    .unwrap();
    assert_eq!(l.memory_mib, Some(machine));
}

#[test]
fn a_computed_limit_past_a_day_is_an_error_not_a_panic() {
    let l = Limits {
        ac_to_time_limit: 100.0,
        ..Limits::defaults(FormatVersion::V2025_09)
    };
    assert_eq!(
        l.time_limit(Some(Duration::from_secs(864)), None).unwrap(),
        Duration::from_secs(86_400)
    );
    assert_eq!(
        l.time_limit(Some(Duration::from_secs(1_000_000_000_000)), None),
        Err(TimeLimitError::OverADay { seconds: 1e14 })
    );
}

#[test]
fn unknown_limit_keys_warn_and_new_keys_are_unknown_in_legacy() {
    let (_, warnings) = limits(
        FormatVersion::Legacy,
        "limits:\n  time_resolution: 1\n  memroy: 3\n",
    )
    .unwrap();
    assert_eq!(warnings.len(), 2);
    assert!(
        warnings[1].contains("unknown key `limits.memroy` (did you mean `memory`?)"),
        "{warnings:?}"
    );
}

#[test]
fn computed_time_limit_is_the_smallest_multiple_of_the_resolution() {
    let l = Limits::defaults(FormatVersion::V2025_09);
    assert_eq!(l.time_limit(Some(ms(300)), None).unwrap(), ms(1000));
    assert_eq!(
        l.time_limit(Some(ms(500)), None).unwrap(),
        ms(1000),
        "exactly 1 s is enough"
    );
    assert_eq!(l.time_limit(Some(ms(501)), None).unwrap(), ms(2000));
    let fine = Limits {
        time_resolution: ms(100),
        ..l.clone()
    };
    assert_eq!(fine.time_limit(Some(ms(260)), None).unwrap(), ms(600));
    let legacy = Limits::defaults(FormatVersion::Legacy);
    assert_eq!(legacy.time_limit(Some(ms(300)), None).unwrap(), ms(2000));
    assert_eq!(l.time_limit(None, None), Err(TimeLimitError::Untimed));
}

#[test]
fn time_limit_must_stay_below_the_fastest_tle_run() {
    let l = Limits::defaults(FormatVersion::V2025_09);
    assert_eq!(
        l.time_limit(Some(ms(400)), Some(ms(1500))).unwrap(),
        ms(1000)
    );
    let error = l.time_limit(Some(ms(400)), Some(ms(1400))).unwrap_err();
    let error = error.to_string();
    assert!(
        error.contains("1s × time_limit_to_tle 1.5 = 1.5s is not below"),
        "{error}"
    );
    assert_eq!(l.timeout(ms(1000)), ms(1500));
}

#[test]
fn a_fixed_time_limit_is_kept_and_a_thin_margin_is_warned_of() {
    let l = Limits {
        time_limit: Some(ms(1500)),
        ..Limits::defaults(FormatVersion::V2025_09)
    };
    assert_eq!(l.time_limit(Some(ms(700)), None).unwrap(), ms(1500));
    let who = "the slowest accepted run";
    assert_eq!(l.rule().margin_warning(ms(1500), ms(750), who), None);
    // Too little room for the slowest accepted run is a warning; the limit stays.
    assert_eq!(l.time_limit(Some(ms(800)), None).unwrap(), ms(1500));
    assert_eq!(
        l.rule()
            .margin_warning(ms(1500), ms(800), who)
            .unwrap()
            .to_string(),
        "the time limit 1.5s is tighter than the format's margin: the slowest accepted run \
         takes 0.8s × ac_to_time_limit 2 = 1.6s"
    );
}
