//! The viewer's TypeScript declarations of these types, kept from drifting: `www/src/protocol-types.generated.ts` is
//! what ts-rs renders from `types.rs` (each type derives `ts_rs::TS` in test builds), and the test below fails when
//! the committed file is not that text. `IRIDIA_UPDATE_PROTOCOL=1 cargo test --lib viewer_api` rewrites it; then
//! `npm run typecheck` shows what in the viewer the change breaks.
//!
//! Integers are rendered as `number` (`u64` included): the wasm layer serializes them as JavaScript numbers, and no
//! count or size the protocol carries reaches 2^53.

use std::path::Path;

use ts_rs::{Config, TS};

use super::types::*;

/// Where the generated declarations are committed, from the crate's root.
const GENERATED: &str = "www/src/protocol-types.generated.ts";

/// The environment variable that makes the test rewrite the file instead of comparing.
const UPDATE: &str = "IRIDIA_UPDATE_PROTOCOL";

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
        declaration::<OutlineRowKind>(&cfg),
        declaration::<OutlineRowInfo>(&cfg),
        declaration::<UnrecordedDrawInfo>(&cfg),
        declaration::<ResolveInfo>(&cfg),
        declaration::<DispatchInfo>(&cfg),
        declaration::<DispatchView>(&cfg),
        declaration::<DispatchResult>(&cfg),
        declaration::<ProgramEditResult>(&cfg),
        declaration::<crate::replay::edit::EditChange>(&cfg),
        declaration::<DispatchThread>(&cfg),
        declaration::<ElementWriteInfo>(&cfg),
        declaration::<WriterTraceInfo>(&cfg),
        declaration::<DispatchElement>(&cfg),
        declaration::<ProgramInfo>(&cfg),
        declaration::<ComponentKind>(&cfg),
        declaration::<TargetInfo>(&cfg),
        declaration::<DrawStatus>(&cfg),
        declaration::<DrawInfo>(&cfg),
        declaration::<StepProgress>(&cfg),
        declaration::<ReplaySummary>(&cfg),
        declaration::<ChannelStats>(&cfg),
        declaration::<PixelCoord>(&cfg),
        declaration::<PixelBounds>(&cfg),
        declaration::<TargetComparison>(&cfg),
        declaration::<PerceptualFigures>(&cfg),
        declaration::<CompareResult>(&cfg),
        declaration::<ImageKind>(&cfg),
        declaration::<ShownChannels>(&cfg),
        declaration::<ValueRange>(&cfg),
        declaration::<DisplayOptions>(&cfg),
        declaration::<Limits>(&cfg),
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
        declaration::<SampleResult>(&cfg),
        declaration::<BlendResult>(&cfg),
        declaration::<FragmentOutcome>(&cfg),
        declaration::<FragmentRecord>(&cfg),
        declaration::<PixelHistory>(&cfg),
        declaration::<VariantInfo>(&cfg),
        declaration::<ExplainRow>(&cfg),
        declaration::<ExplainResult>(&cfg),
        declaration::<DisassemblyLine>(&cfg),
        declaration::<Disassembly>(&cfg),
        declaration::<TraceStep>(&cfg),
        declaration::<OmittedSteps>(&cfg),
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
