//! What the HTML report shows of a failed case beyond its verdict and message: its diff, what it
//! printed before it ended, its stderr, an interactive exchange, in one text cut to a bound, so
//! that `verify`, which keeps a detail for every failed run until its submission settles, holds
//! no more than [`DETAIL_BYTES`] per run, and a report of many failures stays small.

use crate::diffing::Paint;
use crate::escape::visible;
use crate::judging::CaseResult;
use crate::reporting::cut;

/// The most bytes of one case's detail kept (and shown): a diff's first lines, a stderr's start.
pub const DETAIL_BYTES: usize = 2048;

/// The detail of a failed case (`None` for an accepted one, or a failure with nothing more to
/// show than its message), its control characters escaped and cut to [`DETAIL_BYTES`].
pub fn failure_detail(result: &CaseResult) -> Option<String> {
    if result.verdict.passed() {
        return None;
    }
    let mut text = String::new();
    let diff = result.diff.as_ref().map(|d| d.render(&Paint::plain(), ""));
    let parts = [
        ("diff (- expected, + output)", diff.as_deref()),
        ("stdout before it ended", result.stdout.as_deref()),
        ("stderr", result.stderr.as_deref()),
        (
            "exchange (> to the program, < from it)",
            result.exchange.as_deref(),
        ),
    ];
    for (heading, part) in parts {
        let Some(part) = part.filter(|part| !part.is_empty()) else {
            continue;
        };
        text += &format!("{heading}:\n{}", part.trim_end_matches('\n'));
        text += "\n";
        if text.len() > DETAIL_BYTES {
            break;
        }
    }
    (!text.is_empty()).then(|| cut(&visible(&text), DETAIL_BYTES, "detail").into_owned())
}
