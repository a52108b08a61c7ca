//! The frame's events (version 1.5): markers as a tree around the draws, resolves and dispatches, clears and copies
//! between them, draw names from call and state, and events that do not check out.

use super::*;
use crate::capture::outline::{MAX_DEPTH, OutlineKind, OutlineRow};

/// A draw with no name: its label is its call and state.
fn unnamed_draw() -> DrawRecord {
    let mut draw = every_field_draw();
    draw.name = None;
    draw
}

/// Rows as (depth, what) with what `group NAME..end`, `draw N`, `resolve N`, `marker NAME`, `clear NAME`.
fn shape(rows: &[OutlineRow]) -> Vec<(u32, String)> {
    rows.iter()
        .map(|r| {
            let what = match &r.kind {
                OutlineKind::Group { end } => format!("group {} ..{end}", r.text),
                OutlineKind::Draw(n) => format!("draw {n}"),
                OutlineKind::Resolve(n) => format!("resolve {n}"),
                OutlineKind::Dispatch(n) => format!("dispatch {n}"),
                OutlineKind::Marker => format!("marker {}", r.text),
                OutlineKind::Call(kind) => format!("{kind} {}", r.text),
            };
            (r.depth, what)
        })
        .collect()
}

#[test]
fn markers_nest_around_the_draws_and_calls_sit_between_them() {
    let mut writer = CaptureWriter::in_memory();
    writer.add_event("begin", Some("Frame"));
    writer.add_event("begin", Some("Shadow pass"));
    writer.add_event("clear", Some("ClearDepthStencilView(depth 64x32, 1, 0)"));
    writer.add_draw(&every_field_draw()).unwrap();
    writer.add_event("end", None);
    writer.add_event("marker", Some("lights culled"));
    writer.add_event("begin", Some("GBuffer"));
    writer.add_draw(&unnamed_draw()).unwrap();
    writer.add_resolve(&super::resolves::record()).unwrap();
    writer.add_event("copy", Some("CopyResource"));
    writer.add_event("end", None);
    writer.add_draw(&every_field_draw()).unwrap();
    // the first end closes "Frame", the second has nothing open: ignored
    writer.add_event("end", None);
    writer.add_event("end", None);
    writer.add_event("update", Some("UpdateSubresource"));
    let capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
    assert!(capture.events_problem().is_none());
    let outline = capture.outline();
    let expected: Vec<(u32, String)> = [
        (0, "group Frame ..10"),
        (1, "group Shadow pass ..4"),
        (2, "clear ClearDepthStencilView(depth 64x32, 1, 0)"),
        (2, "draw 0"),
        (1, "marker lights culled"),
        (1, "group GBuffer ..9"),
        (2, "draw 1"),
        (2, "resolve 0"),
        (2, "copy CopyResource"),
        (1, "draw 2"),
        (0, "update UpdateSubresource"),
    ]
    .iter()
    .map(|(d, w)| (*d, (*w).to_owned()))
    .collect();
    assert_eq!(shape(&outline.rows), expected);
    assert!(outline.has_markers());
    assert_eq!(
        outline.draw_paths(3),
        [vec!["Frame", "Shadow pass"], vec!["Frame", "GBuffer"], vec!["Frame"]]
    );
}

#[test]
fn an_unclosed_region_closes_at_the_end_and_deep_nesting_stops_at_the_limit() {
    let mut writer = CaptureWriter::in_memory();
    writer.add_event("begin", Some("recorded mid-region"));
    for depth in 0..40 {
        writer.add_event("begin", Some(&format!("level {depth}")));
    }
    writer.add_draw(&every_field_draw()).unwrap();
    for _ in 0..40 {
        writer.add_event("end", None);
    }
    writer.add_draw(&every_field_draw()).unwrap();
    let capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
    let outline = capture.outline();
    let draw = |n: usize| outline.rows.iter().find(|r| r.kind == OutlineKind::Draw(n)).unwrap();
    // groups nest MAX_DEPTH deep; the deeper begins are rows of their own, their ends end nothing
    assert_eq!(draw(0).depth, MAX_DEPTH);
    assert_eq!(outline.rows.iter().map(|r| r.depth).max(), Some(MAX_DEPTH));
    // the outer region and 31 of the 40 begins are groups (32 deep); the 40 ends end the 9 past the limit and the
    // 31 inner groups, leaving the outer region open
    assert_eq!(draw(1).depth, 1, "{:?}", shape(&outline.rows));
    let OutlineKind::Group { end } = outline.rows[0].kind else {
        panic!()
    };
    assert_eq!(end, outline.rows.len(), "the outer region closes at the frame's end");
}

#[test]
fn an_unnamed_draw_is_named_by_its_call_targets_and_pixel_program() {
    let mut writer = CaptureWriter::in_memory();
    writer.add_draw(&every_field_draw()).unwrap();
    let mut unnamed = unnamed_draw();
    unnamed.api_call = None;
    writer.add_draw(&unnamed).unwrap();
    let mut context_named = every_field_draw();
    context_named.name = Some("immediate context".into());
    writer.add_draw(&context_named).unwrap();
    let mut capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
    let record = every_field_draw();
    let ps = BlobId::of(record.state.pixel_shader.as_deref().unwrap()).to_string();
    let summary = capture.draw_summary(1).unwrap();
    let targets: Vec<String> = summary
        .targets
        .iter()
        .filter(|t| t.target != TargetSlot::DepthStencil)
        .map(|t| format!("{} {}x{}", t.target, t.width, t.height))
        .collect();
    assert!(!targets.is_empty());
    let label = summary.label();
    assert!(label.starts_with("DrawIndexedInstanced(6, 3, 2, -4, 7) → "), "{label}");
    assert!(label.ends_with(&format!(", ps {}", &ps[..6])), "{label}");
    // the name wins; the recorder's old context names do not
    assert_eq!(capture.draw_summary(0).unwrap().label(), "every field");
    assert!(
        capture
            .draw_summary(2)
            .unwrap()
            .label()
            .starts_with("DrawIndexedInstanced(6, 3, 2, -4, 7) → ")
    );
    // what a replay reports is the same label
    assert_eq!(capture.draw(1).unwrap().label(), label);
    assert_eq!(capture.draw(0).unwrap().label(), "every field");
}

#[test]
fn events_that_do_not_check_out_are_reported_and_left_out() {
    let mut writer = CaptureWriter::in_memory();
    writer.add_event("begin", Some("pass"));
    writer.add_draw(&every_field_draw()).unwrap();
    writer.add_event("end", None);
    let archive = writer.finish_to_vec().unwrap();
    for (edit, expected) in [
        (
            serde_json::json!([{"kind": "begin", "before_draw": 5}]),
            "5 draws before it: the capture has 1",
        ),
        (
            serde_json::json!([{"kind": "marker", "before_draw": 1}, {"kind": "marker", "before_draw": 0}]),
            "events are listed in the frame's order",
        ),
        (
            serde_json::json!([{"kind": "marker", "before_draw": 0, "name": "x".repeat(2000)}]),
            "longer than 1024 characters",
        ),
    ] {
        let bad = with_manifest(&archive, |m| m["events"] = edit.clone());
        let mut capture = Capture::open(bad).unwrap();
        let problem = capture.events_problem().unwrap().to_string();
        assert!(problem.contains(expected), "{problem}");
        assert!(problem.contains("events["), "{problem}");
        // the capture still opens and replays, its outline the draws alone
        assert_eq!(shape(&capture.outline().rows), [(0, "draw 0".to_owned())]);
        capture.draw(0).unwrap();
    }
    // an unknown kind is a call row; a version 1.4 reader's capture (no events) has no markers
    let other =
        with_manifest(
            &archive,
            |m| m["events"] = serde_json::json!([{"kind": "discard_view", "before_draw": 1, "name": "DiscardView"}]),
        );
    let capture = Capture::open(other).unwrap();
    assert_eq!(
        shape(&capture.outline().rows),
        [(0, "draw 0".to_owned()), (0, "discard_view DiscardView".to_owned())]
    );
    assert!(!capture.outline().has_markers());
}
