//! Explaining a difference (`iridia explain`): a draw replayed under each implementation choice the spec allows
//! ([`crate::draw::variants`]) alone, then under every combination of them, each compared with what the GPU wrote,
//! to name the choice the GPU made.
//!
//! The draw is prepared once; each run re-runs from the recorded contents before the draw only the stages the
//! variants change (the shaded vertices are kept, [`ReplaySession::rerun_with`]). First the baseline and each
//! variant alone (`N + 1` runs); a variant whose run leaves the explained target's bytes exactly as the baseline's
//! does nothing to this draw and is left out of the combinations, which are every set of two or more of the others
//! (`2^k - k - 1` runs for `k` that do something: at most `2^N` in all). The best set is the one leaving the fewest
//! differing pixels, the smaller set on a tie. The verdict says which set reproduces the recorded target, or how
//! many pixels stay unexplained.

use std::sync::Arc;

use serde::Serialize;

use super::{DrawReplay, ReplayOptions, ReplaySession, serialize_slot};
use crate::capture::{CapturedDraw, TargetSlot};
use crate::draw::{ShaderCache, Variant, Variants};
use crate::{Error, Result};

/// How one run compared on the explained target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Pixels outside the tolerance (ambiguous and shifted ones excluded, as `iridia replay` counts them).
    pub differing_pixels: u64,
    /// The largest error of any channel, in ULPs of the format (0 when every measured pixel is exact).
    pub max_ulp: u64,
}

/// One variant alone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantOutcome {
    /// The variant's name.
    pub name: &'static str,
    /// What it does.
    pub description: &'static str,
    /// The pipeline stage it changes.
    pub stage: &'static str,
    /// Pixels outside the tolerance under it.
    pub differing_pixels: u64,
    /// The largest error under it, in ULPs.
    pub max_ulp: u64,
}

/// The set of variants that leaves the fewest differing pixels.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BestSet {
    /// Its variants' names (empty: none does better than the spec's rules).
    pub variants: Vec<&'static str>,
    /// Pixels outside the tolerance under it.
    pub differing_pixels: u64,
    /// The largest error under it, in ULPs.
    pub max_ulp: u64,
}

/// What `iridia explain` reports for one target of one draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The draw's index in the capture.
    pub draw: usize,
    /// The explained target.
    #[serde(serialize_with = "serialize_slot")]
    pub target: TargetSlot,
    /// The replay under the spec's rules.
    pub baseline: Outcome,
    /// Each variant alone, in [`Variant::ALL`]'s order.
    pub variants: Vec<VariantOutcome>,
    /// The best set of any size.
    pub best: BestSet,
    /// One line: what reproduces the recorded target, or how many pixels stay unexplained.
    pub verdict: String,
}

/// The outcome on `target` of a finished replay, or an error when the capture has nothing to compare it with.
fn outcome_of(replay: &DrawReplay, target: TargetSlot) -> Result<Outcome> {
    let report = replay.target(target).and_then(|t| t.report.as_ref()).ok_or_else(|| {
        Error::new(
            format!("draw {} {target}", replay.index),
            "the capture records no after for it",
        )
    })?;
    Ok(Outcome {
        differing_pixels: report.differing_pixels,
        max_ulp: report.channels.iter().map(|c| c.max_ulp_error).max().unwrap_or(0),
    })
}

/// The target to explain when none is named: the compared one with the most differing pixels (the first of them on
/// a tie, render targets before depth).
fn default_target(replay: &DrawReplay) -> Option<TargetSlot> {
    let mut best: Option<(TargetSlot, u64)> = None;
    for target in &replay.targets {
        if let Some(report) = &target.report
            && best.is_none_or(|(_, most)| report.differing_pixels > most)
        {
            best = Some((target.slot, report.differing_pixels));
        }
    }
    best.map(|(slot, _)| slot)
}

/// The verdict line for a baseline and a best set.
fn verdict(target: TargetSlot, baseline: &Outcome, best_set: Variants, best: &Outcome) -> String {
    let before = baseline.differing_pixels;
    let after = best.differing_pixels;
    if before == 0 {
        format!("nothing to explain: no pixel of {target} differs")
    } else if best_set.is_empty() || after >= before {
        format!("unexplained: {before} pixels remain (no variant reduces them)")
    } else if after == 0 {
        format!("reproduced by: {} ({before} differing pixels -> 0)", best_set.summary())
    } else {
        format!(
            "partly explained by: {} ({before} differing pixels -> {after}); unexplained: {after} pixels remain",
            best_set.summary()
        )
    }
}

/// The first runs: the baseline (no variant), then each variant alone.
fn first_sets() -> Vec<Variants> {
    std::iter::once(Variants::NONE)
        .chain(Variant::ALL.into_iter().map(|v| Variants::NONE.with(v)))
        .collect()
}

/// Every set of two or more of `active`, by the bits of their positions.
fn combinations(active: &[Variant]) -> Vec<Variants> {
    let count = u32::try_from(active.len()).unwrap_or(0).min(16);
    (0u32..1 << count)
        .filter(|bits| bits.count_ones() >= 2)
        .map(|bits| {
            Variants::of(
                active
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, v)| *v),
            )
        })
        .collect()
}

/// An explanation under way, one run at a time (so that a caller can report progress and cancel between runs):
/// [`Explainer::step`] until it says it is done, then [`Explainer::finish`].
pub struct Explainer {
    /// The draw's index.
    index: usize,
    /// The draw, prepared once and re-run under each set.
    session: ReplaySession,
    /// The sets to run, the baseline first.
    sets: Vec<Variants>,
    /// The outcome of each set run so far.
    outcomes: Vec<(Variants, Outcome)>,
    /// The explained target's replayed bytes of each run so far, by their digest.
    digests: Vec<crate::capture::BlobId>,
    /// Whether the combinations have been added to `sets` (after the first runs).
    combined: bool,
    /// The explained target, once known.
    target: Option<TargetSlot>,
}

impl std::fmt::Debug for Explainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Explainer")
            .field("draw", &self.index)
            .field("done", &self.outcomes.len())
            .field("runs", &self.sets.len())
            .finish_non_exhaustive()
    }
}

impl Explainer {
    /// Prepares `draw` (programs from `cache`) to explain `target` (by default the compared target with the most
    /// differing pixels in the baseline), replayed and compared under `options` (its variants are replaced by each
    /// set's).
    pub fn new(
        draw: Arc<CapturedDraw>,
        target: Option<TargetSlot>,
        cache: &mut ShaderCache,
        options: &ReplayOptions,
    ) -> Result<Explainer> {
        Ok(Explainer {
            index: draw.index,
            session: ReplaySession::prepare(draw, cache, options)?,
            sets: first_sets(),
            outcomes: Vec::new(),
            digests: Vec::new(),
            combined: false,
            target,
        })
    }

    /// The runs in all, as far as known: the baseline and each variant alone, then (once they have run) the
    /// combinations of the variants that changed the target.
    pub fn runs(&self) -> usize {
        self.sets.len()
    }

    /// The runs done.
    pub fn done(&self) -> usize {
        self.outcomes.len()
    }

    /// The replay of the set run last (the baseline after the first step).
    pub fn last_replay(&self) -> Option<&DrawReplay> {
        self.session.replay()
    }

    /// The explained target, once the first set has run.
    pub fn target(&self) -> Option<TargetSlot> {
        self.target
    }

    /// Runs the next set; returns whether every set has run.
    pub fn step(&mut self) -> Result<bool> {
        let Some(&set) = self.sets.get(self.outcomes.len()) else {
            return Ok(true);
        };
        let index = self.index;
        let replay = self.session.rerun_with(set, None)?;
        let slot = match self.target {
            Some(slot) => slot,
            None => {
                let slot = default_target(replay).ok_or_else(|| {
                    Error::new(format!("draw {index}"), "the capture records no after for any target")
                })?;
                self.target = Some(slot);
                slot
            }
        };
        let digest = replay
            .target(slot)
            .map(|t| crate::capture::BlobId::of(&t.replayed))
            .ok_or_else(|| Error::new(format!("draw {index}"), format!("the replay wrote no {slot}")))?;
        self.outcomes.push((set, outcome_of(replay, slot)?));
        self.digests.push(digest);
        if !self.combined && self.outcomes.len() >= self.sets.len() {
            self.combined = true;
            let baseline = self.digests.first().copied();
            let active: Vec<Variant> = self
                .outcomes
                .iter()
                .zip(&self.digests)
                .filter(|((set, _), digest)| set.iter().count() == 1 && Some(**digest) != baseline)
                .flat_map(|((set, _), _)| set.iter())
                .collect();
            self.sets.extend(combinations(&active));
        }
        Ok(self.outcomes.len() >= self.sets.len())
    }

    /// The explanation, once every set has run, and the replay under the best set (run again if it was not the
    /// last; `None` when no set does better than the spec's rules): its comparison tells which pixels the set
    /// explains.
    pub fn finish(mut self) -> Result<(Explanation, Option<DrawReplay>)> {
        let index = self.index;
        if self.outcomes.len() < self.sets.len() {
            return Err(Error::new(
                format!("draw {index}"),
                "the explanation has not run every set",
            ));
        }
        let target = self
            .target
            .ok_or_else(|| Error::new(format!("draw {index}"), "no target to explain"))?;
        let baseline = self
            .outcomes
            .iter()
            .find(|(set, _)| set.is_empty())
            .map(|(_, o)| o.clone())
            .ok_or_else(|| Error::new(format!("draw {index}"), "the baseline was not run"))?;
        let variants = Variant::ALL
            .into_iter()
            .filter_map(|variant| {
                let (_, outcome) = self
                    .outcomes
                    .iter()
                    .find(|(set, _)| *set == Variants::NONE.with(variant))?;
                Some(VariantOutcome {
                    name: variant.name(),
                    description: variant.description(),
                    stage: variant.stage(),
                    differing_pixels: outcome.differing_pixels,
                    max_ulp: outcome.max_ulp,
                })
            })
            .collect();
        // the fewest differing pixels, then the fewest variants, then the smaller error
        let (best_set, best) = self
            .outcomes
            .iter()
            .min_by_key(|(set, o)| (o.differing_pixels, set.iter().count(), o.max_ulp))
            .cloned()
            .unwrap_or((Variants::NONE, baseline.clone()));
        let (best_set, best) = if best.differing_pixels < baseline.differing_pixels {
            (best_set, best)
        } else {
            (Variants::NONE, baseline.clone())
        };
        let best_replay = if best_set.is_empty() {
            None
        } else if self.session.prepared().variants() == best_set {
            self.session.replay().cloned()
        } else {
            Some(self.session.rerun_with(best_set, None)?.clone())
        };
        let explanation = Explanation {
            draw: index,
            target,
            verdict: verdict(target, &baseline, best_set, &best),
            baseline,
            variants,
            best: BestSet {
                variants: best_set.iter().map(Variant::name).collect(),
                differing_pixels: best.differing_pixels,
                max_ulp: best.max_ulp,
            },
        };
        Ok((explanation, best_replay))
    }
}

/// Explains `target` of `draw` (by default the compared target with the most differing pixels): the draw replayed
/// under `options` with no variant, each variant alone and every combination (see the module documentation).
/// `progress(done, total)` is called after each run; returning `false` cancels (an error).
pub fn explain(
    draw: Arc<CapturedDraw>,
    target: Option<TargetSlot>,
    cache: &mut ShaderCache,
    options: &ReplayOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Explanation> {
    let index = draw.index;
    let mut explainer = Explainer::new(draw, target, cache, options)?;
    while !explainer.step()? {
        if !progress(explainer.done(), explainer.runs()) {
            return Err(Error::of_kind(
                crate::error::ErrorKind::Cancelled,
                format!("draw {index}"),
                "explaining was cancelled",
            ));
        }
    }
    progress(explainer.done(), explainer.runs());
    Ok(explainer.finish()?.0)
}
