//! "Did you mean ...?": the closest of a few known names to a word that matched none, for error
//! messages about keys, problems, flags and arguments.

/// ` (did you mean `c`?)` for the candidate closest to `word` (Jaro-Winkler above 0.8), or
/// nothing.
pub fn did_you_mean<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> String {
    closest(word, candidates)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

/// The candidate closest to `word` (Jaro-Winkler above 0.8), if any.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (strsim::jaro_winkler(word, c), c))
        .filter(|&(score, _)| score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_known_name_or_nothing() {
        let known = ["time_limit_ms", "memory_limit_mb", "checker"];
        assert_eq!(
            did_you_mean("timelimit_ms", known.into_iter()),
            " (did you mean `time_limit_ms`?)"
        );
        assert_eq!(did_you_mean("zzz", known.into_iter()), "");
    }
}
