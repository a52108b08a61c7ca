//! The viewer's TypeScript declarations of these types, kept from drifting: `www/src/protocol-types.generated.ts` is
//! what ts-rs renders from `types.rs` (each type derives `ts_rs::TS` in test builds), and the test below fails when
//! the committed file is not that text. `IRIDIA_UPDATE_PROTOCOL=1 cargo test --lib viewer_api` rewrites it; then
//! `npm run typecheck` shows what in the viewer the change breaks.
//!
//! Integers are rendered as `number` (`u64` included): the wasm layer serializes them as JavaScript numbers, and no
//! count or size the protocol carries reaches 2^53. [`ErrorKind`] lives in `crate::error`, outside this module, so
//! its declaration is written here by hand from its serde names, with every variant listed by an exhaustive match.

use std::path::Path;

use ts_rs::{Config, TS};

use super::*;

/// Where the generated declarations are committed, from the crate's root.
const GENERATED: &str = "www/src/protocol-types.generated.ts";

/// The environment variable that makes the test rewrite the file instead of comparing.
const UPDATE: &str = "IRIDIA_UPDATE_PROTOCOL";

/// Every error kind, in `crate::error`'s order.
const ERROR_KINDS: [ErrorKind; 6] = [
    ErrorKind::Invalid,
    ErrorKind::Unsupported,
    ErrorKind::Request,
    ErrorKind::Budget,
    ErrorKind::Cancelled,
    ErrorKind::NotReplayed,
];

/// `kind`'s place in [`ERROR_KINDS`]: a match without a wildcard, so that a kind added to `crate::error` does not
/// compile here until it is listed.
fn listed(kind: ErrorKind) -> usize {
    match kind {
        ErrorKind::Invalid => 0,
        ErrorKind::Unsupported => 1,
        ErrorKind::Request => 2,
        ErrorKind::Budget => 3,
        ErrorKind::Cancelled => 4,
        ErrorKind::NotReplayed => 5,
    }
}

/// A kind as serde writes it (what crosses into JavaScript).
fn wire_name(kind: ErrorKind) -> String {
    match serde_json::to_value(kind) {
        Ok(serde_json::Value::String(name)) => name,
        other => panic!("{kind:?} serializes as {other:?}, not a string"),
    }
}

impl TS for ErrorKind {
    type WithoutGenerics = Self;
    type OptionInnerType = Self;

    fn docs() -> Option<String> {
        Some(
            "/**\n * `ErrorKind` (`crate::error`): what sort of failure an error is, what the viewer matches on (never\n * the `what` text).\n */\n"
                .to_owned(),
        )
    }

    fn name(_: &Config) -> String {
        "ErrorKind".to_owned()
    }

    fn inline(_: &Config) -> String {
        let names: Vec<String> = ERROR_KINDS
            .iter()
            .map(|kind| format!("\"{}\"", wire_name(*kind)))
            .collect();
        names.join(" | ")
    }

    fn decl(cfg: &Config) -> String {
        format!("type ErrorKind = {};", Self::inline(cfg))
    }

    fn decl_concrete(cfg: &Config) -> String {
        Self::decl(cfg)
    }
}

/// `T`'s declaration as the generated file has it: its doc comment, then `export type …;`.
fn declaration<T: TS + ?Sized>(cfg: &Config) -> String {
    format!("{}export {}\n", T::docs().unwrap_or_default(), T::decl(cfg))
}

/// The generated file's text: a header, then every type of `types.rs` the viewer uses, in that file's order.
fn generated() -> String {
    let cfg = Config::new().with_large_int("number");
    let declarations = [
        declaration::<ErrorKind>(&cfg),
        declaration::<ErrorInfo>(&cfg),
        declaration::<TargetId>(&cfg),
        declaration::<Stage>(&cfg),
        declaration::<CaptureSummary>(&cfg),
        declaration::<ProgramInfo>(&cfg),
        declaration::<ComponentKind>(&cfg),
        declaration::<TargetInfo>(&cfg),
        declaration::<DrawStatus>(&cfg),
        declaration::<DrawInfo>(&cfg),
        declaration::<StepProgress>(&cfg),
        declaration::<ReplaySummary>(&cfg),
        declaration::<ChannelStats>(&cfg),
        declaration::<PixelCoord>(&cfg),
        declaration::<TargetComparison>(&cfg),
        declaration::<CompareResult>(&cfg),
        declaration::<ImageKind>(&cfg),
        declaration::<ShownChannels>(&cfg),
        declaration::<ValueRange>(&cfg),
        declaration::<DisplayOptions>(&cfg),
        declaration::<RenderedImage>(&cfg),
        declaration::<ChannelValue>(&cfg),
        declaration::<TexelValue>(&cfg),
        declaration::<ChannelDifference>(&cfg),
        declaration::<PixelVerdictKind>(&cfg),
        declaration::<TexelReadout>(&cfg),
        declaration::<RegisterValue>(&cfg),
        declaration::<VertexRecord>(&cfg),
        declaration::<DepthResult>(&cfg),
        declaration::<StencilResult>(&cfg),
        declaration::<BlendResult>(&cfg),
        declaration::<FragmentOutcome>(&cfg),
        declaration::<FragmentRecord>(&cfg),
        declaration::<PixelHistory>(&cfg),
        declaration::<DisassemblyLine>(&cfg),
        declaration::<Disassembly>(&cfg),
        declaration::<TraceStep>(&cfg),
        declaration::<ProgramTrace>(&cfg),
    ];
    let header = format!(
        "// Generated from src/viewer_api/types.rs by ts-rs (the test in src/viewer_api/types_ts.rs): do not edit.\n\
         // `{UPDATE}=1 cargo test --lib viewer_api` rewrites it; www/src/protocol.ts re-exports these types.\n"
    );
    let mut text = header;
    for declaration in declarations {
        text.push('\n');
        // ts-rs ends a line with a space after `{` and `,`; the file is kept free of trailing blanks
        for line in declaration.lines() {
            text.push_str(line.trim_end());
            text.push('\n');
        }
    }
    text
}

#[test]
fn every_error_kind_is_listed_once_in_its_place() {
    for (place, kind) in ERROR_KINDS.iter().enumerate() {
        assert_eq!(listed(*kind), place, "{kind:?}");
        assert_eq!(wire_name(*kind), kind.name(), "{kind:?}");
    }
}

#[test]
fn the_error_kinds_render_as_their_serde_names() {
    assert_eq!(
        ErrorKind::decl(&Config::new()),
        r#"type ErrorKind = "invalid" | "unsupported" | "request" | "budget" | "cancelled" | "not_replayed";"#
    );
}

#[test]
fn the_committed_typescript_declarations_are_those_of_the_rust_types() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(GENERATED);
    let text = generated();
    if std::env::var_os(UPDATE).is_some_and(|value| !value.is_empty() && value != "0") {
        std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != text {
        let line = committed
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(text.lines().count()));
        panic!(
            "{GENERATED} is not what ts-rs makes of src/viewer_api/types.rs (they differ from line {}): the Rust types \
             changed without the viewer's. Run `{UPDATE}=1 cargo test --lib viewer_api` to rewrite it, then `npm run \
             typecheck` to see what in the viewer needs changing.",
            line + 1
        );
    }
}
