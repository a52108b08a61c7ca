//! Reading resources back through staging copies. A read is issued on the draw's own context — a `CopyResource`
//! or `CopySubresourceRegion` into a staging resource taken from a pool — and resolved later by mapping the staging
//! resource on the immediate context: right after the draw for the immediate context (one wait for the GPU per
//! draw, however many reads), after `ExecuteCommandList` for a deferred one (whose copies travel in the command
//! list, in order with its draws). Copies change nothing the program sees: they write only the recorder's own
//! staging resources and touch no pipeline state.

use iridia::api::enums::ResourceDimension;
use iridia::api::resource::TextureShape;
use std::collections::HashMap;
use std::sync::Arc;
use windows::Win32::Graphics::Direct3D11::*;
use windows::Win32::Graphics::Dxgi::Common::{DXGI_FORMAT, DXGI_SAMPLE_DESC};
use windows::core::{BOOL, Interface};

/// A failure, as text for the log.
pub type Result<T> = std::result::Result<T, String>;

/// A resource as the recorder reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Described {
    /// A buffer of this many bytes.
    Buffer {
        /// `ByteWidth`.
        bytes: u32,
    },
    /// A texture of this shape, with its DXGI format as created.
    Texture {
        /// Its shape (Iridia's format).
        shape: TextureShape,
        /// Its `DXGI_FORMAT`, for the staging copy.
        format: DXGI_FORMAT,
    },
}

/// Describes `resource`.
pub fn describe(resource: &ID3D11Resource) -> Result<Described> {
    let fail = |e: windows::core::Error| format!("cannot describe a resource: {e}");
    // SAFETY: `resource` is a live resource; `GetType` only reads it.
    let dimension = unsafe { resource.GetType() };
    match dimension {
        D3D11_RESOURCE_DIMENSION_BUFFER => {
            let buffer: ID3D11Buffer = resource.cast().map_err(fail)?;
            let mut desc = D3D11_BUFFER_DESC::default();
            // SAFETY: `desc` is writable; the buffer is live.
            unsafe { buffer.GetDesc(&mut desc) };
            Ok(Described::Buffer { bytes: desc.ByteWidth })
        }
        D3D11_RESOURCE_DIMENSION_TEXTURE1D => {
            let texture: ID3D11Texture1D = resource.cast().map_err(fail)?;
            let mut d = D3D11_TEXTURE1D_DESC::default();
            // SAFETY: `d` is writable; the texture is live.
            unsafe { texture.GetDesc(&mut d) };
            let shape = crate::convert::texture_shape(
                ResourceDimension::Texture1D,
                d.Format,
                d.Width,
                1,
                1,
                d.ArraySize,
                d.MipLevels,
                1,
            )?;
            Ok(Described::Texture {
                shape,
                format: d.Format,
            })
        }
        D3D11_RESOURCE_DIMENSION_TEXTURE2D => {
            let texture: ID3D11Texture2D = resource.cast().map_err(fail)?;
            let mut d = D3D11_TEXTURE2D_DESC::default();
            // SAFETY: `d` is writable; the texture is live.
            unsafe { texture.GetDesc(&mut d) };
            let shape = crate::convert::texture_shape(
                ResourceDimension::Texture2D,
                d.Format,
                d.Width,
                d.Height,
                1,
                d.ArraySize,
                d.MipLevels,
                d.SampleDesc.Count,
            )?;
            Ok(Described::Texture {
                shape,
                format: d.Format,
            })
        }
        D3D11_RESOURCE_DIMENSION_TEXTURE3D => {
            let texture: ID3D11Texture3D = resource.cast().map_err(fail)?;
            let mut d = D3D11_TEXTURE3D_DESC::default();
            // SAFETY: `d` is writable; the texture is live.
            unsafe { texture.GetDesc(&mut d) };
            let shape = crate::convert::texture_shape(
                ResourceDimension::Texture3D,
                d.Format,
                d.Width,
                d.Height,
                d.Depth,
                1,
                d.MipLevels,
                1,
            )?;
            Ok(Described::Texture {
                shape,
                format: d.Format,
            })
        }
        other => Err(format!("resource dimension {} is not one Iridia reads", other.0)),
    }
}

/// What a staging resource is: the key of the pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StagingDesc {
    /// Buffer, 1D, 2D or 3D.
    dimension: ResourceDimension,
    /// The DXGI format (0 for buffers).
    format: i32,
    /// Bytes for buffers; texels for textures.
    width: u32,
    height: u32,
    depth: u32,
    array_size: u32,
    mip_levels: u32,
}

impl StagingDesc {
    /// The staging copy of a whole resource.
    pub fn whole(described: &Described) -> Self {
        match *described {
            Described::Buffer { bytes } => Self {
                dimension: ResourceDimension::Buffer,
                format: 0,
                width: bytes,
                height: 1,
                depth: 1,
                array_size: 1,
                mip_levels: 1,
            },
            Described::Texture { shape, format } => Self {
                dimension: shape.dimension,
                format: format.0,
                width: shape.width,
                height: shape.height,
                depth: shape.depth,
                array_size: shape.array_size,
                mip_levels: shape.mip_levels,
            },
        }
    }

    /// The staging copy of one surface of a texture: mip `level`'s size, one mip, one slice (depth 1 for 3D).
    pub fn surface(shape: &TextureShape, format: DXGI_FORMAT, level: u32) -> Self {
        let [width, height, _] = shape.mip_size(level);
        Self {
            dimension: shape.dimension,
            ..Self::texture_2d(width, height, format)
        }
    }

    /// The staging copy of a single-sampled 2D texture of one mip and one slice, `width` x `height` of `format`.
    pub fn texture_2d(width: u32, height: u32, format: DXGI_FORMAT) -> Self {
        Self {
            dimension: ResourceDimension::Texture2D,
            format: format.0,
            width,
            height,
            depth: 1,
            array_size: 1,
            mip_levels: 1,
        }
    }

    /// The shape of the staging texture (for reading its rows).
    pub fn shape(&self, format: iridia::format::Format) -> TextureShape {
        TextureShape {
            dimension: self.dimension,
            format,
            width: self.width,
            height: self.height,
            depth: self.depth,
            array_size: self.array_size,
            mip_levels: self.mip_levels,
            sample_count: 1,
        }
    }

    /// Creates one on `device` (outside the pool: the readback probes' one-off reads).
    pub fn create(&self, device: &ID3D11Device) -> Result<ID3D11Resource> {
        let usage = D3D11_USAGE_STAGING;
        let cpu = D3D11_CPU_ACCESS_READ.0 as u32;
        let format = DXGI_FORMAT(self.format);
        let fail = |e: windows::core::Error| format!("cannot create a staging resource {self:?}: {e}");
        // SAFETY: (each creation) the description is complete and outlives the call; the out-parameter is a local.
        unsafe {
            match self.dimension {
                ResourceDimension::Buffer => {
                    let desc = D3D11_BUFFER_DESC {
                        ByteWidth: self.width,
                        Usage: usage,
                        BindFlags: 0,
                        CPUAccessFlags: cpu,
                        MiscFlags: 0,
                        StructureByteStride: 0,
                    };
                    let mut out = None;
                    device.CreateBuffer(&desc, None, Some(&mut out)).map_err(fail)?;
                    out.ok_or_else(|| "no staging buffer".to_owned())?.cast().map_err(fail)
                }
                ResourceDimension::Texture1D => {
                    let desc = D3D11_TEXTURE1D_DESC {
                        Width: self.width,
                        MipLevels: self.mip_levels,
                        ArraySize: self.array_size,
                        Format: format,
                        Usage: usage,
                        BindFlags: 0,
                        CPUAccessFlags: cpu,
                        MiscFlags: 0,
                    };
                    let mut out = None;
                    device.CreateTexture1D(&desc, None, Some(&mut out)).map_err(fail)?;
                    out.ok_or_else(|| "no staging texture".to_owned())?.cast().map_err(fail)
                }
                ResourceDimension::Texture2D => {
                    let desc = D3D11_TEXTURE2D_DESC {
                        Width: self.width,
                        Height: self.height,
                        MipLevels: self.mip_levels,
                        ArraySize: self.array_size,
                        Format: format,
                        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
                        Usage: usage,
                        BindFlags: 0,
                        CPUAccessFlags: cpu,
                        MiscFlags: 0,
                    };
                    let mut out = None;
                    device.CreateTexture2D(&desc, None, Some(&mut out)).map_err(fail)?;
                    out.ok_or_else(|| "no staging texture".to_owned())?.cast().map_err(fail)
                }
                ResourceDimension::Texture3D => {
                    let desc = D3D11_TEXTURE3D_DESC {
                        Width: self.width,
                        Height: self.height,
                        Depth: self.depth,
                        MipLevels: self.mip_levels,
                        Format: format,
                        Usage: usage,
                        BindFlags: 0,
                        CPUAccessFlags: cpu,
                        MiscFlags: 0,
                    };
                    let mut out = None;
                    device.CreateTexture3D(&desc, None, Some(&mut out)).map_err(fail)?;
                    out.ok_or_else(|| "no staging texture".to_owned())?.cast().map_err(fail)
                }
                other => Err(format!("no staging resource of dimension {other}")),
            }
        }
    }
}

/// Staging resources kept for reuse, by device and description.
#[derive(Default)]
pub struct StagingPool {
    free: HashMap<(usize, StagingDesc), Vec<ID3D11Resource>>,
    /// Staging resources created, for the log.
    pub created: u64,
}

impl StagingPool {
    /// A staging resource of `desc` on `device`: a free one, or a new one.
    pub fn acquire(&mut self, device: &ID3D11Device, desc: StagingDesc) -> Result<Staging> {
        let key = (device.as_raw() as usize, desc);
        if let Some(resource) = self.free.get_mut(&key).and_then(Vec::pop) {
            return Ok(Staging { key, resource });
        }
        self.create(device, desc)
    }

    /// A new staging resource of `desc` on `device`, given back to the pool on release like any other.
    pub fn create(&mut self, device: &ID3D11Device, desc: StagingDesc) -> Result<Staging> {
        let key = (device.as_raw() as usize, desc);
        let resource = desc.create(device)?;
        self.created += 1;
        Ok(Staging { key, resource })
    }

    /// Gives `staging` back for reuse.
    pub fn release(&mut self, staging: Staging) {
        self.free.entry(staging.key).or_default().push(staging.resource);
    }
}

/// A staging resource taken from the pool.
pub struct Staging {
    key: (usize, StagingDesc),
    /// The resource.
    pub resource: ID3D11Resource,
}

impl Staging {
    /// Its description.
    pub fn desc(&self) -> &StagingDesc {
        &self.key.1
    }
}

/// A rectangle of a surface, in texels: `[left, right) x [top, bottom)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub left: u32,
    pub top: u32,
    pub right: u32,
    pub bottom: u32,
}

/// Maps subresource `index` of `staging` on `context` and gives its texels (or bytes), rows packed: `row_bytes` a
/// row, `rows` rows a slice, `slices` slices, read from the mapped rows and slices at their pitches.
pub fn map_rows(
    context: &ID3D11DeviceContext,
    staging: &ID3D11Resource,
    index: u32,
    row_bytes: usize,
    rows: usize,
    slices: usize,
) -> Result<Vec<u8>> {
    let mut mapped = D3D11_MAPPED_SUBRESOURCE::default();
    // SAFETY: `staging` is a live staging resource made for CPU reads; `mapped` is writable.
    unsafe { context.Map(staging, index, D3D11_MAP_READ, 0, Some(&mut mapped)) }
        .map_err(|e| format!("cannot map a staging resource: {e}"))?;
    let result = (|| {
        let row_pitch = mapped.RowPitch as usize;
        let depth_pitch = mapped.DepthPitch as usize;
        if mapped.pData.is_null()
            || (rows > 1 && row_pitch < row_bytes)
            || (slices > 1 && depth_pitch < row_pitch * rows)
        {
            return Err(format!(
                "a mapped staging resource has pitches {row_pitch}/{depth_pitch} for rows of {row_bytes} bytes"
            ));
        }
        let total = row_bytes
            .checked_mul(rows)
            .and_then(|b| b.checked_mul(slices))
            .ok_or("a staging resource too large to read")?;
        // Sized by the program's resource: allocated fallibly, a failure skips the draw.
        let mut out = Vec::new();
        out.try_reserve_exact(total)
            .map_err(|_| format!("cannot allocate {total} bytes for a readback"))?;
        for slice in 0..slices {
            for row in 0..rows {
                let offset = slice * depth_pitch + row * row_pitch;
                // SAFETY: the runtime maps `DepthPitch` bytes per slice and `RowPitch` per row for the resource's
                // `slices` x `rows` rows of at least `row_bytes` bytes (checked above), so the row lies in the
                // mapping; the mapping is valid until `Unmap` below.
                let bytes = unsafe { std::slice::from_raw_parts((mapped.pData as *const u8).add(offset), row_bytes) };
                out.extend_from_slice(bytes);
            }
        }
        Ok(out)
    })();
    // SAFETY: the subresource was mapped above.
    unsafe { context.Unmap(staging, index) };
    result
}

/// Copies `region`'s rows of a mapped surface staging (`surface_row_bytes` a row, `texel_bytes` a texel) over
/// `base`, the whole surface before: what a draw limited to `region` leaves.
pub fn splice_region(
    base: &[u8],
    region_rows: &[u8],
    region: Region,
    surface_row_bytes: usize,
    texel_bytes: usize,
) -> Result<Vec<u8>> {
    // sized by the program's resource: allocated fallibly, a failure skips the draw
    let mut out = Vec::new();
    out.try_reserve_exact(base.len())
        .map_err(|_| format!("cannot allocate {} bytes for a readback", base.len()))?;
    out.extend_from_slice(base);
    let left = region.left as usize * texel_bytes;
    let width = (region.right - region.left) as usize * texel_bytes;
    for (i, row) in (region.top..region.bottom).enumerate() {
        let at = row as usize * surface_row_bytes + left;
        let from = i * width;
        if let (Some(dst), Some(src)) = (out.get_mut(at..at + width), region_rows.get(from..from + width)) {
            dst.copy_from_slice(src);
        }
    }
    Ok(out)
}

/// A shared byte array, held as the `Vec` a readback filled (fallibly): sharing it allocates only the count,
/// never a copy of the bytes (an `Arc<[u8]>` made from a `Vec` would copy them, infallibly).
pub type Bytes = Arc<Vec<u8>>;

/// The predicate a context had, switched off while the recorder copies or probes.
pub struct Predication {
    predicate: Option<ID3D11Predicate>,
    value: BOOL,
}

impl Predication {
    /// Switches predication off on `context`, keeping what it was.
    pub fn suspend(context: &ID3D11DeviceContext) -> Self {
        let mut predicate = None;
        let mut value = BOOL(0);
        // SAFETY: a live context; both out-parameters are locals.
        unsafe { context.GetPredication(Some(&mut predicate), Some(&mut value)) };
        if predicate.is_some() {
            // SAFETY: a live context; no predicate means no predication.
            unsafe { context.SetPredication(None, false) };
        }
        Self { predicate, value }
    }

    /// Sets the predicate back.
    pub fn restore(self, context: &ID3D11DeviceContext) {
        if let Some(predicate) = &self.predicate {
            // SAFETY: a live context and the predicate it had.
            unsafe { context.SetPredication(predicate, self.value.as_bool()) };
        }
    }
}

/// The unordered access view slots of `device`: 64 from feature level 11_1 (D3D11.1's
/// `D3D11_1_UAV_SLOT_COUNT`), 8 below it (5.3.9, 18.5).
pub fn uav_slot_count(device: &ID3D11Device) -> usize {
    // SAFETY: a live device; `GetFeatureLevel` only reads it.
    if unsafe { device.GetFeatureLevel() }.0 >= windows::Win32::Graphics::Direct3D::D3D_FEATURE_LEVEL_11_1.0 {
        64
    } else {
        8
    }
}
