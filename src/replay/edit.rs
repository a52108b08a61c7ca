//! Editing a draw's program and running the draw again: a listing (as [`crate::dxbc::disasm`] prints it, fxc's
//! syntax) assembled and put in place of one stage's program, so that the replay with the edit can be set against
//! the recorded pixels and against the replay as recorded (`iridia replay --program`, the viewer's program editor).
//!
//! An edit replaces the program bytes only: the stage's bindings (constant buffers, views, samplers) stay the
//! draw's, and the edited program is checked as any recorded one is (its signature must still link with the stages
//! around it; a slot it newly declares must be bound, or the replay says which is not).

use crate::capture::CapturedDraw;
use crate::{Error, Result};
use std::sync::Arc;

/// A program stage of a draw an edit may replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EditStage {
    /// The vertex program.
    Vs,
    /// The pixel program.
    Ps,
    /// The geometry program.
    Gs,
    /// The hull program.
    Hs,
    /// The domain program.
    Ds,
}

impl EditStage {
    /// `vs`, `ps`, `gs`, `hs` or `ds`.
    pub fn parse(text: &str) -> Option<EditStage> {
        match text.trim().to_ascii_lowercase().as_str() {
            "vs" => Some(EditStage::Vs),
            "ps" => Some(EditStage::Ps),
            "gs" => Some(EditStage::Gs),
            "hs" => Some(EditStage::Hs),
            "ds" => Some(EditStage::Ds),
            _ => None,
        }
    }

    /// Its short name.
    pub fn name(self) -> &'static str {
        match self {
            EditStage::Vs => "vs",
            EditStage::Ps => "ps",
            EditStage::Gs => "gs",
            EditStage::Hs => "hs",
            EditStage::Ds => "ds",
        }
    }
}

/// The program bytes of `stage` in `draw`, if the draw has that stage.
pub fn stage_program(draw: &CapturedDraw, stage: EditStage) -> Option<Arc<[u8]>> {
    let state = &draw.state;
    match stage {
        EditStage::Vs => Some(state.vertex_shader.clone()),
        EditStage::Ps => state.pixel_shader.clone(),
        EditStage::Gs => state.geometry_shader.clone(),
        EditStage::Hs => state.hull_shader.clone(),
        EditStage::Ds => state.domain_shader.clone(),
    }
}

/// A listing or a DXBC blob as program bytes: a blob (`DXBC` first) as it is, text assembled (errors name the
/// listing's line).
pub fn program_from(bytes: &[u8]) -> Result<Arc<[u8]>> {
    if bytes.starts_with(b"DXBC") {
        return Ok(Arc::from(bytes));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Error::new("listing", "neither a DXBC blob nor UTF-8 text").at(format!("byte {:#x}", e.valid_up_to()))
    })?;
    Ok(Arc::from(crate::dxbc::asm::assemble(text)?))
}

/// Puts `program` in place of `draw`'s `stage` program. A stage the draw does not have (a geometry, hull or domain
/// program where none is bound) is an error: an edit changes a program, it does not add a stage.
pub fn replace_program(draw: &mut CapturedDraw, stage: EditStage, program: Arc<[u8]>) -> Result<()> {
    let index = draw.index;
    let state = &mut draw.state;
    let slot = match stage {
        EditStage::Vs => {
            state.vertex_shader = program;
            return Ok(());
        }
        EditStage::Ps => &mut state.pixel_shader,
        EditStage::Gs => &mut state.geometry_shader,
        EditStage::Hs => &mut state.hull_shader,
        EditStage::Ds => &mut state.domain_shader,
    };
    if slot.is_none() && stage != EditStage::Ps {
        return Err(Error::new(
            format!("draw {index}"),
            format!("it has no {} program to replace", stage.name()),
        ));
    }
    *slot = Some(program);
    Ok(())
}

/// How an edit changed one of a draw's targets: the texels (samples, for a multisampled target) whose replayed
/// bytes differ between the replay with the recorded program and the replay with the edit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct EditChange {
    /// The target (`rt0` .. `rt7`, `depth`).
    pub target: String,
    /// Texels whose bytes the edit changed.
    pub changed_texels: u64,
    /// Texels of the target.
    pub texels: u64,
}

/// The texels each target's replay changed from `original` (the draw with its recorded programs) to `edited` (the
/// draw with an edit), bit for bit; targets both replays have with the same size.
pub fn edit_changes(original: &super::DrawReplay, edited: &super::DrawReplay) -> Vec<EditChange> {
    let mut changes = Vec::new();
    for after in &edited.targets {
        let Some(before) = original.targets.iter().find(|t| t.slot == after.slot) else {
            continue;
        };
        let texels = u64::from(after.width)
            .saturating_mul(u64::from(after.height))
            .saturating_mul(u64::from(after.samples.max(1)));
        let bytes = after.replayed.len();
        let Some(texel) = usize::try_from(texels)
            .ok()
            .filter(|&n| n > 0)
            .and_then(|n| bytes.checked_div(n))
        else {
            continue;
        };
        if texel == 0 || before.replayed.len() != bytes {
            continue;
        }
        let changed = before
            .replayed
            .chunks(texel)
            .zip(after.replayed.chunks(texel))
            .filter(|(a, b)| a != b)
            .count();
        changes.push(EditChange {
            target: after.slot.to_string(),
            changed_texels: changed as u64,
            texels,
        });
    }
    changes
}
