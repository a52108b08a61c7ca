//! Buffer and unordered access view entries of a description (`"cs_buffers"`, `"uavs"`): the kinds of the compute
//! reference's format (raw, structured, append, counter, typed buffers; 2D, 2D-array and 3D textures), each over a
//! resource of its own, shared by dispatch descriptions and draw descriptions (a pixel program's views).

use std::sync::Arc;

use crate::Result;
use crate::api::dispatch::{UnorderedAccessViewBinding, UnorderedAccessViewDesc};
use crate::api::enums::{ResourceDimension, SrvDimension, UavDimension};
use crate::api::limits::{SHADER_RESOURCE_SLOTS, UAV_SLOTS};
use crate::api::resource::{Resource, ShaderResourceView, ShaderResourceViewDesc, Texture, TextureShape};
use crate::format::{Format, TexelCodec};

use super::data::{DATA_KEYS, Files, data};
use super::values::{Node, bind_all, optional, slot_of};

/// The most bytes the unordered access views of one description may hold together (512 MiB), as for targets.
const MAX_UAV_BYTES: u64 = 512 << 20;

/// What kind of buffer or texture an entry of `"cs_buffers"` or `"uavs"` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Raw,
    Structured,
    Append,
    Counter,
    Typed,
    Texture2D,
    Texture2DArray,
    Texture3D,
}

fn kind_of(item: &Node<'_>, uav: bool) -> Result<Kind> {
    let node = item.get("kind").ok_or_else(|| item.error("no \"kind\""))?;
    let kind = match node.str()? {
        "raw" => Kind::Raw,
        "structured" => Kind::Structured,
        "typed" => Kind::Typed,
        "append" if uav => Kind::Append,
        "counter" if uav => Kind::Counter,
        "texture2d" if uav => Kind::Texture2D,
        "texture2darray" if uav => Kind::Texture2DArray,
        "texture3d" if uav => Kind::Texture3D,
        other => {
            return Err(node.error(format!(
                "unknown kind \"{other}\" (raw, structured, typed{})",
                if uav {
                    ", append, counter, texture2d, texture2darray, texture3d"
                } else {
                    ""
                }
            )));
        }
    };
    Ok(kind)
}

/// A buffer's bytes and element size: its data (if any) padded with zeros to `"elements"` elements when that is
/// more, as the reference creates it; at least one element.
fn buffer_bytes(item: &Node<'_>, kind: Kind, files: &mut Files<'_>) -> Result<(Vec<u8>, u32, Format)> {
    let (unit, format) = match kind {
        Kind::Raw => (4, Format::R32Typeless),
        Kind::Typed => {
            let format = item
                .get("format")
                .ok_or_else(|| item.error("a typed buffer needs a format"))?
                .format()?;
            let codec = TexelCodec::new(format).map_err(|e| item.error(e.to_string()))?;
            let unit = u32::try_from(codec.element_bytes()).map_err(|_| item.error("element size"))?;
            (unit, format)
        }
        _ => {
            let stride = item
                .get("stride")
                .ok_or_else(|| item.error("a structured buffer needs a stride"))?;
            let stride = stride.u32_at_most(2048)?;
            if stride == 0 || stride % 4 != 0 {
                return Err(item.error(format!(
                    "a stride of {stride} bytes (a positive multiple of 4, at most 2048)"
                )));
            }
            (stride, Format::Unknown)
        }
    };
    let has_data = DATA_KEYS.iter().any(|k| item.get(k).is_some());
    let mut bytes = if has_data { data(item, files)? } else { Vec::new() };
    let given = u64::try_from(bytes.len()).unwrap_or(u64::MAX).div_ceil(u64::from(unit));
    let elements = optional(item, "elements", Node::u32)?.map_or(given, |e| given.max(u64::from(e)));
    if elements == 0 {
        return Err(item.error("no data and no elements"));
    }
    let total = elements.saturating_mul(u64::from(unit));
    if total > MAX_UAV_BYTES {
        return Err(item.error(format!(
            "{total} bytes, more than the {MAX_UAV_BYTES} a description may hold"
        )));
    }
    bytes.resize(usize::try_from(total).map_err(|_| item.error("size"))?, 0);
    Ok((bytes, unit, format))
}

/// `"cs_buffers"`: raw, structured and typed buffer views (`t#`).
pub(super) fn buffer_views(node: &Node<'_>, files: &mut Files<'_>) -> Result<Vec<(u32, ShaderResourceView)>> {
    let mut out = Vec::new();
    for (index, item) in node.items()?.into_iter().enumerate() {
        let mut keys = vec!["slot", "kind", "format", "stride", "elements"];
        keys.extend(DATA_KEYS);
        item.expect_object(&keys)?;
        let slot = slot_of(&item, index, SHADER_RESOURCE_SLOTS)?;
        let kind = kind_of(&item, false)?;
        let (bytes, unit, format) = buffer_bytes(&item, kind, files)?;
        let elements =
            u32::try_from(bytes.len().checked_div(unit as usize).unwrap_or(0)).map_err(|_| item.error("size"))?;
        let desc = ShaderResourceViewDesc {
            format,
            dimension: if kind == Kind::Raw {
                SrvDimension::BufferEx
            } else {
                SrvDimension::Buffer
            },
            num_elements: elements,
            raw: kind == Kind::Raw,
            structure_stride: if kind == Kind::Structured { unit } else { 0 },
            ..ShaderResourceViewDesc::default()
        };
        out.push((
            slot,
            ShaderResourceView {
                resource: Arc::new(Resource::Buffer(bytes.into())),
                desc,
            },
        ));
    }
    Ok(out)
}

/// `"uavs"`: every unordered access view, each over a resource of its own.
pub(super) fn uav_bindings(node: &Node<'_>, files: &mut Files<'_>) -> Result<Vec<Option<UnorderedAccessViewBinding>>> {
    let mut pairs = Vec::new();
    let mut total: u64 = 0;
    for (index, item) in node.items()?.into_iter().enumerate() {
        let mut keys = vec![
            "slot",
            "kind",
            "format",
            "stride",
            "elements",
            "initial_count",
            "width",
            "height",
            "depth",
            "array_size",
        ];
        keys.extend(DATA_KEYS);
        item.expect_object(&keys)?;
        let slot = slot_of(&item, index, UAV_SLOTS)?;
        let kind = kind_of(&item, true)?;
        let initial_count = optional(&item, "initial_count", Node::u32)?;
        let binding = match kind {
            Kind::Texture2D | Kind::Texture2DArray | Kind::Texture3D => texture_uav(&item, kind, files)?,
            _ => {
                let (bytes, unit, format) = buffer_bytes(&item, kind, files)?;
                let elements = u32::try_from(bytes.len().checked_div(unit as usize).unwrap_or(0))
                    .map_err(|_| item.error("size"))?;
                let desc = UnorderedAccessViewDesc {
                    format,
                    dimension: UavDimension::Buffer,
                    num_elements: elements,
                    raw: kind == Kind::Raw,
                    append: kind == Kind::Append,
                    counter: kind == Kind::Counter,
                    structure_stride: if matches!(kind, Kind::Structured | Kind::Append | Kind::Counter) {
                        unit
                    } else {
                        0
                    },
                    ..UnorderedAccessViewDesc::default()
                };
                UnorderedAccessViewBinding {
                    resource: Arc::new(Resource::Buffer(bytes.into())),
                    desc,
                    initial_count,
                }
            }
        };
        total = total.saturating_add(match &*binding.resource {
            Resource::Buffer(b) => b.len() as u64,
            Resource::Texture(t) => t.subresources.iter().map(|s| s.len() as u64).sum(),
        });
        if total > MAX_UAV_BYTES {
            return Err(item.error(format!(
                "the views pass the {MAX_UAV_BYTES} bytes a description may hold"
            )));
        }
        pairs.push((slot, binding));
    }
    bind_all(Some(node.clone()), pairs, UAV_SLOTS)
}

/// A texture view: one mip level, every slice; the data (rows packed, slices in order) zero-filled to the size.
fn texture_uav(item: &Node<'_>, kind: Kind, files: &mut Files<'_>) -> Result<UnorderedAccessViewBinding> {
    let format = item
        .get("format")
        .ok_or_else(|| item.error("a texture needs a format"))?
        .format()?;
    let codec = TexelCodec::new(format).map_err(|e| item.error(e.to_string()))?;
    let side = |key: &str, max: u32| -> Result<u32> {
        let value = optional(item, key, |n| n.u32_at_most(max))?.unwrap_or(1);
        if value == 0 {
            return Err(item.error(format!("\"{key}\" is 0")));
        }
        Ok(value)
    };
    let width = side("width", 16384)?;
    let height = side("height", 16384)?;
    let (depth, array_size) = match kind {
        Kind::Texture3D => (side("depth", 2048)?, 1),
        Kind::Texture2DArray => (1, side("array_size", 2048)?),
        _ => (1, 1),
    };
    let plane = u64::from(width)
        .saturating_mul(u64::from(height))
        .saturating_mul(codec.element_bytes() as u64);
    let total = plane.saturating_mul(u64::from(depth.max(array_size)));
    if total > MAX_UAV_BYTES {
        return Err(item.error(format!(
            "{total} bytes, more than the {MAX_UAV_BYTES} a description may hold"
        )));
    }
    let has_data = DATA_KEYS.iter().any(|k| item.get(k).is_some());
    let mut bytes = if has_data { data(item, files)? } else { Vec::new() };
    if bytes.len() as u64 > total {
        return Err(item.error(format!("{} bytes of data for {total} bytes of texels", bytes.len())));
    }
    bytes.resize(usize::try_from(total).map_err(|_| item.error("size"))?, 0);
    let plane = usize::try_from(plane).map_err(|_| item.error("size"))?;
    let subresources: Vec<Arc<[u8]>> = if kind == Kind::Texture2DArray {
        bytes.chunks(plane.max(1)).map(Arc::from).collect()
    } else {
        vec![bytes.into()]
    };
    let shape = TextureShape {
        dimension: if kind == Kind::Texture3D {
            ResourceDimension::Texture3D
        } else {
            ResourceDimension::Texture2D
        },
        format,
        width,
        height,
        depth,
        array_size,
        mip_levels: 1,
        sample_count: 1,
    };
    let texture = Texture::new(shape, subresources).map_err(|e| item.error(e.to_string()))?;
    let (dimension, slices) = match kind {
        Kind::Texture3D => (UavDimension::Texture3D, depth),
        Kind::Texture2DArray => (UavDimension::Texture2DArray, array_size),
        _ => (UavDimension::Texture2D, 1),
    };
    Ok(UnorderedAccessViewBinding {
        resource: Arc::new(Resource::Texture(texture)),
        desc: UnorderedAccessViewDesc {
            format,
            dimension,
            array_size: slices,
            ..UnorderedAccessViewDesc::default()
        },
        initial_count: None,
    })
}
