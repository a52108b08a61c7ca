//! What an inspection gives: the [`PixelInspection`] of one pixel and the [`ProgramListing`] its traces refer to.

use super::edge::EdgeProximity;
use super::values::{ChannelDifference, TexelValue};
use super::verdict::Verdict;
use crate::capture::TargetSlot;
use crate::compare::{PixelClass, Tolerance};
use crate::draw::PixelHistory;
use crate::dxbc::disasm::instruction_text;
use crate::dxbc::program::{Opcode, Program as ProgramIr};
use crate::format::Format;
use crate::replay::serialize_slot;
use serde::Serialize;

/// A program's listing, instruction by instruction.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProgramListing {
    /// The version line (`ps_5_0`).
    pub version: String,
    /// Instruction `i`'s text (declarations included), indented as the disassembler indents it: the line a trace
    /// step with `instruction: i` refers to.
    pub lines: Vec<String>,
}

impl ProgramListing {
    /// The listing of `program`.
    pub fn of(program: &ProgramIr) -> ProgramListing {
        let mut depth: usize = 0;
        let mut lines = Vec::with_capacity(program.instructions.len());
        for instruction in &program.instructions {
            let (closes, opens) = match instruction.opcode {
                Opcode::If | Opcode::Loop | Opcode::Switch => (false, true),
                Opcode::Else => (true, true),
                Opcode::Endif | Opcode::Endloop | Opcode::Endswitch => (true, false),
                _ => (false, false),
            };
            if closes {
                depth = depth.saturating_sub(1);
            }
            let text = instruction_text(instruction);
            let indent = "  ".repeat(depth);
            let joined: Vec<String> = text.lines().map(|l| format!("{indent}{l}")).collect();
            lines.push(joined.join("\n"));
            if opens {
                depth = depth.saturating_add(1);
            }
        }
        let version = crate::dxbc::disasm::disassemble_program(&ProgramIr {
            kind: program.kind,
            major: program.major,
            minor: program.minor,
            version_reserved_bits: program.version_reserved_bits,
            instructions: Vec::new(),
        })
        .trim_end()
        .to_owned();
        ProgramListing { version, lines }
    }

    /// Instruction `index`'s text.
    pub fn line(&self, index: u32) -> &str {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.lines.get(i))
            .map_or("", String::as_str)
    }
}

/// Everything about one pixel of one target of a replayed draw.
#[derive(Clone, Debug, Serialize)]
pub struct PixelInspection {
    /// The draw's position in the capture.
    pub draw: usize,
    /// The draw's label (see [`crate::replay::DrawReplay::label`]).
    pub label: String,
    /// The pixel's column.
    pub x: u32,
    /// The pixel's row (0 at the top).
    pub y: u32,
    /// The sample inspected (0 with one sample a pixel).
    pub sample: u32,
    /// Samples a pixel of the target.
    pub samples: u32,
    /// The target (`"rt0"`, `"depth"`).
    #[serde(serialize_with = "serialize_slot")]
    pub target: TargetSlot,
    /// The target's format.
    pub format: Format,
    /// The tolerance the pixel is compared under.
    pub tolerance: Tolerance,
    /// The texel before the draw.
    pub before: TexelValue,
    /// The texel the GPU left, if recorded.
    pub recorded: Option<TexelValue>,
    /// The replayed texel.
    pub replayed: TexelValue,
    /// Per channel, recorded against replayed; empty when nothing was recorded.
    pub difference: Vec<ChannelDifference>,
    /// The pixel's compare class; `None` when nothing was recorded.
    pub class: Option<PixelClass>,
    /// Whether the pixel is in the draw's ambiguity mask.
    pub ambiguous: bool,
    /// The verdict.
    pub verdict: Verdict,
    /// The verdict in one line.
    pub verdict_text: String,
    /// The nearest edge of each fragment's triangle (by fragment), when the pixel's coverage by it depends on
    /// rounding.
    pub fragment_edges: Vec<Option<EdgeProximity>>,
    /// Triangles without a fragment at the pixel whose coverage of it depends on rounding (looked for when the
    /// pixel is in the ambiguity mask and differs).
    pub neighbour_edges: Vec<EdgeProximity>,
    /// What the draw did at the pixel, every sample (each fragment's per-sample records, each sample's values); the
    /// verdict and `history_agrees` read it as the inspected sample saw it ([`PixelHistory::for_sample`]).
    pub history: PixelHistory,
    /// Whether the history's value after the draw is the full replay's texel (it always should be).
    pub history_agrees: bool,
    /// The pixel program's listing, if one is bound.
    pub pixel_program: Option<ProgramListing>,
    /// The vertex program's listing, when a vertex is traced.
    pub vertex_program: Option<ProgramListing>,
}
