//! Reading a multisampled target's samples. D3D11 forbids a staging copy of a multisampled resource, so the
//! recorder draws them out on the program's own context: it copies the target into a multisampled texture of its
//! own with the shader-resource bind flag (`CopyResource` between two multisampled resources of one description
//! is allowed; a typeless format where the views need one), then draws one triangle over a single-sampled texture
//! of its own, `sample_count` times as tall as the target, whose pixel program (`shaders/ms_load_*.hlsl`, compiled
//! DXBC embedded here) writes sample `s` of texel `(x, y)` to pixel `(x, s * height + y)` with `Texture2DMS.Load`.
//! That texture's rows, top first, are then the capture format's sample planes one after another (sample 0's
//! first), and it is read through an ordinary staging copy.
//!
//! Every piece of pipeline state the reader sets is read first with the context's `*Get*` calls and set back after
//! its draw (input layout and topology, vertex and pixel programs, the pixel stage's first two shader resources,
//! rasterizer state and viewports, render targets and depth-stencil view, blend and depth-stencil state with the
//! blend factor, sample mask and stencil reference), so the program's own rendering is unchanged. Class instances
//! of the programs are not restored (the recorder refuses nothing for them; programs using dynamic linkage are
//! rare). The draw happens inside the recorder's own work, so the hooks let it through unrecorded.

use crate::readback::Result;
use iridia::api::resource::TextureShape;
use iridia::format::{Format, ShaderType};
use std::collections::HashMap;
use windows::Win32::Graphics::Direct3D::D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST;
use windows::Win32::Graphics::Direct3D11::*;
use windows::Win32::Graphics::Dxgi::Common::*;
use windows::core::Interface;

/// The vertex program: a triangle covering the viewport.
const VS: &[u8] = include_bytes!("shaders/ms_fullscreen.vs.dxbc");
/// Pixel programs by what they load: float (UNORM, SNORM, float, sRGB targets), UINT, SINT, D24S8 packed.
const PS_FLOAT: &[u8] = include_bytes!("shaders/ms_load_float.ps.dxbc");
const PS_UINT: &[u8] = include_bytes!("shaders/ms_load_uint.ps.dxbc");
const PS_SINT: &[u8] = include_bytes!("shaders/ms_load_sint.ps.dxbc");
const PS_D24S8: &[u8] = include_bytes!("shaders/ms_load_d24s8.ps.dxbc");

/// D3D11's largest 2D texture side (21.1): the stacked planes must fit.
const MAX_SIDE: u32 = 16384;

/// Which pixel program reads a target, and the formats around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    /// The pixel program.
    program: Program,
    /// The recorder's multisampled copy's format.
    copy: DXGI_FORMAT,
    /// The shader-resource views' formats (the second only for stencil).
    views: [DXGI_FORMAT; 2],
    /// The stacked planes' format.
    planes: DXGI_FORMAT,
}

/// The pixel programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Program {
    Float,
    Uint,
    Sint,
    D24S8,
}

/// The plan for a target whose resource has DXGI format `resource` and whose view has `view` (Iridia's `format`),
/// or why its samples cannot be read.
fn plan(resource: DXGI_FORMAT, view: DXGI_FORMAT, format: Format, depth: bool) -> Result<Plan> {
    if depth {
        return match view {
            DXGI_FORMAT_D24_UNORM_S8_UINT => Ok(Plan {
                program: Program::D24S8,
                copy: DXGI_FORMAT_R24G8_TYPELESS,
                views: [DXGI_FORMAT_R24_UNORM_X8_TYPELESS, DXGI_FORMAT_X24_TYPELESS_G8_UINT],
                planes: DXGI_FORMAT_R32_UINT,
            }),
            DXGI_FORMAT_D32_FLOAT => Ok(Plan {
                program: Program::Float,
                copy: DXGI_FORMAT_R32_TYPELESS,
                views: [DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_UNKNOWN],
                planes: DXGI_FORMAT_R32_FLOAT,
            }),
            DXGI_FORMAT_D16_UNORM => Ok(Plan {
                program: Program::Float,
                copy: DXGI_FORMAT_R16_TYPELESS,
                views: [DXGI_FORMAT_R16_UNORM, DXGI_FORMAT_UNKNOWN],
                planes: DXGI_FORMAT_R16_UNORM,
            }),
            _ => Err(format!(
                "a multisampled {format} depth-stencil target: the recorder reads the samples of D24_UNORM_S8_UINT, \
                 D32_FLOAT and D16_UNORM targets only"
            )),
        };
    }
    let program = match format.info().shader_type {
        ShaderType::Float => Program::Float,
        ShaderType::Uint => Program::Uint,
        ShaderType::Sint => Program::Sint,
        ShaderType::None => return Err(format!("a multisampled {format} target has no shader type to load")),
    };
    Ok(Plan {
        program,
        copy: resource,
        views: [view, DXGI_FORMAT_UNKNOWN],
        planes: view,
    })
}

/// What the reader keeps per device: its programs, its rasterizer state, and its textures by description.
#[derive(Default)]
pub struct SampleReader {
    devices: HashMap<usize, DeviceObjects>,
}

/// A multisampled copy's key: (DXGI format, width, height, sample count, quality).
type CopyKey = (i32, u32, u32, u32, u32);

/// One device's reader objects.
struct DeviceObjects {
    vs: ID3D11VertexShader,
    programs: HashMap<Program, ID3D11PixelShader>,
    rasterizer: ID3D11RasterizerState,
    /// Multisampled copies by (format, width, height, samples, quality), with their views.
    copies: HashMap<CopyKey, (ID3D11Resource, Vec<ID3D11ShaderResourceView>)>,
    /// Stacked-plane targets by (format, width, height), with their views.
    planes: HashMap<(i32, u32, u32), (ID3D11Resource, ID3D11RenderTargetView)>,
}

/// A failure of a creation call, as text.
fn fail(what: &'static str) -> impl Fn(windows::core::Error) -> String {
    move |e| format!("the sample reader's {what} failed: {e}")
}

impl DeviceObjects {
    /// Creates the programs and state on `device`.
    fn new(device: &ID3D11Device) -> Result<Self> {
        let mut vs = None;
        // SAFETY: a live device; the bytecode is a complete DXBC container; the out-parameter is a local.
        unsafe { device.CreateVertexShader(VS, None, Some(&mut vs)) }.map_err(fail("CreateVertexShader"))?;
        let mut programs = HashMap::new();
        for (program, code) in [
            (Program::Float, PS_FLOAT),
            (Program::Uint, PS_UINT),
            (Program::Sint, PS_SINT),
            (Program::D24S8, PS_D24S8),
        ] {
            let mut ps = None;
            // SAFETY: as above.
            unsafe { device.CreatePixelShader(code, None, Some(&mut ps)) }.map_err(fail("CreatePixelShader"))?;
            programs.insert(program, ps.ok_or("no pixel program")?);
        }
        let desc = D3D11_RASTERIZER_DESC {
            FillMode: D3D11_FILL_SOLID,
            CullMode: D3D11_CULL_NONE,
            FrontCounterClockwise: false.into(),
            DepthBias: 0,
            DepthBiasClamp: 0.0,
            SlopeScaledDepthBias: 0.0,
            DepthClipEnable: true.into(),
            ScissorEnable: false.into(),
            MultisampleEnable: false.into(),
            AntialiasedLineEnable: false.into(),
        };
        let mut rasterizer = None;
        // SAFETY: a live device; the description is complete; the out-parameter is a local.
        unsafe { device.CreateRasterizerState(&desc, Some(&mut rasterizer)) }.map_err(fail("CreateRasterizerState"))?;
        Ok(Self {
            vs: vs.ok_or("no vertex program")?,
            programs,
            rasterizer: rasterizer.ok_or("no rasterizer state")?,
            copies: HashMap::new(),
            planes: HashMap::new(),
        })
    }

    /// The multisampled copy of a target of description `source` in the plan's format, with its views.
    fn copy(
        &mut self,
        device: &ID3D11Device,
        source: &D3D11_TEXTURE2D_DESC,
        plan: &Plan,
    ) -> Result<(ID3D11Resource, Vec<ID3D11ShaderResourceView>)> {
        let key = (
            plan.copy.0,
            source.Width,
            source.Height,
            source.SampleDesc.Count,
            source.SampleDesc.Quality,
        );
        if let Some(found) = self.copies.get(&key) {
            return Ok(found.clone());
        }
        let desc = D3D11_TEXTURE2D_DESC {
            Width: source.Width,
            Height: source.Height,
            MipLevels: 1,
            ArraySize: 1,
            Format: plan.copy,
            SampleDesc: source.SampleDesc,
            Usage: D3D11_USAGE_DEFAULT,
            BindFlags: D3D11_BIND_SHADER_RESOURCE.0 as u32,
            CPUAccessFlags: 0,
            MiscFlags: 0,
        };
        let mut texture = None;
        // SAFETY: a live device; the description is complete; the out-parameter is a local.
        unsafe { device.CreateTexture2D(&desc, None, Some(&mut texture)) }
            .map_err(fail("CreateTexture2D (multisampled copy)"))?;
        let texture: ID3D11Resource = texture.ok_or("no copy")?.cast().map_err(fail("cast"))?;
        let mut views = Vec::new();
        for format in plan.views {
            if format == DXGI_FORMAT_UNKNOWN {
                continue;
            }
            let view_desc = D3D11_SHADER_RESOURCE_VIEW_DESC {
                Format: format,
                ViewDimension: windows::Win32::Graphics::Direct3D::D3D11_SRV_DIMENSION_TEXTURE2DMS,
                Anonymous: D3D11_SHADER_RESOURCE_VIEW_DESC_0 {
                    Texture2DMS: D3D11_TEX2DMS_SRV {
                        UnusedField_NothingToDefine: 0,
                    },
                },
            };
            let mut view = None;
            // SAFETY: a live device and texture; the description is complete; the out-parameter is a local.
            unsafe { device.CreateShaderResourceView(&texture, Some(&view_desc), Some(&mut view)) }
                .map_err(fail("CreateShaderResourceView (multisampled copy)"))?;
            views.push(view.ok_or("no view")?);
        }
        self.copies.insert(key, (texture.clone(), views.clone()));
        Ok((texture, views))
    }

    /// The stacked-plane target `width` x `height` in `format`, with its view.
    fn planes(
        &mut self,
        device: &ID3D11Device,
        format: DXGI_FORMAT,
        width: u32,
        height: u32,
    ) -> Result<(ID3D11Resource, ID3D11RenderTargetView)> {
        let key = (format.0, width, height);
        if let Some(found) = self.planes.get(&key) {
            return Ok(found.clone());
        }
        let desc = D3D11_TEXTURE2D_DESC {
            Width: width,
            Height: height,
            MipLevels: 1,
            ArraySize: 1,
            Format: format,
            SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
            Usage: D3D11_USAGE_DEFAULT,
            BindFlags: D3D11_BIND_RENDER_TARGET.0 as u32,
            CPUAccessFlags: 0,
            MiscFlags: 0,
        };
        let mut texture = None;
        // SAFETY: a live device; the description is complete; the out-parameter is a local.
        unsafe { device.CreateTexture2D(&desc, None, Some(&mut texture)) }
            .map_err(fail("CreateTexture2D (sample planes)"))?;
        let texture: ID3D11Resource = texture.ok_or("no planes texture")?.cast().map_err(fail("cast"))?;
        let mut view = None;
        // SAFETY: a live device and texture; the default view; the out-parameter is a local.
        unsafe { device.CreateRenderTargetView(&texture, None, Some(&mut view)) }
            .map_err(fail("CreateRenderTargetView (sample planes)"))?;
        let view = view.ok_or("no planes view")?;
        self.planes.insert(key, (texture.clone(), view.clone()));
        Ok((texture, view))
    }
}

/// What a sample read leaves for the staging copy: the single-sampled texture holding the planes, its DXGI format,
/// and its shape (the target's format, `sample_count` times the height) for reading its rows.
pub struct Planes {
    /// The texture.
    pub texture: ID3D11Resource,
    /// Its DXGI format.
    pub format: DXGI_FORMAT,
    /// The planes as rows of the target's format.
    pub shape: TextureShape,
}

impl SampleReader {
    /// Draws the samples of the multisampled 2D `resource` (one slice, one mip: `shape`), seen through a view of
    /// DXGI format `view_format` (a depth-stencil view when `depth`), into the reader's stacked-plane texture on
    /// `context`, restoring every piece of state it changes.
    pub fn read(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        resource: &ID3D11Resource,
        shape: &TextureShape,
        view_format: DXGI_FORMAT,
        depth: bool,
    ) -> Result<Planes> {
        let texture: ID3D11Texture2D = resource.cast().map_err(fail("cast to a 2D texture"))?;
        let mut desc = D3D11_TEXTURE2D_DESC::default();
        // SAFETY: a live texture; `desc` is writable.
        unsafe { texture.GetDesc(&mut desc) };
        if desc.ArraySize != 1 || desc.MipLevels != 1 {
            return Err(format!(
                "a multisampled target of {} slices: the recorder reads the samples of single-slice targets only",
                desc.ArraySize
            ));
        }
        let view_iridia = crate::convert::format("target view format", view_format)?;
        let plan = plan(desc.Format, view_format, view_iridia, depth)?;
        let tall = desc
            .Height
            .checked_mul(desc.SampleDesc.Count)
            .filter(|&h| h <= MAX_SIDE)
            .ok_or_else(|| {
                format!(
                    "{} samples of {} rows do not fit one texture ({MAX_SIDE} rows at most)",
                    desc.SampleDesc.Count, desc.Height
                )
            })?;
        let key = device.as_raw() as usize;
        let objects = match self.devices.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(DeviceObjects::new(device)?),
        };
        let (copy, views) = objects.copy(device, &desc, &plan)?;
        let (planes, planes_view) = objects.planes(device, plan.planes, desc.Width, tall)?;
        let program = objects.programs.get(&plan.program).ok_or("no pixel program")?.clone();
        let vs = objects.vs.clone();
        let rasterizer = objects.rasterizer.clone();
        // SAFETY: both resources are live multisampled textures of one description but bind flags and a format of
        // one family, as `CopyResource` allows.
        unsafe { context.CopyResource(&copy, resource) };
        let saved = SavedState::save(context);
        let viewport = D3D11_VIEWPORT {
            TopLeftX: 0.0,
            TopLeftY: 0.0,
            Width: desc.Width as f32,
            Height: tall as f32,
            MinDepth: 0.0,
            MaxDepth: 1.0,
        };
        let views: Vec<Option<ID3D11ShaderResourceView>> = views.into_iter().map(Some).collect();
        // SAFETY: (these calls) a live context and the reader's own live objects; the arrays outlive the calls.
        unsafe {
            context.OMSetRenderTargets(Some(&[Some(planes_view)]), None);
            context.IASetInputLayout(None);
            context.IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
            context.VSSetShader(&vs, None);
            context.PSSetShader(&program, None);
            context.PSSetShaderResources(0, Some(&views));
            context.RSSetState(&rasterizer);
            context.RSSetViewports(Some(&[viewport]));
            context.OMSetBlendState(None, None, u32::MAX);
            context.OMSetDepthStencilState(None, 0);
            context.Draw(3, 0);
        }
        saved.restore(context);
        Ok(Planes {
            texture: planes,
            format: plan.planes,
            shape: TextureShape {
                height: tall,
                sample_count: 1,
                ..*shape
            },
        })
    }
}

/// The pipeline state the reader changes, as the context had it.
struct SavedState {
    layout: Option<ID3D11InputLayout>,
    topology: windows::Win32::Graphics::Direct3D::D3D_PRIMITIVE_TOPOLOGY,
    vs: Option<ID3D11VertexShader>,
    ps: Option<ID3D11PixelShader>,
    resources: [Option<ID3D11ShaderResourceView>; 2],
    rasterizer: Option<ID3D11RasterizerState>,
    viewports: Vec<D3D11_VIEWPORT>,
    targets: [Option<ID3D11RenderTargetView>; 8],
    depth: Option<ID3D11DepthStencilView>,
    blend: Option<ID3D11BlendState>,
    blend_factor: [f32; 4],
    sample_mask: u32,
    depth_state: Option<ID3D11DepthStencilState>,
    stencil_ref: u32,
}

impl SavedState {
    /// Reads the state through the context's `*Get*` calls.
    fn save(context: &ID3D11DeviceContext) -> Self {
        let mut saved = SavedState {
            layout: None,
            topology: Default::default(),
            vs: None,
            ps: None,
            resources: Default::default(),
            rasterizer: None,
            viewports: Vec::new(),
            targets: Default::default(),
            depth: None,
            blend: None,
            blend_factor: [0.0; 4],
            sample_mask: 0,
            depth_state: None,
            stencil_ref: 0,
        };
        let mut count = 16u32;
        let mut viewports = [D3D11_VIEWPORT::default(); 16];
        // SAFETY: (these calls) a live context; every out-parameter is a field or local with room for what is
        // asked (16 viewports, 2 resources, 8 render targets).
        unsafe {
            saved.layout = context.IAGetInputLayout().ok();
            saved.topology = context.IAGetPrimitiveTopology();
            context.VSGetShader(&mut saved.vs, None, None);
            context.PSGetShader(&mut saved.ps, None, None);
            context.PSGetShaderResources(0, Some(&mut saved.resources));
            saved.rasterizer = context.RSGetState().ok();
            context.RSGetViewports(&mut count, Some(viewports.as_mut_ptr()));
            context.OMGetRenderTargets(Some(&mut saved.targets), Some(&mut saved.depth));
            context.OMGetBlendState(
                Some(&mut saved.blend),
                Some(&mut saved.blend_factor),
                Some(&mut saved.sample_mask),
            );
            context.OMGetDepthStencilState(Some(&mut saved.depth_state), Some(&mut saved.stencil_ref));
        }
        saved.viewports = viewports.iter().take(count as usize).copied().collect();
        saved
    }

    /// Sets the state back.
    fn restore(self, context: &ID3D11DeviceContext) {
        // SAFETY: (these calls) a live context and the objects it had; the arrays outlive the calls.
        unsafe {
            context.OMSetRenderTargets(Some(&self.targets), self.depth.as_ref());
            context.PSSetShaderResources(0, Some(&self.resources));
            context.IASetInputLayout(self.layout.as_ref());
            context.IASetPrimitiveTopology(self.topology);
            context.VSSetShader(self.vs.as_ref(), None);
            context.PSSetShader(self.ps.as_ref(), None);
            context.RSSetState(self.rasterizer.as_ref());
            context.RSSetViewports(Some(&self.viewports));
            context.OMSetBlendState(self.blend.as_ref(), Some(&self.blend_factor), self.sample_mask);
            context.OMSetDepthStencilState(self.depth_state.as_ref(), self.stencil_ref);
        }
    }
}
