//! `iridia replay` over many captures, for CI: which captures (files, and the `.iridia` files under folders), a
//! stable share of the work for one job of N (`--shard K/N`), the report of several captures, its table, its JUnit
//! file, and `iridia merge` of the shards' JSON reports into the report of the whole run.
//!
//! Every figure a table, a JUnit file or a merge shows comes from the JSON report (each entry's `position` in its
//! frame, `row`, `seconds`, `files`, `compared`, `matches`, `error`), so that reports of the N shards merged give
//! the same report, table and exit code as one unsharded run (apart from times).

use iridia::capture::FrameEvent;
use serde::Serialize;
use serde_json::{Value, json};
use sha2::Digest as _;
use std::path::{Path, PathBuf};

/// How a run of `iridia replay` ended, for the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every compared draw matches.
    Matches,
    /// Some compared draw differs.
    Differs,
    /// Some draw could not be replayed.
    Failed,
    /// The capture lists draws that were not recorded, or no draw was compared.
    Incomplete,
}

/// The most captures one run takes (folders are searched this far and no further).
const MAX_CAPTURES: usize = 100_000;

/// The table's header (draw rows).
pub(super) const HEADER: &str = "draw  name                      targets        compared  differing  ambiguous  max error                         result";

/// One job's share of the work: `--shard K/N` takes the (capture, event) pairs whose hash, modulo `count`, is
/// `index - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: u32,
    /// N.
    pub count: u32,
}

impl Shard {
    /// `K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {text}: give K/N, a job K of N jobs (1 <= K <= N), e.g. 2/4");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether this shard takes `event` of the capture named `capture` (its file name): the first 8 bytes of the
    /// SHA-256 of `capture/draw12` (or `resolve3`, `dispatch0`), modulo N, are K - 1. The same on every machine and
    /// in every job, whatever folder the captures are in.
    pub fn takes(self, capture: &str, event: FrameEvent) -> bool {
        let key = match event {
            FrameEvent::Draw(i) => format!("{capture}/draw{i}"),
            FrameEvent::Resolve(i) => format!("{capture}/resolve{i}"),
            FrameEvent::Dispatch(i) => format!("{capture}/dispatch{i}"),
        };
        let digest = sha2::Sha256::digest(key.as_bytes());
        let mut first = [0u8; 8];
        for (to, from) in first.iter_mut().zip(digest.iter()) {
            *to = *from;
        }
        let share = u64::from_le_bytes(first)
            .checked_rem(u64::from(self.count))
            .unwrap_or(0);
        share == u64::from(self.index.saturating_sub(1))
    }
}

/// The name a capture is sharded by: its file name.
pub(super) fn shard_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// The captures `paths` name: each file as given, and for each folder the `.iridia` files under it (sorted by path,
/// at most [`MAX_CAPTURES`]).
pub(super) fn capture_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            let mut folders = vec![path.clone()];
            while let Some(folder) = folders.pop() {
                let entries =
                    std::fs::read_dir(&folder).map_err(|e| format!("{}: cannot read: {e}", folder.display()))?;
                for entry in entries.flatten() {
                    let entry_path = entry.path();
                    if entry_path.is_dir() {
                        folders.push(entry_path);
                    } else if entry_path.extension().is_some_and(|e| e == "iridia") {
                        found.push(entry_path);
                    }
                    if found.len().saturating_add(files.len()) > MAX_CAPTURES {
                        return Err(format!(
                            "{}: more than {MAX_CAPTURES} captures: give fewer folders",
                            path.display()
                        ));
                    }
                }
            }
            if found.is_empty() {
                return Err(format!("{}: no .iridia capture in this folder", path.display()));
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    if files.is_empty() {
        return Err("no capture given".to_owned());
    }
    Ok(files)
}

/// Where each capture's `--out` files go: `DIR` itself for one capture, else `DIR/STEM` (`STEM-2`... when two
/// captures share a stem).
pub(super) fn output_folders(out: Option<&Path>, captures: &[PathBuf]) -> Vec<Option<PathBuf>> {
    let Some(dir) = out else {
        return vec![None; captures.len()];
    };
    if captures.len() == 1 {
        return vec![Some(dir.to_path_buf())];
    }
    let mut taken = std::collections::HashSet::new();
    captures
        .iter()
        .map(|capture| {
            let stem = capture
                .file_stem()
                .map_or_else(|| "capture".to_owned(), |s| s.to_string_lossy().into_owned());
            let mut name = stem.clone();
            let mut n = 1u32;
            while !taken.insert(name.clone()) {
                n = n.saturating_add(1);
                name = format!("{stem}-{n}");
            }
            Some(dir.join(name))
        })
        .collect()
}

/// The counts of a report (one capture's, or summed over several), as its JSON `summary`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Draws replayed (or that failed).
    pub draws: u64,
    /// Draws compared with a recorded target.
    pub compared: u64,
    /// Of those, matching.
    pub matching: u64,
    /// Of those, differing.
    pub differing: u64,
    /// Draws, resolves and dispatches that could not be read or run.
    pub errors: u64,
    /// Of the errors, draws'.
    pub draw_errors: u64,
    /// Draws the capture lists as not recorded.
    pub unrecorded: u64,
    /// Resolves replayed (or that failed).
    pub resolves: u64,
    /// Resolves compared.
    pub resolves_compared: u64,
    /// Resolves matching.
    pub resolves_matching: u64,
    /// Resolves differing.
    pub resolves_differing: u64,
    /// Of the errors, resolves'.
    pub resolve_errors: u64,
    /// Dispatches replayed (or that failed).
    pub dispatches: u64,
    /// Dispatches compared.
    pub dispatches_compared: u64,
    /// Dispatches matching.
    pub dispatches_matching: u64,
    /// Dispatches differing.
    pub dispatches_differing: u64,
    /// Of the errors, dispatches'.
    pub dispatch_errors: u64,
}

/// How one list of entries came out: (entries, compared, matching, differing, errors).
fn tally(entries: &Value) -> [u64; 5] {
    let mut counts = [0u64; 5];
    for entry in entries.as_array().map(Vec::as_slice).unwrap_or(&[]) {
        let compared = entry["compared"].as_bool() == Some(true);
        let matches = entry["matches"].as_bool() == Some(true);
        let error = entry.get("error").is_some();
        let flags = [true, compared, compared && matches, compared && !matches, error];
        for (count, flag) in counts.iter_mut().zip(flags) {
            *count = count.saturating_add(u64::from(flag));
        }
    }
    counts
}

impl Summary {
    /// The counts of one capture's report.
    pub fn of(report: &Value) -> Summary {
        let [draws, compared, matching, differing, draw_errors] = tally(&report["draws"]);
        let [
            resolves,
            resolves_compared,
            resolves_matching,
            resolves_differing,
            resolve_errors,
        ] = tally(&report["resolves"]);
        let [
            dispatches,
            dispatches_compared,
            dispatches_matching,
            dispatches_differing,
            dispatch_errors,
        ] = tally(&report["dispatches"]);
        Summary {
            draws,
            compared,
            matching,
            differing,
            errors: draw_errors
                .saturating_add(resolve_errors)
                .saturating_add(dispatch_errors),
            draw_errors,
            unrecorded: report["unrecorded_draws"].as_array().map_or(0, |u| u.len() as u64),
            resolves,
            resolves_compared,
            resolves_matching,
            resolves_differing,
            resolve_errors,
            dispatches,
            dispatches_compared,
            dispatches_matching,
            dispatches_differing,
            dispatch_errors,
        }
    }

    /// The sum of two.
    fn plus(self, other: Summary) -> Summary {
        let add = |a: u64, b: u64| a.saturating_add(b);
        Summary {
            draws: add(self.draws, other.draws),
            compared: add(self.compared, other.compared),
            matching: add(self.matching, other.matching),
            differing: add(self.differing, other.differing),
            errors: add(self.errors, other.errors),
            draw_errors: add(self.draw_errors, other.draw_errors),
            unrecorded: add(self.unrecorded, other.unrecorded),
            resolves: add(self.resolves, other.resolves),
            resolves_compared: add(self.resolves_compared, other.resolves_compared),
            resolves_matching: add(self.resolves_matching, other.resolves_matching),
            resolves_differing: add(self.resolves_differing, other.resolves_differing),
            resolve_errors: add(self.resolve_errors, other.resolve_errors),
            dispatches: add(self.dispatches, other.dispatches),
            dispatches_compared: add(self.dispatches_compared, other.dispatches_compared),
            dispatches_matching: add(self.dispatches_matching, other.dispatches_matching),
            dispatches_differing: add(self.dispatches_differing, other.dispatches_differing),
            dispatch_errors: add(self.dispatch_errors, other.dispatch_errors),
        }
    }

    /// Anything compared: draws, resolves or dispatches.
    fn anything_compared(&self) -> bool {
        self.compared > 0 || self.resolves_compared > 0 || self.dispatches_compared > 0
    }

    /// Anything run at all.
    fn anything_run(&self) -> bool {
        self.draws > 0 || self.resolves > 0 || self.dispatches > 0
    }
}

/// The captures' reports of a report: its `captures`, or the report itself when it is one capture's.
pub(super) fn captures_of(report: &Value) -> Vec<&Value> {
    match report.get("captures").and_then(Value::as_array) {
        Some(captures) => captures.iter().collect(),
        None => vec![report],
    }
}

/// Several captures' reports as one: `{"shard": {"index", "count"} or null, "captures": [...], "summary": {...,
/// "captures": n}}`.
pub(super) fn batch_report(captures: Vec<Value>, shard: Option<Shard>) -> Value {
    let summary = captures
        .iter()
        .fold(Summary::default(), |sum, capture| sum.plus(Summary::of(capture)));
    let mut summary_json = json!(summary);
    if let Some(object) = summary_json.as_object_mut() {
        object.insert("captures".to_owned(), json!(captures.len()));
    }
    json!({
        "shard": shard.map(|s| json!({"index": s.index, "count": s.count})),
        "captures": captures,
        "summary": summary_json,
    })
}

/// Whether a report is a shard's (a shard may hold no work at all without being incomplete).
fn is_shard(report: &Value) -> bool {
    report.get("shard").is_some_and(|s| !s.is_null())
}

/// The exit verdict of a report: an error anywhere fails it; else it is incomplete (unless `allow_unrecorded`)
/// when a capture lists unrecorded draws or nothing was compared (a shard that was given no work is not); else it
/// differs when anything compared differs.
pub(super) fn verdict(report: &Value, allow_unrecorded: bool) -> Verdict {
    let sum = captures_of(report)
        .into_iter()
        .fold(Summary::default(), |sum, capture| sum.plus(Summary::of(capture)));
    let nothing_compared = !sum.anything_compared() && (sum.anything_run() || !is_shard(report));
    if sum.errors > 0 {
        Verdict::Failed
    } else if !allow_unrecorded && (sum.unrecorded > 0 || nothing_compared) {
        Verdict::Incomplete
    } else if sum.differing > 0 || sum.resolves_differing > 0 || sum.dispatches_differing > 0 {
        Verdict::Differs
    } else {
        Verdict::Matches
    }
}

/// Every entry of a capture's report (draws, resolves, dispatches) in its frame's order.
fn entries_in_order(capture: &Value) -> Vec<&Value> {
    let mut entries: Vec<&Value> = ["draws", "resolves", "dispatches"]
        .iter()
        .flat_map(|list| capture[*list].as_array().map(Vec::as_slice).unwrap_or(&[]))
        .collect();
    entries.sort_by_key(|e| e["position"].as_u64().unwrap_or(u64::MAX));
    entries
}

/// One capture's text: its header line, the table of its draws, resolves and dispatches in the frame's order, its
/// counts and what was not recorded.
fn capture_text(capture: &Value, shard: Option<&Value>, allow_unrecorded: bool) -> String {
    let sum = Summary::of(capture);
    let variants: Vec<&str> = capture["variants"]
        .as_array()
        .map(|v| v.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let under = if variants.is_empty() {
        String::new()
    } else {
        format!(", variants: {}", variants.join(","))
    };
    let of_shard = match shard {
        Some(s) if !s.is_null() => format!(", shard {}/{}", s["index"], s["count"]),
        _ => String::new(),
    };
    let mut text = format!(
        "{}: {} of {} draws, tolerance: {}{under}{of_shard}\n{HEADER}\n",
        capture["capture"].as_str().unwrap_or("?"),
        sum.draws,
        capture["draw_count"].as_u64().unwrap_or(0),
        capture["tolerance"].as_str().unwrap_or("?"),
    );
    // a draw whose marker path is not the previous draw's gets the path as a heading
    let mut path: Option<&Vec<Value>> = None;
    for entry in entries_in_order(capture) {
        if let Some(markers) = entry.get("markers").and_then(Value::as_array)
            && path != Some(markers)
        {
            if !markers.is_empty() || path.is_some_and(|p| !p.is_empty()) {
                let names: Vec<&str> = markers.iter().filter_map(Value::as_str).collect();
                let heading = if names.is_empty() {
                    "(no marker)".to_owned()
                } else {
                    names.join(" / ")
                };
                text.push_str(&format!("  ── {heading}\n"));
            }
            path = Some(markers);
        }
        text.push_str(entry["row"].as_str().unwrap_or("?"));
        text.push('\n');
    }
    text.push_str(&format!(
        "{} compared: {} match, {} differ",
        sum.compared, sum.matching, sum.differing
    ));
    if sum.draw_errors > 0 {
        text.push_str(&format!(", {} failed", sum.draw_errors));
    }
    if sum.resolves > 0 {
        text.push_str(&format!(
            "; {} resolves, {} compared: {} match, {} differ",
            sum.resolves, sum.resolves_compared, sum.resolves_matching, sum.resolves_differing
        ));
        if sum.resolve_errors > 0 {
            text.push_str(&format!(", {} failed", sum.resolve_errors));
        }
    }
    if sum.dispatches > 0 {
        text.push_str(&format!(
            "; {} dispatches, {} compared: {} match, {} differ",
            sum.dispatches, sum.dispatches_compared, sum.dispatches_matching, sum.dispatches_differing
        ));
        if sum.dispatch_errors > 0 {
            text.push_str(&format!(", {} failed", sum.dispatch_errors));
        }
    }
    text.push('\n');
    let unrecorded = capture["unrecorded_draws"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    for draw in unrecorded {
        text.push_str(&format!("not recorded: {}\n", draw["line"].as_str().unwrap_or("?")));
    }
    if !unrecorded.is_empty() {
        text.push_str(&format!(
            "{} draws of the frame were not recorded{}\n",
            unrecorded.len(),
            if allow_unrecorded {
                " (allowed)"
            } else {
                ": exit 3 (--allow-unrecorded to accept)"
            }
        ));
    }
    let nothing =
        !sum.anything_compared() && sum.errors == 0 && (sum.anything_run() || shard.is_none_or(Value::is_null));
    if nothing && !allow_unrecorded {
        text.push_str("nothing was compared: exit 3 (--allow-unrecorded to accept)\n");
    }
    text
}

/// A report's text: one capture's as `iridia replay` always printed it; several captures' (or a shard's) each in
/// turn, then a summary table with a line per capture and the totals.
pub(super) fn report_text(report: &Value, allow_unrecorded: bool) -> String {
    let Some(captures) = report.get("captures").and_then(Value::as_array) else {
        return capture_text(report, None, allow_unrecorded);
    };
    let shard = report.get("shard");
    let mut text = String::new();
    for capture in captures {
        text.push_str(&capture_text(capture, shard, allow_unrecorded));
        text.push('\n');
    }
    text.push_str(
        "capture                                   draws  compared  differing  errors  unrecorded  resolves  dispatches\n",
    );
    let mut total = Summary::default();
    for capture in captures {
        let sum = Summary::of(capture);
        total = total.plus(sum);
        text.push_str(&summary_line(capture["capture"].as_str().unwrap_or("?"), &sum));
    }
    text.push_str(&summary_line(&format!("total ({} captures)", captures.len()), &total));
    text
}

/// One line of the summary table.
fn summary_line(name: &str, sum: &Summary) -> String {
    let mut name = name.to_owned();
    if name.chars().count() > 40 {
        let tail: String = name
            .chars()
            .rev()
            .take(39)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        name = format!("…{tail}");
    }
    format!(
        "{name:<40}  {:>5}  {:>8}  {:>9}  {:>6}  {:>10}  {:>8}  {:>10}\n",
        sum.draws,
        sum.compared,
        sum.differing
            .saturating_add(sum.resolves_differing)
            .saturating_add(sum.dispatches_differing),
        sum.errors,
        sum.unrecorded,
        sum.resolves,
        sum.dispatches
    )
}

/// `text` with XML's five special characters escaped, and characters XML 1.0 cannot hold dropped.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if u32::from(c) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

/// What an entry is called in JUnit: `draw 12: DrawIndexed(36) ...`, `resolve 0`, `dispatch 3: ...`.
fn entry_name(kind: &str, entry: &Value) -> String {
    let index = entry["index"]
        .as_u64()
        .map_or_else(|| "?".to_owned(), |i| i.to_string());
    match entry["label"].as_str() {
        Some(label) => format!("{kind} {index}: {label}"),
        None => format!("{kind} {index}"),
    }
}

/// A report as a JUnit XML file: a `testsuite` per capture, a `testcase` per draw, resolve and dispatch (its time,
/// the difference summary as the failure message, the written files' paths in `system-out`), errors as `error`,
/// draws with nothing recorded to compare with and the capture's unrecorded draws as `skipped`.
pub(super) fn junit(report: &Value) -> String {
    let mut suites = String::new();
    let (mut all_tests, mut all_failures, mut all_errors, mut all_skipped, mut all_time) =
        (0u64, 0u64, 0u64, 0u64, 0f64);
    for capture in captures_of(report) {
        let name = capture["capture"].as_str().unwrap_or("?");
        let class = Path::new(name)
            .file_stem()
            .map_or_else(|| name.to_owned(), |s| s.to_string_lossy().replace('.', "_"));
        let (mut tests, mut failures, mut errors, mut skipped, mut time) = (0u64, 0u64, 0u64, 0u64, 0f64);
        let mut cases = String::new();
        for (kind, list) in [("draw", "draws"), ("resolve", "resolves"), ("dispatch", "dispatches")] {
            for entry in capture[list].as_array().map(Vec::as_slice).unwrap_or(&[]) {
                let seconds = entry["seconds"].as_f64().unwrap_or(0.0);
                tests = tests.saturating_add(1);
                time += seconds;
                cases.push_str(&format!(
                    "    <testcase classname=\"{}\" name=\"{}\" time=\"{seconds:.3}\">\n",
                    xml_escape(&class),
                    xml_escape(&entry_name(kind, entry))
                ));
                let row = entry["row"].as_str().unwrap_or("");
                if let Some(message) = entry["error"].as_str() {
                    errors = errors.saturating_add(1);
                    cases.push_str(&format!("      <error message=\"{}\"/>\n", xml_escape(message)));
                } else if entry["compared"].as_bool() != Some(true) {
                    skipped = skipped.saturating_add(1);
                    cases.push_str("      <skipped message=\"nothing recorded after it to compare with\"/>\n");
                } else if entry["matches"].as_bool() != Some(true) {
                    failures = failures.saturating_add(1);
                    cases.push_str(&format!(
                        "      <failure message=\"{}\">{}</failure>\n",
                        xml_escape(&difference_summary(entry)),
                        xml_escape(row)
                    ));
                }
                let files: Vec<&str> = entry["files"]
                    .as_array()
                    .map(|f| f.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if !files.is_empty() {
                    cases.push_str(&format!(
                        "      <system-out>{}</system-out>\n",
                        xml_escape(&files.join("\n"))
                    ));
                }
                cases.push_str("    </testcase>\n");
            }
        }
        for draw in capture["unrecorded_draws"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
            tests = tests.saturating_add(1);
            skipped = skipped.saturating_add(1);
            cases.push_str(&format!(
                "    <testcase classname=\"{}\" name=\"{}\" time=\"0\">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                xml_escape(&class),
                xml_escape(&format!("not recorded {}", draw["line"].as_str().unwrap_or("?"))),
                xml_escape(draw["reason"].as_str().unwrap_or("not recorded"))
            ));
        }
        suites.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{time:.3}\">\n{cases}  </testsuite>\n",
            xml_escape(name)
        ));
        all_tests = all_tests.saturating_add(tests);
        all_failures = all_failures.saturating_add(failures);
        all_errors = all_errors.saturating_add(errors);
        all_skipped = all_skipped.saturating_add(skipped);
        all_time += time;
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"iridia replay\" tests=\"{all_tests}\" failures=\"{all_failures}\" errors=\"{all_errors}\" skipped=\"{all_skipped}\" time=\"{all_time:.3}\">\n{suites}</testsuites>\n"
    )
}

/// A differing entry's difference in one line: `1204 of 4096 pixels differ (12 ambiguous)` or, for a dispatch,
/// `3 of 64 elements differ`.
fn difference_summary(entry: &Value) -> String {
    if let Some(differing) = entry["differing_elements"].as_u64() {
        return format!(
            "{differing} of {} elements differ",
            entry["compared_elements"].as_u64().unwrap_or(0)
        );
    }
    let differing = entry["differing_pixels"].as_u64().unwrap_or(0);
    let compared = entry["compared_pixels"].as_u64().unwrap_or(0);
    let ambiguous = entry["ambiguous_pixels"].as_u64().unwrap_or(0);
    let mut text = format!("{differing} of {compared} pixels differ");
    if ambiguous > 0 {
        text.push_str(&format!(" ({ambiguous} ambiguous)"));
    }
    if differing == 0 {
        // the difference is in a view, a stream-output buffer or a counter: the row says which
        text = format!(
            "differs: {}",
            entry["row"]
                .as_str()
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    text
}

/// Merges reports (each a capture's or a batch's, as `iridia replay --json` wrote them; typically the N shards of
/// one run) into one batch report: entries of the same capture joined in their frame's order, the first report's
/// settings and unrecorded draws for each capture, the counts summed again.
pub(super) fn merge(reports: &[Value]) -> Result<Value, String> {
    let mut order: Vec<String> = Vec::new();
    let mut merged: std::collections::HashMap<String, Value> = std::collections::HashMap::new();
    for report in reports {
        for capture in captures_of(report) {
            let name = capture["capture"]
                .as_str()
                .ok_or("a report without its capture's name: not an iridia replay --json report")?
                .to_owned();
            match merged.get_mut(&name) {
                None => {
                    order.push(name.clone());
                    merged.insert(name, capture.clone());
                }
                Some(into) => {
                    for key in ["tolerance", "variants", "draw_count"] {
                        if into[key] != capture[key] {
                            return Err(format!(
                                "{name}: the reports were made with different {key} ({} and {})",
                                into[key], capture[key]
                            ));
                        }
                    }
                    for list in ["draws", "resolves", "dispatches"] {
                        let more = capture[list].as_array().cloned().unwrap_or_default();
                        if let Some(entries) = into.get_mut(list).and_then(Value::as_array_mut) {
                            entries.extend(more);
                        }
                    }
                }
            }
        }
    }
    let mut captures = Vec::new();
    for name in order {
        let Some(mut capture) = merged.remove(&name) else {
            continue;
        };
        for list in ["draws", "resolves", "dispatches"] {
            if let Some(entries) = capture.get_mut(list).and_then(Value::as_array_mut) {
                entries.sort_by_key(|e| e["position"].as_u64().unwrap_or(u64::MAX));
                let before = entries.len();
                entries.dedup_by_key(|e| e["position"].as_u64());
                if entries.len() != before {
                    return Err(format!(
                        "{name}: two reports hold the same {list}: shards of one run overlap"
                    ));
                }
            }
        }
        let summary = Summary::of(&capture);
        if let Some(object) = capture.as_object_mut() {
            object.insert("summary".to_owned(), json!(summary));
        }
        captures.push(capture);
    }
    Ok(batch_report(captures, None))
}

/// Runs `iridia merge`: reads the reports, merges them, prints the merged report's table (or JSON), writes its JUnit
/// file; the exit verdict as `iridia replay` gives it.
pub fn merge_command(
    files: &[PathBuf],
    json_out: bool,
    junit_file: Option<&Path>,
    allow_unrecorded: bool,
) -> Result<Verdict, String> {
    let mut reports = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
        let report: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: not a JSON report: {e}", file.display()))?;
        reports.push(report);
    }
    let merged = merge(&reports)?;
    if let Some(file) = junit_file {
        std::fs::write(file, junit(&merged)).map_err(|e| format!("{}: cannot write: {e}", file.display()))?;
    }
    super::common::print_json_or_text(json_out, &merged, || report_text(&merged, allow_unrecorded))?;
    Ok(verdict(&merged, allow_unrecorded))
}
