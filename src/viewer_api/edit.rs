//! Editing a draw's program in the viewer: the program as a listing to edit, an edited listing assembled (an error
//! names its line) and put in place of the stage's program for every later replay of the draw
//! ([`crate::replay::edit`]), and how the draw compared with its recorded programs before the edit, so that the
//! viewer shows both differences.

use super::ViewerCapture;
use super::types::{DrawStatus, ProgramEditResult};
use crate::error::ErrorKind;
use crate::replay::edit::{EditChange, EditStage, edit_changes, program_from, replace_program, stage_program};
use crate::{Error, Result};
use std::sync::Arc;

/// The longest listing the viewer assembles, in bytes (a real program's listing is tens of KiB).
pub const MAX_LISTING_BYTES: usize = 4 << 20;

/// The most edited draws whose replay with the recorded programs is kept to tell what the edit changed.
pub const MAX_ORIGINAL_REPLAYS: usize = 4;

/// A stage named by the viewer.
fn stage_of(name: &str) -> Result<EditStage> {
    EditStage::parse(name).ok_or_else(|| {
        Error::of_kind(
            ErrorKind::Request,
            "request",
            format!("{name:?} is not a program stage (vs, ps, gs, hs, ds)"),
        )
    })
}

impl ViewerCapture {
    /// Draw `index`'s `stage` program (edited, if it is) as a listing, as `iridia disasm` prints it.
    pub fn program_listing(&mut self, index: usize, stage: &str) -> Result<String> {
        let stage = stage_of(stage)?;
        let draw = self.read_draw(index)?;
        let bytes = stage_program(&draw, stage).ok_or_else(|| {
            Error::of_kind(
                ErrorKind::Request,
                "request",
                format!("draw {index} has no {} program", stage.name()),
            )
        })?;
        let shader = crate::dxbc::Shader::parse(&bytes, crate::dxbc::Verify::Skip)?;
        Ok(crate::dxbc::disasm::disassemble(&shader))
    }

    /// Assembles `listing` and puts it in place of draw `index`'s `stage` program: the draw's replay is dropped, so
    /// that the next one runs the edit. A listing that does not assemble changes nothing; the result says which line
    /// is wrong. The draw's status before its first edit is kept as its status with the recorded programs.
    pub fn set_program_edit(&mut self, index: usize, stage: &str, listing: &str) -> Result<ProgramEditResult> {
        let stage = stage_of(stage)?;
        if listing.len() > MAX_LISTING_BYTES {
            return Err(Error::of_kind(
                ErrorKind::Request,
                "listing",
                format!("{} bytes: at most {MAX_LISTING_BYTES}", listing.len()),
            ));
        }
        let program = match program_from(listing.as_bytes()) {
            Ok(program) => program,
            Err(error) => {
                return Ok(ProgramEditResult {
                    accepted: false,
                    line: line_of(&error.at),
                    error: Some(error.to_string()),
                    original: self.original_status(index),
                });
            }
        };
        // the program must at least build as its stage's (the replay checks its linkage with the other stages)
        let mut draw = (*self.read_draw(index)?).clone();
        replace_program(&mut draw, stage, Arc::clone(&program))?;
        if !self.originals.contains_key(&index) {
            let status = self.status(index);
            self.originals.insert(index, status);
            let original = match self.outcomes.get(&index) {
                Some(super::Outcome::Full(replayed)) => replayed.session.replay().cloned(),
                _ => None,
            };
            if let Some(original) = original {
                self.original_replays.retain(|(i, _)| *i != index);
                self.original_replays.push_back((index, original));
                while self.original_replays.len() > MAX_ORIGINAL_REPLAYS {
                    self.original_replays.pop_front();
                }
            }
        }
        self.edits.insert((index, stage), program);
        self.forget_draw(index);
        Ok(ProgramEditResult {
            accepted: true,
            line: None,
            error: None,
            original: self.original_status(index),
        })
    }

    /// Drops draw `index`'s edit of `stage` (every stage's when `stage` is `None`): its next replay runs the
    /// recorded program again.
    pub fn clear_program_edit(&mut self, index: usize, stage: Option<&str>) -> Result<()> {
        match stage {
            Some(name) => {
                let stage = stage_of(name)?;
                self.edits.remove(&(index, stage));
            }
            None => self.edits.retain(|(draw, _), _| *draw != index),
        }
        if !self.edits.keys().any(|(draw, _)| *draw == index) {
            self.originals.remove(&index);
            self.original_replays.retain(|(i, _)| *i != index);
        }
        self.forget_draw(index);
        Ok(())
    }

    /// What the edit of draw `index` changed: per target, the texels whose replayed bytes differ from the replay
    /// with the recorded programs (empty when the draw is not edited, its edited replay is not kept, or its replay
    /// before the edit was not).
    pub fn edit_changes(&self, index: usize) -> Vec<EditChange> {
        let Some((_, original)) = self.original_replays.iter().find(|(i, _)| *i == index) else {
            return Vec::new();
        };
        match self.outcomes.get(&index) {
            Some(super::Outcome::Full(replayed)) => replayed
                .session
                .replay()
                .map(|edited| edit_changes(original, edited))
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// The stages of draw `index` that run an edited program.
    pub fn edited_stages(&self, index: usize) -> Vec<String> {
        self.edits
            .keys()
            .filter(|(draw, _)| *draw == index)
            .map(|(_, stage)| stage.name().to_owned())
            .collect()
    }

    /// Draw `index`'s status with its recorded programs, when it is edited and was replayed before the edit.
    fn original_status(&self, index: usize) -> Option<DrawStatus> {
        self.originals
            .get(&index)
            .filter(|status| !matches!(status, DrawStatus::NotReplayed))
            .cloned()
    }

    /// Puts draw `index`'s edits (if any) into `draw` as read from the capture.
    pub(super) fn with_edits(&self, index: usize, draw: CapturedDrawArc) -> Result<CapturedDrawArc> {
        let edits: Vec<(EditStage, Arc<[u8]>)> = self
            .edits
            .iter()
            .filter(|((d, _), _)| *d == index)
            .map(|((_, stage), program)| (*stage, Arc::clone(program)))
            .collect();
        if edits.is_empty() {
            return Ok(draw);
        }
        let mut edited = (*draw).clone();
        for (stage, program) in edits {
            replace_program(&mut edited, stage, program)?;
        }
        Ok(Arc::new(edited))
    }

    /// Forgets everything read or replayed of draw `index` (an edit changed what it runs).
    fn forget_draw(&mut self, index: usize) {
        self.read.retain(|(i, _)| *i != index);
        self.outcomes.remove(&index);
        self.kept.retain(|i| *i != index);
        if self.running.as_ref().is_some_and(|r| r.index == index) {
            self.running = None;
        }
        self.explanations.remove(&index);
        if self.explaining.as_ref().is_some_and(|e| e.index == index) {
            self.explaining = None;
        }
    }
}

/// A shared captured draw.
pub(super) type CapturedDrawArc = Arc<crate::capture::CapturedDraw>;

/// The line number of an assembler error's place (`line 12`, `line 12, column 5`).
fn line_of(at: &str) -> Option<u32> {
    let rest = at.strip_prefix("line ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}
