//! Reading a multisampled target's samples. D3D11 forbids a staging copy of a multisampled resource, so the
//! recorder draws them out on the program's own context: through a `Texture2DMS` view of the target itself when the
//! program created it with the shader-resource bind flag, else through a multisampled copy of its own with that flag
//! (`CopyResource` between two multisampled resources of one description is allowed; a typeless format where the
//! views need one), it draws one triangle over a single-sampled texture of its own, `sample_count` times as tall as
//! the target, whose pixel program (`shaders/ms_load_*.hlsl`, compiled DXBC embedded here) writes sample `s` of
//! texel `(x, y)` to pixel `(x, s * height + y)` with `Texture2DMS.Load`. That texture's rows, top first, are then
//! the capture format's sample planes one after another (sample 0's first), and it is read through an ordinary
//! staging copy.
//!
//! A copy need not keep the samples (under Wine a copy of a colour texture resolves it), so the copy probe
//! ([`CopyProbe`]) checks on each device, at its first read, for colour and for depth-stencil; where a copy does
//! not keep them, a target that needs one is refused (its draw listed as not recorded).
//!
//! Every piece of pipeline state the reader sets is read first with the context's `*Get*` calls and set back after
//! its draw (input layout and topology, vertex and pixel programs, the pixel stage's first two shader resources,
//! rasterizer state and viewports, render targets and depth-stencil view, blend and depth-stencil state with the
//! blend factor, sample mask and stencil reference), so the program's own rendering is unchanged. Class instances
//! of the programs are not restored (the recorder refuses nothing for them; programs using dynamic linkage are
//! rare). The draw happens inside the recorder's own work, so the hooks let it through unrecorded.

use crate::layout::{COPY_PROBE_SIDE as PROBE_SIDE, CopyProbe, classify_copy_probe};
use crate::log::log;
use crate::readback::{Predication, Result, StagingDesc};
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
    /// Whether the target is a depth-stencil target.
    depth: bool,
}

impl Plan {
    /// The recorder's multisampled copy's bind flags: a shader resource, and for colour a render target too (under
    /// Wine a `CopyResource` into a colour copy bound as a shader resource only resolves the samples: every sample
    /// of the copy holds the texel's average; the copy probe checks this host's).
    fn copy_bind_flags(&self) -> u32 {
        let render = if self.depth {
            0
        } else {
            D3D11_BIND_RENDER_TARGET.0 as u32
        };
        D3D11_BIND_SHADER_RESOURCE.0 as u32 | render
    }
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
                depth: true,
            }),
            DXGI_FORMAT_D32_FLOAT => Ok(Plan {
                program: Program::Float,
                copy: DXGI_FORMAT_R32_TYPELESS,
                views: [DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_UNKNOWN],
                planes: DXGI_FORMAT_R32_FLOAT,
                depth: true,
            }),
            DXGI_FORMAT_D16_UNORM => Ok(Plan {
                program: Program::Float,
                copy: DXGI_FORMAT_R16_TYPELESS,
                views: [DXGI_FORMAT_R16_UNORM, DXGI_FORMAT_UNKNOWN],
                planes: DXGI_FORMAT_R16_UNORM,
                depth: true,
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
        depth: false,
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
    /// What the copy probe found, once it ran: for colour, for depth-stencil.
    copy_probe: [Option<CopyProbe>; 2],
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
            copy_probe: [None, None],
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
            BindFlags: plan.copy_bind_flags(),
            CPUAccessFlags: 0,
            MiscFlags: 0,
        };
        let mut texture = None;
        // SAFETY: a live device; the description is complete; the out-parameter is a local.
        unsafe { device.CreateTexture2D(&desc, None, Some(&mut texture)) }
            .map_err(fail("CreateTexture2D (multisampled copy)"))?;
        let texture: ID3D11Resource = texture.ok_or("no copy")?.cast().map_err(fail("cast"))?;
        let views = views_of(device, &texture, plan)?;
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

/// The plan's multisampled shader-resource views of `texture` (the recorder's copy, or the target itself when the
/// program created it with the shader-resource bind flag).
fn views_of(device: &ID3D11Device, texture: &ID3D11Resource, plan: &Plan) -> Result<Vec<ID3D11ShaderResourceView>> {
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
        unsafe { device.CreateShaderResourceView(texture, Some(&view_desc), Some(&mut view)) }
            .map_err(fail("CreateShaderResourceView (multisampled)"))?;
        views.push(view.ok_or("no view")?);
    }
    Ok(views)
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
    /// `context`, restoring every piece of state it changes. A target the program created with the shader-resource
    /// bind flag is read directly; another through the reader's copy, which for colour the copy probe must have
    /// found to keep the samples on this device.
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
        let objects = self.objects(device)?;
        let direct = if desc.BindFlags & D3D11_BIND_SHADER_RESOURCE.0 as u32 != 0 {
            views_of(device, resource, &plan).ok()
        } else {
            None
        };
        let views = match direct {
            Some(views) => views,
            None => {
                let kind = if plan.depth { "depth-stencil" } else { "colour" };
                match objects.copy_probe(device, plan.depth) {
                    CopyProbe::Keeps => {}
                    CopyProbe::Resolves => {
                        return Err(format!(
                            "a multisampled {view_iridia} target without the shader-resource bind flag: on this device \
                             a copy of a multisampled {kind} texture resolves it (the copy probe), so its samples \
                             cannot be read"
                        ));
                    }
                    CopyProbe::Unknown(why) => {
                        return Err(format!(
                            "a multisampled {view_iridia} target without the shader-resource bind flag: the copy probe \
                             could not tell whether a copy of a {kind} texture keeps its samples ({why})"
                        ));
                    }
                }
                let (copy, views) = objects.copy(device, &desc, &plan)?;
                // SAFETY: both resources are live multisampled textures of one description but bind flags and a
                // format of one family, as `CopyResource` allows.
                unsafe { context.CopyResource(&copy, resource) };
                views
            }
        };
        let (texture, tall) = objects.draw_planes(context, device, &desc, &plan, views)?;
        Ok(Planes {
            texture,
            format: plan.planes,
            shape: TextureShape {
                height: tall,
                sample_count: 1,
                ..*shape
            },
        })
    }

    /// The reader's objects on `device`, made at its first use, when the copy probe runs and its finding is logged.
    fn objects(&mut self, device: &ID3D11Device) -> Result<&mut DeviceObjects> {
        let key = device.as_raw() as usize;
        Ok(match self.devices.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let objects = e.insert(DeviceObjects::new(device)?);
                for (depth, kind) in [(false, "colour"), (true, "depth-stencil")] {
                    match objects.copy_probe(device, depth) {
                        CopyProbe::Keeps => {
                            log!("multisample copy probe: a copy of a {kind} texture keeps its samples")
                        }
                        CopyProbe::Resolves => log!(
                            "multisample copy probe: a copy of a {kind} texture resolves it; the samples of {kind} \
                             targets without the shader-resource bind flag cannot be read"
                        ),
                        CopyProbe::Unknown(why) => log!("multisample copy probe ({kind}): {why}"),
                    }
                }
                objects
            }
        })
    }
}

/// The copy probe's colours: the probed colour texture is cleared to `BASE`, then sample 0 alone (sample mask 1) is
/// drawn `MARK`; as RGBA8 UNORM bytes (0.0 and 1.0 are exact). A probed depth-stencil texture is cleared to depth
/// 1.0 and stencil 0, then sample 0 alone written depth 0.0.
const PROBE_BASE: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
const PROBE_MARK: [f32; 4] = [1.0, 1.0, 1.0, 1.0];

impl DeviceObjects {
    /// The copy probe's finding on `device` for colour or `depth`-stencil textures, run once each: a 2x2, 4-sample
    /// texture (RGBA8 bound as a render target only; R24G8_TYPELESS bound as a depth-stencil target only) is
    /// cleared, sample 0 of each texel drawn apart (see [`PROBE_MARK`]; the colour through the float reader loading
    /// a cleared texture of its own, under sample mask 1), then read through the reader's copy and planes. Sample 0
    /// reading the drawn value and sample 1 the cleared one means the copy keeps samples; sample 1 equal to sample
    /// 0, that it resolves. Runs on the immediate context with predication off, restoring the state it sets.
    fn copy_probe(&mut self, device: &ID3D11Device, depth: bool) -> CopyProbe {
        if let Some(found) = &self.copy_probe[usize::from(depth)] {
            return found.clone();
        }
        let found = match self.run_copy_probe(device, depth) {
            Ok(bytes) => classify_copy_probe(&bytes, depth),
            Err(why) => CopyProbe::Unknown(why),
        };
        self.copy_probe[usize::from(depth)] = Some(found.clone());
        found
    }

    /// The copy probe's GPU work: the planes' bytes (2x8 four-byte texels, sample 0's two rows first).
    fn run_copy_probe(&mut self, device: &ID3D11Device, depth: bool) -> Result<Vec<u8>> {
        let (format, bind) = if depth {
            (DXGI_FORMAT_R24G8_TYPELESS, D3D11_BIND_DEPTH_STENCIL)
        } else {
            (DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_RENDER_TARGET)
        };
        let probed = probe_texture(device, format, bind)?;
        // SAFETY: a live device; the context is AddRef'd and released on drop.
        let context = unsafe { device.GetImmediateContext() }.map_err(fail("GetImmediateContext"))?;
        let predication = Predication::suspend(&context);
        let copied = (|| -> Result<(ID3D11Resource, u32)> {
            let plan = if depth {
                self.mark_depth_sample(device, &context, &probed)?;
                plan(format, DXGI_FORMAT_D24_UNORM_S8_UINT, Format::D24UnormS8Uint, true)?
            } else {
                self.mark_colour_sample(device, &context, &probed)?;
                plan(format, format, Format::R8G8B8A8Unorm, false)?
            };
            let mut desc = D3D11_TEXTURE2D_DESC::default();
            let texture: ID3D11Texture2D = probed.cast().map_err(fail("cast"))?;
            // SAFETY: a live texture; `desc` is writable.
            unsafe { texture.GetDesc(&mut desc) };
            let (copy, views) = self.copy(device, &desc, &plan)?;
            // SAFETY: both resources are live multisampled textures of one description but bind flags.
            unsafe { context.CopyResource(&copy, &probed) };
            let (planes, tall) = self.draw_planes(&context, device, &desc, &plan, views)?;
            let staging = StagingDesc::texture_2d(PROBE_SIDE, tall, plan.planes).create(device)?;
            // SAFETY: both are live single-sampled textures of one size and format.
            unsafe { context.CopyResource(&staging, &planes) };
            Ok((staging, tall))
        })();
        predication.restore(&context);
        let (staging, tall) = copied?;
        crate::readback::map_rows(&context, &staging, 0, PROBE_SIDE as usize * 4, tall as usize, 1)
    }

    /// Clears the probed colour texture to [`PROBE_BASE`] and draws [`PROBE_MARK`] into sample 0 of each texel.
    fn mark_colour_sample(
        &mut self,
        device: &ID3D11Device,
        context: &ID3D11DeviceContext,
        probed: &ID3D11Resource,
    ) -> Result<()> {
        let format = DXGI_FORMAT_R8G8B8A8_UNORM;
        let marked = probe_texture(device, format, D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE)?;
        let float_plan = plan(format, format, Format::R8G8B8A8Unorm, false)?;
        let marked_views: Vec<Option<ID3D11ShaderResourceView>> =
            views_of(device, &marked, &float_plan)?.into_iter().map(Some).collect();
        let marked_view = render_target_view(device, &marked)?;
        let probed_view = render_target_view(device, probed)?;
        let program = self.programs.get(&Program::Float).ok_or("no pixel program")?.clone();
        let saved = SavedState::save(context);
        // SAFETY: (these calls) a live context and the reader's own live objects; the arrays outlive the calls.
        unsafe {
            context.ClearRenderTargetView(&marked_view, &PROBE_MARK);
            context.ClearRenderTargetView(&probed_view, &PROBE_BASE);
            context.OMSetRenderTargets(Some(&[Some(probed_view)]), None);
            context.PSSetShader(&program, None);
            context.PSSetShaderResources(0, Some(&marked_views));
            context.OMSetDepthStencilState(None, 0);
        }
        self.draw_sample_zero(context);
        saved.restore(context);
        Ok(())
    }

    /// Clears the probed depth-stencil texture to depth 1.0 and stencil 0 and writes depth 0.0 into sample 0 of
    /// each texel (no pixel program; depth test always passing).
    fn mark_depth_sample(
        &mut self,
        device: &ID3D11Device,
        context: &ID3D11DeviceContext,
        probed: &ID3D11Resource,
    ) -> Result<()> {
        let view_desc = D3D11_DEPTH_STENCIL_VIEW_DESC {
            Format: DXGI_FORMAT_D24_UNORM_S8_UINT,
            ViewDimension: D3D11_DSV_DIMENSION_TEXTURE2DMS,
            Flags: 0,
            Anonymous: D3D11_DEPTH_STENCIL_VIEW_DESC_0 {
                Texture2DMS: D3D11_TEX2DMS_DSV {
                    UnusedField_NothingToDefine: 0,
                },
            },
        };
        let mut view = None;
        // SAFETY: a live device and texture; the description is complete; the out-parameter is a local.
        unsafe { device.CreateDepthStencilView(probed, Some(&view_desc), Some(&mut view)) }
            .map_err(fail("CreateDepthStencilView (copy probe)"))?;
        let view = view.ok_or("no probe view")?;
        let state_desc = D3D11_DEPTH_STENCIL_DESC {
            DepthEnable: true.into(),
            DepthWriteMask: D3D11_DEPTH_WRITE_MASK_ALL,
            DepthFunc: D3D11_COMPARISON_ALWAYS,
            ..Default::default()
        };
        let mut state = None;
        // SAFETY: a live device; the description is complete; the out-parameter is a local.
        unsafe { device.CreateDepthStencilState(&state_desc, Some(&mut state)) }
            .map_err(fail("CreateDepthStencilState (copy probe)"))?;
        let saved = SavedState::save(context);
        // SAFETY: (these calls) a live context and the reader's own live objects.
        unsafe {
            context.ClearDepthStencilView(&view, D3D11_CLEAR_DEPTH.0 | D3D11_CLEAR_STENCIL.0, 1.0, 0);
            context.OMSetRenderTargets(None, &view);
            context.PSSetShader(None, None);
            context.OMSetDepthStencilState(state.as_ref(), 0);
        }
        self.draw_sample_zero(context);
        saved.restore(context);
        Ok(())
    }

    /// Draws the reader's full-viewport triangle over a probe texture with sample mask 1, the targets, pixel
    /// program and depth-stencil state already set.
    fn draw_sample_zero(&self, context: &ID3D11DeviceContext) {
        let viewport = D3D11_VIEWPORT {
            TopLeftX: 0.0,
            TopLeftY: 0.0,
            Width: PROBE_SIDE as f32,
            Height: PROBE_SIDE as f32,
            MinDepth: 0.0,
            MaxDepth: 1.0,
        };
        // SAFETY: (these calls) a live context and the reader's own live objects; the array outlives the call.
        unsafe {
            context.IASetInputLayout(None);
            context.IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
            context.VSSetShader(&self.vs, None);
            context.RSSetState(&self.rasterizer);
            context.RSSetViewports(Some(&[viewport]));
            context.OMSetBlendState(None, None, 1);
            context.Draw(3, 0);
        }
    }

    /// Draws the samples of a multisampled texture of description `desc`, through `views` (of it or of the
    /// reader's copy), into the reader's stacked-plane texture on `context`, restoring the state it sets: that
    /// texture and its height.
    fn draw_planes(
        &mut self,
        context: &ID3D11DeviceContext,
        device: &ID3D11Device,
        desc: &D3D11_TEXTURE2D_DESC,
        plan: &Plan,
        views: Vec<ID3D11ShaderResourceView>,
    ) -> Result<(ID3D11Resource, u32)> {
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
        let (planes, planes_view) = self.planes(device, plan.planes, desc.Width, tall)?;
        let program = self.programs.get(&plan.program).ok_or("no pixel program")?.clone();
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
            context.VSSetShader(&self.vs, None);
            context.PSSetShader(&program, None);
            context.PSSetShaderResources(0, Some(&views));
            context.RSSetState(&self.rasterizer);
            context.RSSetViewports(Some(&[viewport]));
            context.OMSetBlendState(None, None, u32::MAX);
            context.OMSetDepthStencilState(None, 0);
            context.Draw(3, 0);
        }
        saved.restore(context);
        Ok((planes, tall))
    }
}

/// A 2x2, 4-sample texture of `format` with `bind` flags, for the copy probe.
fn probe_texture(device: &ID3D11Device, format: DXGI_FORMAT, bind: D3D11_BIND_FLAG) -> Result<ID3D11Resource> {
    let desc = D3D11_TEXTURE2D_DESC {
        Width: PROBE_SIDE,
        Height: PROBE_SIDE,
        MipLevels: 1,
        ArraySize: 1,
        Format: format,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 4, Quality: 0 },
        Usage: D3D11_USAGE_DEFAULT,
        BindFlags: bind.0 as u32,
        CPUAccessFlags: 0,
        MiscFlags: 0,
    };
    let mut texture = None;
    // SAFETY: a live device; the description is complete; the out-parameter is a local.
    unsafe { device.CreateTexture2D(&desc, None, Some(&mut texture)) }.map_err(fail("CreateTexture2D (copy probe)"))?;
    texture.ok_or("no probe texture")?.cast().map_err(fail("cast"))
}

/// The default render-target view of `texture`.
fn render_target_view(device: &ID3D11Device, texture: &ID3D11Resource) -> Result<ID3D11RenderTargetView> {
    let mut view = None;
    // SAFETY: a live device and texture; the default view; the out-parameter is a local.
    unsafe { device.CreateRenderTargetView(texture, None, Some(&mut view)) }
        .map_err(fail("CreateRenderTargetView (copy probe)"))?;
    Ok(view.ok_or("no probe view")?)
}

/// The pipeline state the reader changes, as the context had it.
struct SavedState {
    layout: Option<ID3D11InputLayout>,
    topology: windows::Win32::Graphics::Direct3D::D3D_PRIMITIVE_TOPOLOGY,
    vs: Option<ID3D11VertexShader>,
    hs: Option<ID3D11HullShader>,
    ds: Option<ID3D11DomainShader>,
    gs: Option<ID3D11GeometryShader>,
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
    /// The unordered access views bound with the render targets (5.3.9: they share the output merger's slots with
    /// them), put back whatever the reader's `OMSetRenderTargets` did to them: the device's slots (8, or 64 from
    /// feature level 11_1).
    uavs: Vec<Option<ID3D11UnorderedAccessView>>,
}

impl SavedState {
    /// Reads the state through the context's `*Get*` calls, and unbinds the hull, domain and geometry programs (the
    /// reader's draws go from its vertex program straight to its pixel program, untessellated: its own topology,
    /// a triangle list, replaces the program's, which may be a patch list, until [`SavedState::restore`]).
    fn save(context: &ID3D11DeviceContext) -> Self {
        let mut saved = SavedState {
            layout: None,
            topology: Default::default(),
            vs: None,
            hs: None,
            ds: None,
            gs: None,
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
            uavs: Vec::new(),
        };
        // SAFETY: a live context; the device is AddRef'd and released on drop.
        if let Ok(device) = unsafe { context.GetDevice() } {
            saved.uavs = vec![None; crate::readback::uav_slot_count(&device)];
            // SAFETY: a live context; the vector has room for the device's slots, all asked for.
            unsafe { context.OMGetRenderTargetsAndUnorderedAccessViews(None, None, 0, Some(&mut saved.uavs)) };
        }
        let mut count = 16u32;
        let mut viewports = [D3D11_VIEWPORT::default(); 16];
        // SAFETY: (these calls) a live context; every out-parameter is a field or local with room for what is
        // asked (16 viewports, 2 resources, 8 render targets).
        unsafe {
            saved.layout = context.IAGetInputLayout().ok();
            saved.topology = context.IAGetPrimitiveTopology();
            context.VSGetShader(&mut saved.vs, None, None);
            context.HSGetShader(&mut saved.hs, None, None);
            context.HSSetShader(None, None);
            context.DSGetShader(&mut saved.ds, None, None);
            context.DSSetShader(None, None);
            context.GSGetShader(&mut saved.gs, None, None);
            context.GSSetShader(None, None);
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
        // SAFETY: a live context and the views it had; the array outlives the call.
        unsafe { context.OMSetRenderTargets(Some(&self.targets), self.depth.as_ref()) };
        // The views go back in their slots, after the render targets, each counter kept (an initial count of -1).
        let first = self.uavs.iter().position(Option::is_some);
        let last = self.uavs.iter().rposition(Option::is_some);
        if let (Some(first), Some(last)) = (first, last) {
            let targets = self
                .targets
                .iter()
                .rposition(Option::is_some)
                .map_or(0, |slot| slot + 1);
            let keep = vec![u32::MAX; last + 1 - first];
            // SAFETY: a live context and the views it had, in the slots they had (after the render targets, as
            // binding them required); the arrays hold the counts given and outlive the call.
            unsafe {
                context.OMSetRenderTargetsAndUnorderedAccessViews(
                    self.targets.get(..targets),
                    self.depth.as_ref(),
                    first as u32,
                    (last + 1 - first) as u32,
                    Some(self.uavs[first..].as_ptr()),
                    Some(keep.as_ptr()),
                )
            };
        }
        // SAFETY: (these calls) a live context and the objects it had; the arrays outlive the calls.
        unsafe {
            context.PSSetShaderResources(0, Some(&self.resources));
            context.IASetInputLayout(self.layout.as_ref());
            context.IASetPrimitiveTopology(self.topology);
            context.VSSetShader(self.vs.as_ref(), None);
            context.HSSetShader(self.hs.as_ref(), None);
            context.DSSetShader(self.ds.as_ref(), None);
            context.GSSetShader(self.gs.as_ref(), None);
            context.PSSetShader(self.ps.as_ref(), None);
            context.RSSetState(self.rasterizer.as_ref());
            context.RSSetViewports(Some(&self.viewports));
            context.OMSetBlendState(self.blend.as_ref(), Some(&self.blend_factor), self.sample_mask);
            context.OMSetDepthStencilState(self.depth_state.as_ref(), self.stencil_ref);
        }
    }
}
