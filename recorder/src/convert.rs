//! D3D11's structures, as the `windows` crate gives them, into Iridia's state types (`iridia::api::fixed_function`,
//! `iridia::api::resource`), field for field. An enumeration value Iridia does not know is an error naming the field:
//! the draw is then not recorded (and the log says why), never recorded wrong.

use iridia::api::enums::{
    AddressMode, Blend, BlendOp, ComparisonFunc, CullMode, DepthWriteMask, DsvDimension, FillMode, Filter,
    InputClassification, LogicOp, PrimitiveTopology, ResourceDimension, RtvDimension, SrvDimension, StencilOp,
    UavDimension,
};
use iridia::api::fixed_function::{
    BlendDesc, DepthStencilDesc, InputElementDesc, RasterizerDesc, RenderTargetBlendDesc, StencilFaceDesc,
};
use iridia::api::resource::{
    DepthStencilViewDesc, RenderTargetViewDesc, SamplerDesc, ShaderResourceViewDesc, TextureShape,
    UnorderedAccessViewDesc,
};
use iridia::api::viewport::{Scissor, Viewport};
use iridia::format::Format;
use windows::Win32::Foundation::RECT;
use windows::Win32::Graphics::Direct3D::*;
use windows::Win32::Graphics::Direct3D11::*;
use windows::Win32::Graphics::Dxgi::Common::DXGI_FORMAT;

/// A conversion failure: what could not be converted.
pub type Result<T> = std::result::Result<T, String>;

/// Converts a D3D11 number with an Iridia enumeration's `from_value`, or names the field that failed.
fn value<T>(field: &str, number: i32, from: impl Fn(u32) -> Option<T>) -> Result<T> {
    u32::try_from(number)
        .ok()
        .and_then(from)
        .ok_or_else(|| format!("{field} {number} is not a value Iridia knows"))
}

/// A DXGI format.
pub fn format(field: &str, format: DXGI_FORMAT) -> Result<Format> {
    value(field, format.0, Format::from_u32)
}

/// A primitive topology.
pub fn topology(topology: D3D_PRIMITIVE_TOPOLOGY) -> Result<PrimitiveTopology> {
    value("topology", topology.0, PrimitiveTopology::from_value)
}

/// `D3D11_RASTERIZER_DESC`.
pub fn rasterizer(desc: &D3D11_RASTERIZER_DESC) -> Result<RasterizerDesc> {
    Ok(RasterizerDesc {
        fill_mode: value("fill mode", desc.FillMode.0, FillMode::from_value)?,
        cull_mode: value("cull mode", desc.CullMode.0, CullMode::from_value)?,
        front_counter_clockwise: desc.FrontCounterClockwise.as_bool(),
        depth_bias: desc.DepthBias,
        depth_bias_clamp: desc.DepthBiasClamp,
        slope_scaled_depth_bias: desc.SlopeScaledDepthBias,
        depth_clip_enable: desc.DepthClipEnable.as_bool(),
        scissor_enable: desc.ScissorEnable.as_bool(),
        multisample_enable: desc.MultisampleEnable.as_bool(),
        antialiased_line_enable: desc.AntialiasedLineEnable.as_bool(),
        // D3D11_RASTERIZER_DESC1 only; the caller reads it from ID3D11RasterizerState1
        forced_sample_count: 0,
    })
}

/// `D3D11_DEPTH_STENCILOP_DESC`.
fn stencil_face(face: &D3D11_DEPTH_STENCILOP_DESC) -> Result<StencilFaceDesc> {
    Ok(StencilFaceDesc {
        fail: value("stencil fail op", face.StencilFailOp.0, StencilOp::from_value)?,
        depth_fail: value(
            "stencil depth fail op",
            face.StencilDepthFailOp.0,
            StencilOp::from_value,
        )?,
        pass: value("stencil pass op", face.StencilPassOp.0, StencilOp::from_value)?,
        func: value("stencil func", face.StencilFunc.0, ComparisonFunc::from_value)?,
    })
}

/// `D3D11_DEPTH_STENCIL_DESC`.
pub fn depth_stencil(desc: &D3D11_DEPTH_STENCIL_DESC) -> Result<DepthStencilDesc> {
    Ok(DepthStencilDesc {
        depth_enable: desc.DepthEnable.as_bool(),
        depth_write_mask: value("depth write mask", desc.DepthWriteMask.0, DepthWriteMask::from_value)?,
        depth_func: value("depth func", desc.DepthFunc.0, ComparisonFunc::from_value)?,
        stencil_enable: desc.StencilEnable.as_bool(),
        stencil_read_mask: desc.StencilReadMask,
        stencil_write_mask: desc.StencilWriteMask,
        front_face: stencil_face(&desc.FrontFace)?,
        back_face: stencil_face(&desc.BackFace)?,
    })
}

/// `D3D11_BLEND_DESC1` (a D3D11.0 blend state is given as one with logic operations off).
pub fn blend(desc: &D3D11_BLEND_DESC1) -> Result<BlendDesc> {
    let mut out = BlendDesc {
        alpha_to_coverage_enable: desc.AlphaToCoverageEnable.as_bool(),
        independent_blend_enable: desc.IndependentBlendEnable.as_bool(),
        render_target: [RenderTargetBlendDesc::default(); iridia::api::limits::RENDER_TARGET_SLOTS],
    };
    for (target, rt) in out.render_target.iter_mut().zip(desc.RenderTarget.iter()) {
        *target = RenderTargetBlendDesc {
            blend_enable: rt.BlendEnable.as_bool(),
            logic_op_enable: rt.LogicOpEnable.as_bool(),
            src_blend: value("src blend", rt.SrcBlend.0, Blend::from_value)?,
            dest_blend: value("dest blend", rt.DestBlend.0, Blend::from_value)?,
            blend_op: value("blend op", rt.BlendOp.0, BlendOp::from_value)?,
            src_blend_alpha: value("src blend alpha", rt.SrcBlendAlpha.0, Blend::from_value)?,
            dest_blend_alpha: value("dest blend alpha", rt.DestBlendAlpha.0, Blend::from_value)?,
            blend_op_alpha: value("blend op alpha", rt.BlendOpAlpha.0, BlendOp::from_value)?,
            logic_op: value("logic op", rt.LogicOp.0, LogicOp::from_value)?,
            render_target_write_mask: rt.RenderTargetWriteMask,
        };
    }
    Ok(out)
}

/// `D3D11_BLEND_DESC` as a `D3D11_BLEND_DESC1` with logic operations off (`NOOP`).
pub fn blend_desc1(desc: &D3D11_BLEND_DESC) -> D3D11_BLEND_DESC1 {
    let mut out = D3D11_BLEND_DESC1 {
        AlphaToCoverageEnable: desc.AlphaToCoverageEnable,
        IndependentBlendEnable: desc.IndependentBlendEnable,
        ..Default::default()
    };
    for (target, rt) in out.RenderTarget.iter_mut().zip(desc.RenderTarget.iter()) {
        *target = D3D11_RENDER_TARGET_BLEND_DESC1 {
            BlendEnable: rt.BlendEnable,
            LogicOpEnable: false.into(),
            SrcBlend: rt.SrcBlend,
            DestBlend: rt.DestBlend,
            BlendOp: rt.BlendOp,
            SrcBlendAlpha: rt.SrcBlendAlpha,
            DestBlendAlpha: rt.DestBlendAlpha,
            BlendOpAlpha: rt.BlendOpAlpha,
            LogicOp: D3D11_LOGIC_OP_NOOP,
            RenderTargetWriteMask: rt.RenderTargetWriteMask,
        };
    }
    out
}

/// `D3D11_SAMPLER_DESC`.
pub fn sampler(desc: &D3D11_SAMPLER_DESC) -> Result<SamplerDesc> {
    Ok(SamplerDesc {
        filter: value("filter", desc.Filter.0, Filter::from_value)?,
        address_u: value("address u", desc.AddressU.0, AddressMode::from_value)?,
        address_v: value("address v", desc.AddressV.0, AddressMode::from_value)?,
        address_w: value("address w", desc.AddressW.0, AddressMode::from_value)?,
        mip_lod_bias: desc.MipLODBias,
        max_anisotropy: desc.MaxAnisotropy,
        comparison: value("comparison func", desc.ComparisonFunc.0, ComparisonFunc::from_value)?,
        border_color: desc.BorderColor,
        min_lod: desc.MinLOD,
        max_lod: desc.MaxLOD,
    })
}

/// `D3D11_VIEWPORT`.
pub fn viewport(vp: &D3D11_VIEWPORT) -> Viewport {
    Viewport {
        x: vp.TopLeftX,
        y: vp.TopLeftY,
        width: vp.Width,
        height: vp.Height,
        min_depth: vp.MinDepth,
        max_depth: vp.MaxDepth,
    }
}

/// `D3D11_RECT`.
pub fn scissor(rect: &RECT) -> Scissor {
    Scissor {
        left: rect.left,
        top: rect.top,
        right: rect.right,
        bottom: rect.bottom,
    }
}

/// One `D3D11_INPUT_ELEMENT_DESC`, whose semantic name has been read into `semantic_name`.
pub fn input_element(desc: &D3D11_INPUT_ELEMENT_DESC, semantic_name: String) -> Result<InputElementDesc> {
    Ok(InputElementDesc {
        semantic_name,
        semantic_index: desc.SemanticIndex,
        format: format("input element format", desc.Format)?,
        input_slot: desc.InputSlot,
        aligned_byte_offset: desc.AlignedByteOffset,
        input_slot_class: value(
            "input slot class",
            desc.InputSlotClass.0,
            InputClassification::from_value,
        )?,
        instance_data_step_rate: desc.InstanceDataStepRate,
    })
}

/// A texture's shape from its `D3D11_TEXTURE{1D,2D,3D}_DESC` fields.
#[allow(clippy::too_many_arguments)] // the descriptions' fields, one by one
pub fn texture_shape(
    dimension: ResourceDimension,
    format_value: DXGI_FORMAT,
    width: u32,
    height: u32,
    depth: u32,
    array_size: u32,
    mip_levels: u32,
    sample_count: u32,
) -> Result<TextureShape> {
    Ok(TextureShape {
        dimension,
        format: format("texture format", format_value)?,
        width,
        height,
        depth,
        array_size,
        mip_levels,
        sample_count,
    })
}

/// `D3D11_SHADER_RESOURCE_VIEW_DESC`, flattened (fields the dimension does not use are 0).
pub fn shader_resource_view(desc: &D3D11_SHADER_RESOURCE_VIEW_DESC) -> Result<ShaderResourceViewDesc> {
    let mut out = ShaderResourceViewDesc {
        format: format("view format", desc.Format)?,
        dimension: value("view dimension", desc.ViewDimension.0, SrvDimension::from_value)?,
        most_detailed_mip: 0,
        mip_levels: 0,
        first_array_slice: 0,
        array_size: 0,
        first_element: 0,
        num_elements: 0,
        raw: false,
        structure_stride: 0,
    };
    // SAFETY: (each union read below) the member read is the one `ViewDimension` says is live.
    unsafe {
        let u = &desc.Anonymous;
        match desc.ViewDimension {
            D3D11_SRV_DIMENSION_BUFFER => {
                out.first_element = u.Buffer.Anonymous1.FirstElement;
                out.num_elements = u.Buffer.Anonymous2.NumElements;
            }
            D3D11_SRV_DIMENSION_BUFFEREX => {
                out.first_element = u.BufferEx.FirstElement;
                out.num_elements = u.BufferEx.NumElements;
                out.raw = u.BufferEx.Flags & D3D11_BUFFEREX_SRV_FLAG_RAW.0 as u32 != 0;
            }
            D3D11_SRV_DIMENSION_TEXTURE1D => {
                out.most_detailed_mip = u.Texture1D.MostDetailedMip;
                out.mip_levels = u.Texture1D.MipLevels;
                out.array_size = 1;
            }
            D3D11_SRV_DIMENSION_TEXTURE1DARRAY => {
                out.most_detailed_mip = u.Texture1DArray.MostDetailedMip;
                out.mip_levels = u.Texture1DArray.MipLevels;
                out.first_array_slice = u.Texture1DArray.FirstArraySlice;
                out.array_size = u.Texture1DArray.ArraySize;
            }
            D3D11_SRV_DIMENSION_TEXTURE2D => {
                out.most_detailed_mip = u.Texture2D.MostDetailedMip;
                out.mip_levels = u.Texture2D.MipLevels;
                out.array_size = 1;
            }
            D3D11_SRV_DIMENSION_TEXTURE2DARRAY => {
                out.most_detailed_mip = u.Texture2DArray.MostDetailedMip;
                out.mip_levels = u.Texture2DArray.MipLevels;
                out.first_array_slice = u.Texture2DArray.FirstArraySlice;
                out.array_size = u.Texture2DArray.ArraySize;
            }
            D3D11_SRV_DIMENSION_TEXTURE3D => {
                out.most_detailed_mip = u.Texture3D.MostDetailedMip;
                out.mip_levels = u.Texture3D.MipLevels;
                out.array_size = 1;
            }
            D3D11_SRV_DIMENSION_TEXTURECUBE => {
                out.most_detailed_mip = u.TextureCube.MostDetailedMip;
                out.mip_levels = u.TextureCube.MipLevels;
                out.array_size = 1;
            }
            D3D11_SRV_DIMENSION_TEXTURECUBEARRAY => {
                out.most_detailed_mip = u.TextureCubeArray.MostDetailedMip;
                out.mip_levels = u.TextureCubeArray.MipLevels;
                out.first_array_slice = u.TextureCubeArray.First2DArrayFace;
                out.array_size = u.TextureCubeArray.NumCubes;
            }
            D3D11_SRV_DIMENSION_TEXTURE2DMS => {
                out.mip_levels = 1;
                out.array_size = 1;
            }
            D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY => {
                out.mip_levels = 1;
                out.first_array_slice = u.Texture2DMSArray.FirstArraySlice;
                out.array_size = u.Texture2DMSArray.ArraySize;
            }
            other => {
                return Err(format!(
                    "shader resource view dimension {} is not one Iridia reads",
                    other.0
                ));
            }
        }
    }
    Ok(out)
}

/// `D3D11_UNORDERED_ACCESS_VIEW_DESC`, flattened (fields the dimension does not use are 0), with
/// `structure_stride`, the viewed buffer's `StructureByteStride`, kept for a structured view (one of format
/// `UNKNOWN`, 5.3.9) and 0 otherwise.
pub fn unordered_access_view(
    desc: &D3D11_UNORDERED_ACCESS_VIEW_DESC,
    structure_stride: u32,
) -> Result<UnorderedAccessViewDesc> {
    let mut out = UnorderedAccessViewDesc {
        format: format("unordered access view format", desc.Format)?,
        dimension: value(
            "unordered access view dimension",
            desc.ViewDimension.0,
            UavDimension::from_value,
        )?,
        ..UnorderedAccessViewDesc::default()
    };
    // SAFETY: (each union read below) the member read is the one `ViewDimension` says is live.
    unsafe {
        let u = &desc.Anonymous;
        match desc.ViewDimension {
            D3D11_UAV_DIMENSION_BUFFER => {
                let flags = u.Buffer.Flags;
                out.first_element = u.Buffer.FirstElement;
                out.num_elements = u.Buffer.NumElements;
                out.raw = flags & D3D11_BUFFER_UAV_FLAG_RAW.0 as u32 != 0;
                out.append = flags & D3D11_BUFFER_UAV_FLAG_APPEND.0 as u32 != 0;
                out.counter = flags & D3D11_BUFFER_UAV_FLAG_COUNTER.0 as u32 != 0;
                if out.format == Format::Unknown {
                    out.structure_stride = structure_stride;
                }
            }
            D3D11_UAV_DIMENSION_TEXTURE1D => {
                out.mip_slice = u.Texture1D.MipSlice;
                out.array_size = 1;
            }
            D3D11_UAV_DIMENSION_TEXTURE1DARRAY => {
                out.mip_slice = u.Texture1DArray.MipSlice;
                out.first_array_slice = u.Texture1DArray.FirstArraySlice;
                out.array_size = u.Texture1DArray.ArraySize;
            }
            D3D11_UAV_DIMENSION_TEXTURE2D => {
                out.mip_slice = u.Texture2D.MipSlice;
                out.array_size = 1;
            }
            D3D11_UAV_DIMENSION_TEXTURE2DARRAY => {
                out.mip_slice = u.Texture2DArray.MipSlice;
                out.first_array_slice = u.Texture2DArray.FirstArraySlice;
                out.array_size = u.Texture2DArray.ArraySize;
            }
            D3D11_UAV_DIMENSION_TEXTURE3D => {
                out.mip_slice = u.Texture3D.MipSlice;
                out.first_array_slice = u.Texture3D.FirstWSlice;
                out.array_size = u.Texture3D.WSize;
            }
            other => {
                return Err(format!(
                    "unordered access view dimension {} is not one Iridia reads",
                    other.0
                ));
            }
        }
    }
    Ok(out)
}

/// `D3D11_RENDER_TARGET_VIEW_DESC`, flattened.
pub fn render_target_view(desc: &D3D11_RENDER_TARGET_VIEW_DESC) -> Result<RenderTargetViewDesc> {
    let dimension = value(
        "render target view dimension",
        desc.ViewDimension.0,
        RtvDimension::from_value,
    )?;
    // SAFETY: (each union read below) the member read is the one `ViewDimension` says is live.
    let (mip_slice, first_array_slice, array_size) = unsafe {
        let u = &desc.Anonymous;
        match desc.ViewDimension {
            D3D11_RTV_DIMENSION_TEXTURE1D => (u.Texture1D.MipSlice, 0, 1),
            D3D11_RTV_DIMENSION_TEXTURE1DARRAY => (
                u.Texture1DArray.MipSlice,
                u.Texture1DArray.FirstArraySlice,
                u.Texture1DArray.ArraySize,
            ),
            D3D11_RTV_DIMENSION_TEXTURE2D => (u.Texture2D.MipSlice, 0, 1),
            D3D11_RTV_DIMENSION_TEXTURE2DARRAY => (
                u.Texture2DArray.MipSlice,
                u.Texture2DArray.FirstArraySlice,
                u.Texture2DArray.ArraySize,
            ),
            D3D11_RTV_DIMENSION_TEXTURE3D => (u.Texture3D.MipSlice, u.Texture3D.FirstWSlice, u.Texture3D.WSize),
            D3D11_RTV_DIMENSION_TEXTURE2DMS => (0, 0, 1),
            D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY => {
                (0, u.Texture2DMSArray.FirstArraySlice, u.Texture2DMSArray.ArraySize)
            }
            D3D11_RTV_DIMENSION_BUFFER => return Err("a buffer render target (the format records textures)".into()),
            _ => return Err("a render target view of a dimension Iridia does not know".into()),
        }
    };
    Ok(RenderTargetViewDesc {
        format: format("render target view format", desc.Format)?,
        dimension,
        mip_slice,
        first_array_slice,
        array_size,
    })
}

/// `D3D11_DEPTH_STENCIL_VIEW_DESC`, flattened, with its read-only flags.
pub fn depth_stencil_view(desc: &D3D11_DEPTH_STENCIL_VIEW_DESC) -> Result<DepthStencilViewDesc> {
    let dimension = value(
        "depth-stencil view dimension",
        desc.ViewDimension.0,
        DsvDimension::from_value,
    )?;
    // SAFETY: (each union read below) the member read is the one `ViewDimension` says is live.
    let (mip_slice, first_array_slice, array_size) = unsafe {
        let u = &desc.Anonymous;
        match desc.ViewDimension {
            D3D11_DSV_DIMENSION_TEXTURE1D => (u.Texture1D.MipSlice, 0, 1),
            D3D11_DSV_DIMENSION_TEXTURE1DARRAY => (
                u.Texture1DArray.MipSlice,
                u.Texture1DArray.FirstArraySlice,
                u.Texture1DArray.ArraySize,
            ),
            D3D11_DSV_DIMENSION_TEXTURE2D => (u.Texture2D.MipSlice, 0, 1),
            D3D11_DSV_DIMENSION_TEXTURE2DARRAY => (
                u.Texture2DArray.MipSlice,
                u.Texture2DArray.FirstArraySlice,
                u.Texture2DArray.ArraySize,
            ),
            D3D11_DSV_DIMENSION_TEXTURE2DMS => (0, 0, 1),
            D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY => {
                (0, u.Texture2DMSArray.FirstArraySlice, u.Texture2DMSArray.ArraySize)
            }
            _ => return Err("a depth-stencil view of a dimension Iridia does not know".into()),
        }
    };
    Ok(DepthStencilViewDesc {
        format: format("depth-stencil view format", desc.Format)?,
        dimension,
        mip_slice,
        first_array_slice,
        array_size,
        read_only_depth: desc.Flags & D3D11_DSV_READ_ONLY_DEPTH.0 as u32 != 0,
        read_only_stencil: desc.Flags & D3D11_DSV_READ_ONLY_STENCIL.0 as u32 != 0,
    })
}
