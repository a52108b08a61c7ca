//! Replaying a recorded `Dispatch` (capture format 1.3): the compute program run again on the CPU from the contents
//! its views' resources had before it ([`crate::dispatch::run_dispatch`]), and each view's window compared with what
//! the GPU left there after it.
//!
//! How a window is compared depends on how the view reads it:
//!
//! - a **typed** view (of a texture or a buffer) holds texels of its format: compared texel by texel with
//!   [`crate::compare::compare`] under the tolerance the [`ToleranceSpec`] resolves to for the format (a texture view's
//!   slices stacked as rows, a buffer view as one row), as render targets are;
//! - a **raw** or **structured** buffer view holds 32-bit words of no known type: compared word by word, exactly,
//!   each difference named by its element (the structure, or the word of a raw view) and its word in the element;
//! - an append or counter view's hidden **counter** is compared exactly when the capture records it.
//!
//! Each dispatch is replayed from its own recorded contents, as each draw is, so a dispatch's result does not depend
//! on the replay of what came before it in the frame.

use std::sync::Arc;

use serde::Serialize;

use crate::api::dispatch::UnorderedAccessViewBinding;
use crate::capture::{CapturedDispatch, RecordedUav, UavAccessKind, UavLayout};
use crate::compare::{CompareOptions, Image, TargetReport, ToleranceSpec, compare};
use crate::dispatch::{DispatchOptions, DispatchStats, UavContents, run_dispatch};
use crate::{Error, Result};

/// How many word differences a view's report lists.
pub const LISTED_WORD_DIFFERENCES: usize = 16;

/// One 32-bit word of a raw or structured view that differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WordDifference {
    /// The element: the structure of a structured view, the word of a raw view.
    pub element: u64,
    /// The word within the element (0 for a raw view).
    pub word: u64,
    /// The byte of the window the word starts at.
    pub offset: u64,
    /// The recorded word.
    pub recorded: u32,
    /// The replayed word.
    pub replayed: u32,
}

/// A view's counter after the dispatch, recorded and replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CounterReport {
    /// As the GPU left it.
    pub recorded: u32,
    /// As the replay left it.
    pub replayed: u32,
    /// Whether they are equal.
    pub matches: bool,
}

/// The comparison of a view's window (and counter) after the dispatch with the recorded one.
#[derive(Clone, Debug, Serialize)]
pub struct UavReport {
    /// Whether the window (ambiguities aside, none here) and the counter match.
    pub matches: bool,
    /// What `compared` and `differing` count: `"texel"` for typed views, `"element"` for raw and structured ones.
    pub unit: &'static str,
    /// Elements or texels compared (0 when only the counter was recorded).
    pub compared: u64,
    /// Elements or texels that differ.
    pub differing: u64,
    /// The first differing words of a raw or structured view, in order.
    pub first_word_differences: Vec<WordDifference>,
    /// A typed view's texel comparison (the report a render target gets).
    pub texels: Option<TargetReport>,
    /// The counter, when recorded.
    pub counter: Option<CounterReport>,
}

/// One view of a replayed dispatch.
#[derive(Clone, Debug, Serialize)]
pub struct UavReplay {
    /// The slot, `u#`.
    pub slot: u32,
    /// The view's window: how it is read, its format and size.
    pub layout: UavLayout,
    /// Whether the capture records the window after the dispatch.
    pub recorded_after: bool,
    /// The window before the dispatch.
    #[serde(skip)]
    pub before: Arc<[u8]>,
    /// The window after it as the GPU left it; `None` when not recorded.
    #[serde(skip)]
    pub recorded: Option<Arc<[u8]>>,
    /// The window after the replayed dispatch.
    #[serde(skip)]
    pub replayed: Arc<[u8]>,
    /// The counter after the replayed dispatch (append and counter views).
    pub replayed_counter: Option<u32>,
    /// The comparison; `None` when neither the window nor the counter was recorded.
    pub report: Option<UavReport>,
    /// What of the replayed window depends on the order of the threads, which the spec leaves open (18.6.6): where
    /// the recorded window differs there, the GPU may only have run the threads in another order.
    pub order: Option<crate::shader::uav::OrderDependence>,
}

impl UavReplay {
    /// `u0`, `u1` ...
    pub fn name(&self) -> String {
        format!("u{}", self.slot)
    }

    /// Whether the view matches; `None` when nothing was recorded.
    pub fn matches(&self) -> Option<bool> {
        self.report.as_ref().map(|r| r.matches)
    }
}

/// A replayed dispatch: what it did and each view, compared.
#[derive(Clone, Debug, Serialize)]
pub struct DispatchReplay {
    /// Its position in the capture's `dispatches`, from 0.
    pub index: usize,
    /// How many draws came before it.
    pub before_draw: u64,
    /// How many resolves came before it.
    pub before_resolve: u64,
    /// What to call it.
    pub label: String,
    /// Its marker or debug name.
    pub name: Option<String>,
    /// The API call, as recorded.
    pub api_call: Option<String>,
    /// Thread groups in X, Y and Z.
    pub groups: [u32; 3],
    /// What the replayed dispatch did.
    pub stats: DispatchStats,
    /// Its views, by slot.
    pub uavs: Vec<UavReplay>,
}

impl DispatchReplay {
    /// Whether any view was compared.
    pub fn compared(&self) -> bool {
        self.uavs.iter().any(|u| u.report.is_some())
    }

    /// Whether every compared view matches; true when none was compared.
    pub fn matches(&self) -> bool {
        self.uavs.iter().all(|u| u.matches() != Some(false))
    }
}

/// Runs `dispatch` again from its recorded views and compares each view's window and counter with what was recorded
/// after it (see the module documentation). Errors name the dispatch.
pub fn replay_dispatch(
    dispatch: &CapturedDispatch,
    tolerance: &ToleranceSpec,
    options: &DispatchOptions,
) -> Result<DispatchReplay> {
    let at = format!("dispatch {}", dispatch.index);
    let output = run_dispatch(&dispatch.state, options).map_err(|e| e.within(at.as_str()))?;
    let uavs = uav_replays(
        &at,
        &dispatch.after,
        &dispatch.state.uavs,
        &output.uavs,
        &output.order,
        tolerance,
    )?;
    Ok(DispatchReplay {
        index: dispatch.index,
        before_draw: dispatch.before_draw,
        before_resolve: dispatch.before_resolve,
        label: dispatch.label.clone(),
        name: dispatch.name.clone(),
        api_call: dispatch.api_call.clone(),
        groups: dispatch.state.groups,
        stats: output.stats,
        uavs,
    })
}

/// Each recorded view of a dispatch or draw (`at`, for errors) compared: `recorded` per slot, `bindings` the views as
/// bound before the call (for their windows before it), `replayed` what the replay left in each, `order` what of it
/// depends on the threads' order (a dispatch's; empty for a draw, whose order is not followed yet).
pub(crate) fn uav_replays(
    at: &str,
    recorded: &[Option<RecordedUav>],
    bindings: &[Option<UnorderedAccessViewBinding>],
    replayed: &[Option<UavContents>],
    order: &[Option<crate::shader::uav::OrderDependence>],
    tolerance: &ToleranceSpec,
) -> Result<Vec<UavReplay>> {
    let befores = crate::dispatch::uav_views(bindings).map_err(|e| e.within(at))?;
    let mut uavs = Vec::new();
    for (slot, recorded) in recorded.iter().enumerate() {
        let Some(recorded) = recorded else {
            continue;
        };
        let name = format!("{at} u{slot}");
        let replayed = replayed
            .get(slot)
            .and_then(Option::as_ref)
            .ok_or_else(|| Error::new("replay", "the view was not replayed").at(name.as_str()))?;
        let before: Arc<[u8]> = befores
            .get(slot)
            .and_then(Option::as_ref)
            .map(|view| crate::dispatch::contents(view).bytes.into())
            .unwrap_or_else(|| Arc::from(Vec::new()));
        let replayed_bytes: Arc<[u8]> = replayed.bytes.clone().into();
        let report =
            compare_uav(recorded, &replayed_bytes, replayed.counter, tolerance).map_err(|e| e.within(name.as_str()))?;
        uavs.push(UavReplay {
            slot: recorded.slot,
            layout: recorded.layout,
            recorded_after: recorded.bytes.is_some(),
            before,
            recorded: recorded.bytes.clone(),
            replayed: replayed_bytes,
            replayed_counter: replayed.counter,
            report,
            order: order.get(slot).cloned().flatten(),
        });
    }
    Ok(uavs)
}

/// A view's window drawn as an image (`recorded` against `replayed`, both of one format and size), compared as
/// [`replay_dispatch`] compares the view: a typed view's texels under `tolerance` resolved for the format, a raw or
/// structured view's 32-bit words exactly. What the viewer's difference picture of a view marks.
pub fn compare_view_image(
    recorded: &Image<'_>,
    replayed: &Image<'_>,
    access: crate::capture::UavAccessKind,
    tolerance: &ToleranceSpec,
) -> Result<crate::compare::Comparison> {
    let resolved = match access {
        crate::capture::UavAccessKind::Typed => tolerance.resolve(recorded.format()),
        _ => ToleranceSpec::exact().resolve(recorded.format()),
    };
    compare(recorded, replayed, &CompareOptions::new(resolved))
}

/// One view's comparison; `None` when nothing of it was recorded.
pub(crate) fn compare_uav(
    recorded: &RecordedUav,
    replayed: &[u8],
    replayed_counter: Option<u32>,
    tolerance: &ToleranceSpec,
) -> Result<Option<UavReport>> {
    let counter = match (recorded.counter, replayed_counter) {
        (Some(recorded), Some(replayed)) => Some(CounterReport {
            recorded,
            replayed,
            matches: recorded == replayed,
        }),
        (Some(_), None) => return Err(Error::new("dispatch", "a counter was recorded for a view without one")),
        (None, _) => None,
    };
    let Some(bytes) = &recorded.bytes else {
        return Ok(counter.map(|counter| UavReport {
            matches: counter.matches,
            unit: "element",
            compared: 0,
            differing: 0,
            first_word_differences: Vec::new(),
            texels: None,
            counter: Some(counter),
        }));
    };
    let layout = &recorded.layout;
    if bytes.len() != replayed.len() {
        return Err(Error::new(
            "dispatch",
            format!(
                "the replayed window is {} bytes and the recorded {}",
                replayed.len(),
                bytes.len()
            ),
        ));
    }
    let counter_matches = counter.is_none_or(|c| c.matches);
    let report = match layout.access {
        UavAccessKind::Typed => {
            let recorded_image = Image::new(layout.format, layout.width, layout.height, bytes)?;
            let replayed_image = Image::new(layout.format, layout.width, layout.height, replayed)?;
            let texels = compare(
                &recorded_image,
                &replayed_image,
                &CompareOptions::new(tolerance.resolve(layout.format)),
            )?
            .report;
            UavReport {
                matches: texels.matches && counter_matches,
                unit: "texel",
                compared: texels.compared_pixels,
                differing: texels.differing_pixels,
                first_word_differences: Vec::new(),
                texels: Some(texels),
                counter,
            }
        }
        UavAccessKind::Raw | UavAccessKind::Structured { .. } => {
            let words_per_element = layout.element_bytes.checked_div(4).unwrap_or(1).max(1);
            let mut differing = 0u64;
            let mut last_element = None;
            let mut listed = Vec::new();
            for (index, (a, b)) in bytes.chunks(4).zip(replayed.chunks(4)).enumerate() {
                if a == b {
                    continue;
                }
                let word = index as u64;
                let element = word.checked_div(words_per_element).unwrap_or(word);
                if last_element != Some(element) {
                    differing = differing.saturating_add(1);
                    last_element = Some(element);
                }
                if listed.len() < LISTED_WORD_DIFFERENCES {
                    let value = |chunk: &[u8]| {
                        let mut four = [0u8; 4];
                        for (out, byte) in four.iter_mut().zip(chunk) {
                            *out = *byte;
                        }
                        u32::from_le_bytes(four)
                    };
                    listed.push(WordDifference {
                        element,
                        word: word.checked_rem(words_per_element).unwrap_or(0),
                        offset: word.saturating_mul(4),
                        recorded: value(a),
                        replayed: value(b),
                    });
                }
            }
            UavReport {
                matches: differing == 0 && counter_matches,
                unit: "element",
                compared: u64::from(layout.width),
                differing,
                first_word_differences: listed,
                texels: None,
                counter,
            }
        }
    };
    Ok(Some(report))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)] // tests index their own data
mod tests {
    use super::*;
    use crate::capture::tests::dispatches::{after, record};
    use crate::capture::{Capture, CaptureWriter, DispatchRecord};

    /// `record` written with a draw before it, read back and replayed.
    fn replayed(record: &DispatchRecord) -> DispatchReplay {
        let mut writer = CaptureWriter::in_memory();
        writer.add_dispatch(record).unwrap();
        let mut capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
        replay_dispatch(
            &capture.dispatch(0).unwrap(),
            &ToleranceSpec::default(),
            &DispatchOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn the_recorded_views_match_the_replay() {
        let replay = replayed(&record());
        assert!(replay.compared());
        assert!(replay.matches());
        assert_eq!(replay.stats.threads, 8);
        assert_eq!(replay.uavs.len(), 2);
        let u0 = &replay.uavs[0];
        assert_eq!(u0.name(), "u0");
        assert_eq!(&u0.replayed[..], &after()[0].as_ref().unwrap().bytes[..]);
        let report = u0.report.as_ref().unwrap();
        assert_eq!((report.unit, report.compared, report.differing), ("element", 10, 0));
        let u1 = &replay.uavs[1];
        assert_eq!(u1.replayed_counter, Some(13));
        assert_eq!(
            u1.report.as_ref().unwrap().counter,
            Some(CounterReport {
                recorded: 13,
                replayed: 13,
                matches: true
            })
        );
    }

    #[test]
    fn one_altered_byte_differs_at_its_element() {
        // byte 44 is word 11: word 1 of structure 5, the group ID 1
        let mut altered = record();
        altered.after[0].as_mut().unwrap().bytes[44] ^= 0x10;
        let replay = replayed(&altered);
        assert!(!replay.matches());
        let report = replay.uavs[0].report.as_ref().unwrap();
        assert!(!report.matches);
        assert_eq!((report.compared, report.differing), (10, 1));
        assert_eq!(
            report.first_word_differences,
            [WordDifference {
                element: 5,
                word: 1,
                offset: 44,
                recorded: 0x11,
                replayed: 1,
            }]
        );
        assert_eq!(replay.uavs[1].matches(), Some(true));
    }

    #[test]
    fn a_recorded_counter_is_compared_exactly() {
        let mut altered = record();
        altered.after[1].as_mut().unwrap().counter = Some(12);
        let replay = replayed(&altered);
        let report = replay.uavs[1].report.as_ref().unwrap();
        assert!(!report.matches);
        assert_eq!(report.differing, 0);
        assert_eq!(report.counter.unwrap().replayed, 13);
        // only the counter recorded: still compared
        altered.after[1].as_mut().unwrap().bytes = Vec::new();
        let mut writer = CaptureWriter::in_memory();
        let entry_after = altered.after.clone();
        altered.after = vec![None, None];
        writer.add_dispatch(&altered).unwrap();
        let _ = entry_after;
        let mut capture = Capture::open(writer.finish_to_vec().unwrap()).unwrap();
        let replay = replay_dispatch(
            &capture.dispatch(0).unwrap(),
            &ToleranceSpec::default(),
            &DispatchOptions::default(),
        )
        .unwrap();
        assert!(!replay.compared());
        assert!(replay.matches());
    }

    #[test]
    fn a_typed_texture_view_is_compared_texel_by_texel_under_the_tolerance() {
        use crate::api::dispatch::{DispatchState, UnorderedAccessViewBinding, UnorderedAccessViewDesc};
        use crate::api::enums::{ResourceDimension, UavDimension};
        use crate::api::resource::{Resource, Texture, TextureShape};
        use crate::dispatch::UavContents;
        use crate::format::Format;
        // each thread of a 2x2 group writes (x + 2y) / 4 to its texel of a 2x2 R8G8B8A8_UNORM texture
        let listing = "cs_5_0
dcl_uav_typed_texture2d (unorm,unorm,unorm,unorm) u0
dcl_input vThreadID.xy
dcl_temps 1
dcl_thread_group 2, 2, 1
imad r0.x, vThreadID.y, l(2), vThreadID.x
utof r0.x, r0.x
mul r0.xyzw, r0.xxxx, l(0.25, 0.25, 0.25, 0.25)
store_uav_typed u0.xyzw, vThreadID.xyyy, r0.xyzw
ret
";
        let shape = TextureShape {
            dimension: ResourceDimension::Texture2D,
            format: Format::R8G8B8A8Unorm,
            width: 2,
            height: 2,
            depth: 1,
            array_size: 1,
            mip_levels: 1,
            sample_count: 1,
        };
        let state = DispatchState {
            compute_shader: crate::dxbc::asm::assemble(listing).unwrap().into(),
            bindings: Default::default(),
            uavs: vec![Some(UnorderedAccessViewBinding {
                resource: Arc::new(Resource::Texture(
                    Texture::new(shape, vec![Arc::from(vec![0u8; 16])]).unwrap(),
                )),
                desc: UnorderedAccessViewDesc {
                    format: Format::R8G8B8A8Unorm,
                    dimension: UavDimension::Texture2D,
                    ..Default::default()
                },
                initial_count: None,
            })],
            groups: [1, 1, 1],
        };
        // 0, 0.25, 0.5, 0.75 x 255 + 0.5, truncated: 0, 64, 128, 191; texel 3 recorded one code off (within the
        // default tolerance), then three
        let texels = |last: u8| -> Vec<u8> { [0u8, 64, 128, last].iter().flat_map(|c| [*c; 4]).collect() };
        let mut record = DispatchRecord::new(state);
        record.after = vec![Some(UavContents {
            bytes: texels(192),
            counter: None,
        })];
        let replay = replayed(&record);
        let report = replay.uavs[0].report.as_ref().unwrap();
        assert_eq!((report.unit, report.compared, report.differing), ("texel", 4, 0));
        assert!(replay.matches(), "{report:?}");
        record.after[0].as_mut().unwrap().bytes = texels(194);
        let replay = replayed(&record);
        let report = replay.uavs[0].report.as_ref().unwrap();
        assert_eq!(report.differing, 1);
        assert!(!replay.matches());
        assert_eq!(report.texels.as_ref().unwrap().first_differences.len(), 1);
    }
}
