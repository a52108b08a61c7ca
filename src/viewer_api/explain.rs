//! The viewer's variants and explanations: the set of variants every replay runs under ([`ViewerCapture::set_variants`],
//! which drops every replay made under another set), and a draw explained one run at a time
//! ([`ViewerCapture::explain_step`], as a replay is stepped, so that the worker can report progress and see a cancel
//! between runs), whose best set's comparison then tells the pixel inspector which differing pixels it explains.

use super::types::{ExplainResult, ExplainRow, StepProgress, TargetId, VariantInfo};
use super::{Explained, Explaining, KEPT_EXPLANATIONS, ViewerCapture, replay_options, slot_of};
use crate::capture::TargetSlot;
use crate::compare::PixelClass;
use crate::draw::{Variant, Variants};
use crate::error::ErrorKind;
use crate::replay::{Explainer, Explanation};
use crate::{Error, Result};

/// The viewer's target of a capture's target slot (depth for a depth-stencil target).
fn target_id(slot: TargetSlot) -> TargetId {
    match slot {
        TargetSlot::RenderTarget(n) => TargetId::render_target(n).unwrap_or(TargetId::Rt0),
        TargetSlot::DepthStencil => TargetId::Depth,
    }
}

/// The library's explanation as the viewer shows it.
fn explain_result(explanation: &Explanation) -> ExplainResult {
    ExplainResult {
        draw: explanation.draw,
        target: target_id(explanation.target),
        baseline_differing_pixels: explanation.baseline.differing_pixels,
        baseline_max_ulp: explanation.baseline.max_ulp,
        rows: explanation
            .variants
            .iter()
            .filter_map(|row| {
                Some(ExplainRow {
                    variant: VariantInfo::of(Variant::named(row.name)?),
                    differing_pixels: row.differing_pixels,
                    max_ulp: row.max_ulp,
                })
            })
            .collect(),
        best: explanation.best.variants.iter().map(|v| (*v).to_owned()).collect(),
        best_differing_pixels: explanation.best.differing_pixels,
        best_max_ulp: explanation.best.max_ulp,
        verdict: explanation.verdict.clone(),
    }
}

/// How the viewer explains: bit for bit (a code of difference is what most explanations are about), under the
/// viewer's work limit, every set of variants from the spec's rules.
fn explain_options(limits: super::types::Limits) -> crate::replay::ReplayOptions {
    let mut options = replay_options(limits, Variants::NONE);
    options.tolerance = crate::compare::ToleranceSpec::exact();
    options
}

impl ViewerCapture {
    /// Sets the variants later replays run under, by name (comma-separated variant and profile names; empty: the
    /// spec's rules) and returns them. A change drops every replay made under the old set (they are replayed again
    /// when asked for) and the replay under way.
    pub fn set_variants(&mut self, list: &str) -> Result<Vec<String>> {
        let variants = Variants::parse(list).map_err(|e| Error::of_kind(ErrorKind::Request, "variants", e.detail))?;
        if variants != self.variants {
            self.variants = variants;
            self.outcomes.clear();
            self.kept.clear();
            self.running = None;
        }
        Ok(self.variant_names())
    }

    /// The variants replays run under, by name.
    pub(super) fn variant_names(&self) -> Vec<String> {
        self.variants.iter().map(|v| v.name().to_owned()).collect()
    }

    /// Goes on with explaining draw `index`: the first call reads and prepares the draw, each call then runs one set
    /// of variants (an explanation of another draw under way is dropped). When every set has run, the explanation
    /// is kept for [`ViewerCapture::explain_finish`]. Progress counts the sets.
    pub fn explain_step(&mut self, index: usize) -> Result<StepProgress> {
        if self.explaining.as_ref().is_some_and(|e| e.index != index) {
            self.explaining = None;
        }
        let mut explaining = match self.explaining.take() {
            Some(explaining) => explaining,
            None => {
                let draw = self.read_draw(index)?;
                let explainer = Explainer::new(draw, None, &mut self.shaders, &explain_options(self.limits))?;
                Explaining {
                    index,
                    explainer,
                    baseline: None,
                }
            }
        };
        let finished = explaining.explainer.step()?;
        if explaining.baseline.is_none()
            && let (Some(replay), Some(slot)) = (explaining.explainer.last_replay(), explaining.explainer.target())
        {
            explaining.baseline = replay.target(slot).and_then(|t| t.comparison.clone());
        }
        let progress = StepProgress {
            stage: "variant sets".to_owned(),
            done: explaining.explainer.done() as u64,
            total: explaining.explainer.runs() as u64,
            finished,
        };
        if finished {
            let (explanation, best) = explaining.explainer.finish()?;
            let best = best.and_then(|replay| {
                replay
                    .targets
                    .into_iter()
                    .find(|t| t.slot == explanation.target)
                    .and_then(|t| t.comparison)
            });
            self.explanations.insert(
                index,
                Explained {
                    result: explain_result(&explanation),
                    baseline: explaining.baseline,
                    best,
                },
            );
            while self.explanations.len() > KEPT_EXPLANATIONS {
                let Some(oldest) = self.explanations.keys().find(|&&k| k != index).copied() else {
                    break;
                };
                self.explanations.remove(&oldest);
            }
        } else {
            self.explaining = Some(explaining);
        }
        Ok(progress)
    }

    /// Draw `index`'s finished explanation.
    pub fn explain_finish(&self, index: usize) -> Result<ExplainResult> {
        self.explanations.get(&index).map(|e| e.result.clone()).ok_or_else(|| {
            Error::of_kind(ErrorKind::Request, "explain", "the draw's explanation has not finished")
                .at(format!("draw {index}"))
        })
    }

    /// Drops draw `index`'s unfinished explanation, if it is the one under way.
    pub fn explain_abandon(&mut self, index: usize) {
        if self.explaining.as_ref().is_some_and(|e| e.index == index) {
            self.explaining = None;
        }
    }

    /// The line the pixel inspector shows for pixel (`x`, `row`) of target `id` of draw `index` (`row` in the
    /// stacked sample planes): when the draw was explained, the viewer replays under the spec's rules (as every
    /// explanation's baseline does, whatever the viewer's variants were when it ran), the pixel differs in the baseline (compared bit for bit, as explanations compare)
    /// and matches under the best set, the set that explains it.
    pub(super) fn explained_by(&self, index: usize, id: TargetId, x: u32, row: u32) -> Option<String> {
        let explained = self.explanations.get(&index)?;
        if !self.variants.is_empty() || slot_of(explained.result.target) != slot_of(id) {
            return None;
        }
        let differs = explained.baseline.as_ref()?.class_at(x, row) == Some(PixelClass::Differs);
        let best = explained.best.as_ref()?;
        (differs && best.class_at(x, row) == Some(PixelClass::Match)).then(|| {
            let set = Variants::of(explained.result.best.iter().filter_map(|name| Variant::named(name)));
            format!(
                "explained by: {} (the pixel matches under {})",
                set.summary(),
                explained.result.best.join(", ")
            )
        })
    }
}
