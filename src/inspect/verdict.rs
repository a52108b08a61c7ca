//! The one-line verdict of a pixel: why its replayed value differs from the recorded one, in the user's terms,
//! derived from the data by the decision procedure in the documentation of [`crate::inspect`].

use super::edge::EdgeProximity;
use super::values::ChannelDifference;
use crate::api::enums::{Blend, ComparisonFunc};
use crate::capture::TargetSlot;
use crate::compare::PixelClass;
use crate::draw::{Fragment, FragmentOutcome};
use crate::output_merger::TargetOperation;
use serde::Serialize;

/// Which side covered a pixel whose coverage depends on rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CoverageCase {
    /// The replay covers the pixel and writes it; the GPU left it as it was.
    ReplayOnly,
    /// The GPU wrote the pixel; no fragment of the replay did.
    GpuOnly,
    /// Both wrote it; which triangle wrote last depends on rounding.
    Both,
}

/// Why a pixel's replayed value is what it is against the recorded one.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// The capture does not record the target after the draw: nothing to compare.
    NotRecorded,
    /// Bit for bit the same.
    Matches,
    /// Different bits, within the tolerance; the largest difference.
    WithinTolerance {
        /// The channel with the largest difference.
        channel: String,
        /// Its distance in ULPs.
        ulps: Option<u64>,
    },
    /// Not the same in place, but matched by a neighbour within the position tolerance.
    Shifted,
    /// Coverage depends on rounding at a triangle edge, and the two sides covered differently.
    EdgeCoverage {
        /// The edge.
        edge: EdgeProximity,
        /// Who wrote the pixel.
        case: CoverageCase,
    },
    /// No fragment of the replay reached the pixel, and the GPU wrote it.
    NoFragment,
    /// The replay's last fragment at the pixel was removed before the write, and the GPU wrote the pixel.
    Rejected {
        /// The fragment's triangle.
        primitive: u64,
        /// What removed it.
        outcome: FragmentOutcome,
    },
    /// The depth test decided differently: the replay's fragment passed and the GPU's failed, or the reverse.
    DepthTest {
        /// The fragment's triangle.
        primitive: u64,
        /// Whether the test passed in the replay.
        passed_in_replay: bool,
        /// The fragment's depth as tested (clamped, in the buffer's precision).
        replayed_depth: f32,
        /// The depth the GPU left at the pixel, if the depth target is recorded.
        recorded_depth: Option<f32>,
        /// The depth stored before the fragment.
        stored_depth: f32,
        /// The comparison.
        func: ComparisonFunc,
    },
    /// The replay wrote the pixel and the GPU left it as it was, for no reason the data shows.
    ReplayOnly {
        /// The replay's last writing triangle.
        primitive: u64,
    },
    /// Both wrote depth; the values differ.
    DepthValue {
        /// Replayed depth.
        replayed: f64,
        /// Recorded depth.
        recorded: f64,
        /// Their distance in ULPs of the format.
        ulps: Option<u64>,
    },
    /// Both wrote stencil; the values differ.
    StencilValue {
        /// Replayed stencil.
        replayed: u32,
        /// Recorded stencil.
        recorded: u32,
    },
    /// The program's output, written without blending, differs.
    ProgramOutput {
        /// The last writing triangle.
        primitive: u64,
        /// The channel with the largest difference.
        channel: String,
        /// Its distance in ULPs.
        ulps: Option<u64>,
        /// Replayed value.
        replayed: f64,
        /// Recorded value.
        recorded: f64,
        /// The other differing channels and their ULPs.
        others: ChannelUlps,
    },
    /// The value written by blending differs.
    Blending {
        /// The last writing triangle.
        primitive: u64,
        /// The channel with the largest difference.
        channel: String,
        /// Its distance in ULPs.
        ulps: Option<u64>,
        /// Replayed value.
        replayed: f64,
        /// Recorded value.
        recorded: f64,
        /// The colour factors.
        factors: (Blend, Blend),
        /// The triangle of this draw that wrote the destination blended over, when it was not the contents before
        /// the draw.
        destination_from: Option<u64>,
    },
}

/// What the procedure looks at.
pub(super) struct Evidence<'a> {
    /// The target.
    pub target: TargetSlot,
    /// The texel before the draw.
    pub before: &'a [u8],
    /// The recorded texel after, if recorded.
    pub recorded: Option<&'a [u8]>,
    /// The replayed texel.
    pub replayed: &'a [u8],
    /// The compare class of the pixel.
    pub class: Option<PixelClass>,
    /// The channels, recorded against replayed.
    pub channels: &'a [ChannelDifference],
    /// The fragments of the pixel history.
    pub fragments: &'a [Fragment],
    /// The nearest ambiguous edge of each fragment's triangle (by fragment), if ambiguous.
    pub fragment_edges: &'a [Option<EdgeProximity>],
    /// Triangles without a fragment here whose coverage of the pixel depends on rounding.
    pub neighbours: &'a [EdgeProximity],
    /// The depth the GPU left at the pixel, when a depth target is recorded.
    pub recorded_depth: Option<f32>,
}

/// Whether `fragment` wrote `target` (a render target write, or a depth or stencil change).
pub(super) fn wrote(fragment: &Fragment, target: TargetSlot) -> bool {
    match target {
        TargetSlot::RenderTarget(slot) => fragment
            .write
            .as_ref()
            .and_then(|w| w.targets.get(usize::try_from(slot).ok()?).copied().flatten())
            .is_some(),
        TargetSlot::DepthStencil => [fragment.early_depth_stencil, fragment.depth_stencil]
            .iter()
            .flatten()
            .any(|r| {
                r.depth.is_some_and(|d| d.written) || r.stencil.is_some_and(|s| s.writable && s.after != s.before)
            }),
    }
}

/// Channels named with their distance in ULPs (`None` for a NaN or infinity against something else).
pub type ChannelUlps = Vec<(String, Option<u64>)>;

/// The differing channel with the most ULPs (a non-finite mismatch counts as the most), and the other differing ones.
fn largest(channels: &[ChannelDifference]) -> Option<(&ChannelDifference, ChannelUlps)> {
    let differing: Vec<&ChannelDifference> = channels.iter().filter(|c| c.differs()).collect();
    let top = differing.iter().copied().max_by_key(|c| c.ulps.unwrap_or(u64::MAX))?;
    let others = differing
        .iter()
        .filter(|c| c.channel != top.channel)
        .map(|c| (c.channel.clone(), c.ulps))
        .collect();
    Some((top, others))
}

/// The depth test record of a fragment (the late one, else the early one).
fn depth_record(fragment: &Fragment) -> Option<crate::output_merger::DepthRecord> {
    fragment
        .depth_stencil
        .and_then(|r| r.depth)
        .or_else(|| fragment.early_depth_stencil.and_then(|r| r.depth))
}

/// The decision procedure (see the documentation of [`crate::inspect`]).
pub(super) fn decide(e: &Evidence<'_>) -> Verdict {
    // 1-2: nothing recorded; the same bits
    let Some(recorded) = e.recorded else {
        return Verdict::NotRecorded;
    };
    if recorded == e.replayed {
        return Verdict::Matches;
    }
    // 3: within tolerance, or matched by a neighbour
    match e.class {
        Some(PixelClass::Match) => {
            let (channel, ulps) =
                largest(e.channels).map_or((String::new(), None), |(c, _)| (c.channel.clone(), c.ulps));
            return Verdict::WithinTolerance { channel, ulps };
        }
        Some(PixelClass::Shifted) => return Verdict::Shifted,
        _ => {}
    }
    let writers: Vec<usize> = (0..e.fragments.len())
        .filter(|&i| e.fragments.get(i).is_some_and(|f| wrote(f, e.target)))
        .collect();
    let replay_changed = e.replayed != e.before;
    let gpu_changed = recorded != e.before;
    let ambiguous_writer = writers.iter().find_map(|&i| e.fragment_edges.get(i).copied().flatten());
    // 4: the GPU wrote the pixel, the replay left it as it was
    if gpu_changed && !replay_changed {
        let Some(last) = e.fragments.last() else {
            return match e.neighbours.first() {
                Some(edge) => Verdict::EdgeCoverage {
                    edge: *edge,
                    case: CoverageCase::GpuOnly,
                },
                None => Verdict::NoFragment,
            };
        };
        match last.outcome {
            FragmentOutcome::DepthFailed => {
                if let Some(depth) = depth_record(last) {
                    return Verdict::DepthTest {
                        primitive: last.primitive_index,
                        passed_in_replay: false,
                        replayed_depth: depth.quantized,
                        recorded_depth: e.recorded_depth,
                        stored_depth: depth.stored,
                        func: depth.func,
                    };
                }
            }
            FragmentOutcome::Written => {}
            outcome => {
                return Verdict::Rejected {
                    primitive: last.primitive_index,
                    outcome,
                };
            }
        }
    }
    // 5: the replay wrote the pixel, the GPU left it as it was
    if replay_changed && !gpu_changed {
        if let Some(edge) = ambiguous_writer {
            return Verdict::EdgeCoverage {
                edge,
                case: CoverageCase::ReplayOnly,
            };
        }
        let last = writers.last().and_then(|&i| e.fragments.get(i));
        if let Some(last) = last {
            if let Some(depth) = depth_record(last).filter(|d| d.passed == Some(true)) {
                return Verdict::DepthTest {
                    primitive: last.primitive_index,
                    passed_in_replay: true,
                    replayed_depth: depth.quantized,
                    recorded_depth: e.recorded_depth,
                    stored_depth: depth.stored,
                    func: depth.func,
                };
            }
            return Verdict::ReplayOnly {
                primitive: last.primitive_index,
            };
        }
    }
    // 6: both wrote (or the values differ otherwise): coverage at an edge when another triangle could have written
    // last, else the value
    let sole_writer = writers.len() == 1;
    let coverage_edge = match (ambiguous_writer, e.neighbours.first()) {
        (_, Some(neighbour)) => Some(*neighbour),
        (Some(edge), None) if !sole_writer => Some(edge),
        _ => None,
    };
    if let Some(edge) = coverage_edge {
        return Verdict::EdgeCoverage {
            edge,
            case: CoverageCase::Both,
        };
    }
    let Some((top, others)) = largest(e.channels) else {
        return Verdict::Matches;
    };
    let last_index = writers.last().copied();
    let last = last_index.and_then(|i| e.fragments.get(i));
    let primitive = last.map_or(0, |f| f.primitive_index);
    if e.target == TargetSlot::DepthStencil {
        return if top.channel == "Stencil" {
            Verdict::StencilValue {
                replayed: top.replayed_bits,
                recorded: top.recorded_bits,
            }
        } else {
            Verdict::DepthValue {
                replayed: top.replayed,
                recorded: top.recorded,
                ulps: top.ulps,
            }
        };
    }
    let operation = match e.target {
        TargetSlot::RenderTarget(slot) => last
            .and_then(|f| f.write.as_ref())
            .and_then(|w| w.targets.get(usize::try_from(slot).ok()?).copied().flatten())
            .map(|t| t.operation),
        TargetSlot::DepthStencil => None,
    };
    if let Some(TargetOperation::Blend(blend)) = operation {
        let earlier = writers
            .iter()
            .rev()
            .nth(1)
            .and_then(|&i| e.fragments.get(i))
            .map(|f| f.primitive_index);
        return Verdict::Blending {
            primitive,
            channel: top.channel.clone(),
            ulps: top.ulps,
            replayed: top.replayed,
            recorded: top.recorded,
            factors: (blend.src_blend, blend.dest_blend),
            destination_from: earlier,
        };
    }
    Verdict::ProgramOutput {
        primitive,
        channel: top.channel.clone(),
        ulps: top.ulps,
        replayed: top.replayed,
        recorded: top.recorded,
        others,
    }
}

/// A channel's name in words.
fn channel_word(channel: &str) -> &str {
    match channel {
        "R" => "red",
        "G" => "green",
        "B" => "blue",
        "A" => "alpha",
        "Depth" => "depth",
        "Stencil" => "stencil",
        other => other,
    }
}

/// A value as a float32 prints it (shortest round trip), which is exact for float32 and D32 channels.
fn value_text(value: f64) -> String {
    let single = value as f32;
    format!("{single}")
}

/// `N ULP` or `a NaN or infinity`.
fn ulps_text(ulps: Option<u64>) -> String {
    ulps.map_or_else(|| "a NaN or infinity".to_owned(), |u| format!("{u} ULP"))
}

/// An edge as `edge v1-v2 of primitive 17`.
fn edge_text(edge: &EdgeProximity) -> String {
    let ends = if edge.clipped { "p" } else { "v" };
    format!(
        "edge {ends}{}-{ends}{} of primitive {}",
        edge.edge[0], edge.edge[1], edge.primitive
    )
}

/// Where the centre lies from an edge, in words.
fn edge_distance_text(edge: &EdgeProximity) -> String {
    let side = |d: f64| if d >= 0. { "inside" } else { "outside" };
    if edge.within_step {
        format!(
            "the pixel centre is within 1/256 px of {}, {:.5} px {} it",
            edge_text(edge),
            edge.distance.abs(),
            side(edge.distance)
        )
    } else {
        format!(
            "snapping to 1/256 px moved {} across the pixel centre ({:.5} px {} after, {:.5} px {} before)",
            edge_text(edge),
            edge.distance.abs(),
            side(edge.distance),
            edge.unsnapped_distance.abs(),
            side(edge.unsnapped_distance)
        )
    }
}

impl Verdict {
    /// The verdict in one line.
    pub fn text(&self) -> String {
        match self {
            Verdict::NotRecorded => "not compared: the capture does not record this target after the draw".to_owned(),
            Verdict::Matches => "matches".to_owned(),
            Verdict::WithinTolerance { channel, ulps } => format!(
                "matches within tolerance ({} in {})",
                ulps_text(*ulps),
                channel_word(channel)
            ),
            Verdict::Shifted => "matches a neighbouring pixel within the position tolerance".to_owned(),
            Verdict::EdgeCoverage { edge, case } => {
                let who = match case {
                    CoverageCase::ReplayOnly => "the replay covers the pixel, the GPU did not",
                    CoverageCase::GpuOnly => "the GPU covered the pixel, the replay did not",
                    CoverageCase::Both => "which triangle wrote it last depends on rounding",
                };
                format!(
                    "coverage differs at a triangle edge (ambiguous: {}): {who}",
                    edge_distance_text(edge)
                )
            }
            Verdict::NoFragment => "no fragment reached this pixel in the replay, but the GPU wrote it".to_owned(),
            Verdict::Rejected { primitive, outcome } => {
                let what = match outcome {
                    FragmentOutcome::ClipDistance => "was removed by a clip distance",
                    FragmentOutcome::CoverageFailed => {
                        "was left uncovered by the sample mask, oMask or alpha-to-coverage"
                    }
                    FragmentOutcome::StencilFailed => "failed the stencil test",
                    FragmentOutcome::DepthFailed => "failed the depth test",
                    FragmentOutcome::Discarded => "was discarded by the pixel program",
                    FragmentOutcome::Written => "was written",
                };
                format!("the replay's fragment of primitive {primitive} {what}, but the GPU wrote the pixel")
            }
            Verdict::DepthTest {
                primitive,
                passed_in_replay,
                replayed_depth,
                recorded_depth,
                stored_depth,
                func,
            } => {
                let recorded = recorded_depth.map_or_else(|| "not recorded".to_owned(), |d| format!("{d}"));
                if *passed_in_replay {
                    format!(
                        "the depth test passed here but the recorded depth says it failed (replayed depth \
                         {replayed_depth}, recorded {recorded}; {func} against {stored_depth}, primitive \
                         {primitive})"
                    )
                } else {
                    format!(
                        "the depth test failed here in the replay but the GPU wrote the pixel (replayed depth \
                         {replayed_depth} {func} {stored_depth} failed, primitive {primitive}; recorded depth \
                         {recorded})"
                    )
                }
            }
            Verdict::ReplayOnly { primitive } => format!(
                "the replay wrote this pixel (primitive {primitive}) but the GPU left it as it was before the draw"
            ),
            Verdict::DepthValue {
                replayed,
                recorded,
                ulps,
            } => format!(
                "the depth written differs by {} (replayed {}, recorded {})",
                ulps_text(*ulps),
                value_text(*replayed),
                value_text(*recorded)
            ),
            Verdict::StencilValue { replayed, recorded } => {
                format!("the stencil written differs (replayed {replayed}, recorded {recorded})")
            }
            Verdict::ProgramOutput {
                primitive,
                channel,
                ulps,
                replayed,
                recorded,
                others,
            } => {
                let mut text = format!(
                    "the program's output differs by {} in {} (replayed {}, recorded {}; primitive {primitive})",
                    ulps_text(*ulps),
                    channel_word(channel),
                    value_text(*replayed),
                    value_text(*recorded)
                );
                for (other, ulps) in others {
                    text.push_str(&format!(", {} in {}", ulps_text(*ulps), channel_word(other)));
                }
                text
            }
            Verdict::Blending {
                primitive,
                channel,
                ulps,
                replayed,
                recorded,
                factors,
                destination_from,
            } => {
                let values = format!(
                    "{} in {} (replayed {}, recorded {})",
                    ulps_text(*ulps),
                    channel_word(channel),
                    value_text(*replayed),
                    value_text(*recorded)
                );
                match destination_from {
                    Some(earlier) => format!(
                        "blending: the destination differs: primitive {primitive} blends ({}, {}) over what \
                         primitive {earlier} of this draw wrote there; the result differs by {values}",
                        factors.0, factors.1
                    ),
                    None => format!(
                        "blending: the result of primitive {primitive}'s output blended ({}, {}) over the \
                         contents before the draw differs by {values}",
                        factors.0, factors.1
                    ),
                }
            }
        }
    }
}
