//! Dispatch descriptions: the compute counterpart of a draw description, in the format of
//! `fixtures/compute/refrender/refrender_cs.c` (the reference renderer extended to run `Dispatch`; its README and
//! `docs/draw-description.md` document the keys). A description binds unordered access views once and runs one or
//! more dispatches against them in order.

use crate::Result;
use crate::api::dispatch::{DispatchState, MAX_THREAD_GROUPS_PER_DIMENSION};
use crate::api::draw::{ConstantBufferBinding, StageBindings};
use crate::api::limits::{CONSTANT_BUFFER_SLOTS, SAMPLER_SLOTS, SHADER_RESOURCE_SLOTS};
use crate::api::resource::ShaderResourceView;

use super::data::Files;
use super::values::{Node, bind_all};
use super::views::{buffer_views, uav_bindings};
use super::{constant_buffers, samplers, textures};

/// The keys a dispatch description may have at its top level (`"iridia"` holds the fixtures' notes).
const TOP_KEYS: &[&str] = &[
    "cs",
    "cs_cbuffers",
    "cs_buffers",
    "cs_textures",
    "cs_samplers",
    "uavs",
    "dispatch",
    "dispatches",
    "iridia",
];

/// The keys one entry of `"dispatches"` may set (each replaces the top level's value for that dispatch).
const DISPATCH_KEYS: &[&str] = &[
    "cs",
    "cs_cbuffers",
    "cs_buffers",
    "cs_textures",
    "cs_samplers",
    "dispatch",
];

/// A dispatch description read: the views it binds and its dispatches in order. Every dispatch's `uavs` are the
/// same bindings (the contents before the first dispatch); a runner builds the views once and runs the dispatches
/// against them in order (`dispatch::uav_views`, `dispatch::run_dispatch_on`), so each sees what the previous left.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchDescription {
    /// The dispatches, in order.
    pub dispatches: Vec<DispatchState>,
}

/// Reads a dispatch description from its text; `load` gets each file path as written (see [`super::read`]).
pub fn read_dispatches(text: &str, load: &mut dyn FnMut(&str) -> Result<Vec<u8>>) -> Result<DispatchDescription> {
    let value = super::json::parse(text)?;
    let root = Node::root(&value);
    root.expect_object(TOP_KEYS)?;
    let mut files = Files::new(load);
    let uavs = match root.get("uavs") {
        Some(node) => uav_bindings(&node, &mut files)?,
        None => Vec::new(),
    };
    let entries = match root.get("dispatches") {
        Some(list) => list.items()?.into_iter().map(Some).collect(),
        None => vec![None],
    };
    let mut dispatches = Vec::with_capacity(entries.len());
    for entry in &entries {
        if let Some(entry) = entry {
            entry.expect_object(DISPATCH_KEYS)?;
        }
        // A dispatch's own key, else the top level's.
        let pick = |key: &str| entry.as_ref().and_then(|e| e.get(key)).or_else(|| root.get(key));
        let cs_node = pick("cs").ok_or_else(|| root.error("no \"cs\": a dispatch needs a compute program"))?;
        let compute_shader = files.file(&cs_node)?;
        let mut bindings = StageBindings::default();
        if let Some(node) = pick("cs_cbuffers") {
            let pairs: Vec<(u32, ConstantBufferBinding)> = constant_buffers(&node, &mut files)?;
            bindings.constant_buffers = bind_all(Some(node), pairs, CONSTANT_BUFFER_SLOTS)?;
        }
        let mut views: Vec<(u32, ShaderResourceView)> = Vec::new();
        if let Some(node) = pick("cs_buffers") {
            views.extend(buffer_views(&node, &mut files)?);
        }
        if let Some(node) = pick("cs_textures") {
            views.extend(textures(&node, &mut files)?);
        }
        if !views.is_empty() {
            bindings.shader_resources = bind_all(pick("cs_buffers"), views, SHADER_RESOURCE_SLOTS)?;
        }
        if let Some(node) = pick("cs_samplers") {
            bindings.samplers = bind_all(Some(node.clone()), samplers(&node)?, SAMPLER_SLOTS)?;
        }
        let groups = match pick("dispatch") {
            Some(node) => group_counts(&node)?,
            None => return Err(root.error("no \"dispatch\": give the thread-group counts [x, y, z]")),
        };
        dispatches.push(DispatchState {
            compute_shader,
            bindings,
            uavs: uavs.clone(),
            groups,
        });
    }
    // Only the first dispatch sets the counters (the reference binds them once).
    Ok(DispatchDescription { dispatches })
}

/// Whether `text` is a dispatch description (a JSON object with a `"cs"` key) rather than a draw description.
pub fn is_dispatch_description(text: &str) -> bool {
    super::json::parse(text).is_ok_and(|value| value.get("cs").is_some())
}

/// `"dispatch": [x, y, z]`, each 0 to 65535 (18.6.5).
fn group_counts(node: &Node<'_>) -> Result<[u32; 3]> {
    let items = node.items()?;
    let [x, y, z] = items.as_slice() else {
        return Err(node.error("the thread-group counts are three numbers [x, y, z]"));
    };
    Ok([
        x.u32_at_most(MAX_THREAD_GROUPS_PER_DIMENSION)?,
        y.u32_at_most(MAX_THREAD_GROUPS_PER_DIMENSION)?,
        z.u32_at_most(MAX_THREAD_GROUPS_PER_DIMENSION)?,
    ])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use crate::api::resource::Resource;

    fn read(text: &str) -> Result<DispatchDescription> {
        read_dispatches(text, &mut |_| Ok(vec![0u8; 4]))
    }

    #[test]
    fn buffers_pad_to_their_elements_and_dispatches_inherit_the_top_level() {
        let d = read(
            r#"{"cs": "a.dxbc", "dispatch": [2, 1, 1],
                "uavs": [{"slot": 1, "kind": "structured", "stride": 8, "u32": [1, 2, 3], "elements": 4},
                         {"slot": 0, "kind": "append", "stride": 4, "elements": 3, "initial_count": 2}],
                "dispatches": [{}, {"dispatch": [1, 2, 3]}]}"#,
        )
        .unwrap();
        assert_eq!(d.dispatches.len(), 2);
        assert_eq!(d.dispatches[0].groups, [2, 1, 1]);
        assert_eq!(d.dispatches[1].groups, [1, 2, 3]);
        let u1 = d.dispatches[0].uavs[1].as_ref().unwrap();
        assert_eq!(u1.desc.num_elements, 4);
        assert_eq!(u1.desc.structure_stride, 8);
        let Resource::Buffer(bytes) = &*u1.resource else {
            panic!()
        };
        assert_eq!(bytes.len(), 32);
        let u0 = d.dispatches[0].uavs[0].as_ref().unwrap();
        assert!(u0.desc.append);
        assert_eq!(u0.initial_count, Some(2));
    }

    #[test]
    fn mistakes_name_their_key() {
        let error = read(r#"{"cs": "a.dxbc", "dispatch": [65536, 1, 1]}"#).unwrap_err();
        assert!(error.at.contains("dispatch"), "{error}");
        let error = read(r#"{"cs": "a.dxbc", "dispatch": [1, 1, 1], "uavs": [{"kind": "raw"}]}"#).unwrap_err();
        assert!(error.to_string().contains("no data and no elements"), "{error}");
        let error = read(r#"{"cs": "a.dxbc", "dispatch": [1, 1, 1], "uavs": [{"kind": "texture2d", "format": "R32_UINT", "width": 100000}]}"#).unwrap_err();
        assert!(error.at.contains("uavs[0]"), "{error}");
        let error = read(r#"{"dispatch": [1, 1, 1]}"#).unwrap_err();
        assert!(error.to_string().contains("cs"), "{error}");
        let error =
            read(r#"{"cs": "a.dxbc", "dispatch": [1, 1, 1], "uavs": [{"kind": "raw", "elements": 200000000}]}"#)
                .unwrap_err();
        assert!(error.to_string().contains("bytes"), "{error}");
    }
}
