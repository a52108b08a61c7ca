//! What a program reads besides its inputs: constant buffers, shader resource views and samplers, by slot; and the
//! interface through which the interpreter asks a bound view for texels.
//!
//! The texels themselves (addressing, filtering, format decode, LOD) are [`super::texture`]'s business. The
//! interpreter reaches them through [`ShaderResource`], whose methods are that module's functions with the view as
//! receiver: [`TextureView`] implements it by calling them, and a test can bind a view of its own that records what
//! it was asked.

use crate::Result;
use crate::api::enums::SrvDimension;
use crate::api::resource::SamplerDesc;

use super::texture::{self, TextureView};
use super::uav::UnorderedAccessView;

pub use super::texture::LevelOfDetail;

pub use crate::api::limits::{
    CONSTANT_BUFFER_SLOTS, SAMPLER_SLOTS, SHADER_RESOURCE_SLOTS as RESOURCE_SLOTS, UAV_SLOTS,
};

/// A shader resource view as the interpreter reads it: one method per texture instruction family, each for one lane.
/// The methods are [`super::texture`]'s functions; results are the four shader-visible words
/// (float bits or integers) before the instruction's resource swizzle, which the interpreter applies.
pub trait ShaderResource {
    /// The view's dimension.
    fn dimension(&self) -> SrvDimension;
    /// `sample*` (22.4.15-20): `coords` is the address operand as given, `offset` the immediate texel offset,
    /// `reference` the comparison value of `sample_c`/`sample_c_lz`.
    fn sample(
        &self,
        sampler: &SamplerDesc,
        coords: [f32; 4],
        offset: [i32; 3],
        lod: LevelOfDetail,
        reference: Option<f32>,
    ) -> Result<[u32; 4]>;
    /// `gather4*` (22.4.2-5): the four texels of level 0's bilinear footprint, component `channel` (0..3).
    fn gather(
        &self,
        sampler: &SamplerDesc,
        coords: [f32; 4],
        offset: [i32; 2],
        channel: u8,
        reference: Option<f32>,
    ) -> Result<[u32; 4]>;
    /// `ld` / `ld2dms` (22.4.6-7): the integer address as given (x, y, z-or-slice, mip), the immediate offset and the
    /// sample index.
    fn load(&self, address: [i32; 4], offset: [i32; 3], sample: u32) -> Result<[u32; 4]>;
    /// `resinfo`'s integers for mip `level` (22.4.14): width, height, depth-or-array-size, mip count.
    fn dimensions(&self, level: u32) -> [u32; 4];
    /// `bufinfo` (22.4.1): elements (typed), bytes (raw) or structures (structured) in a buffer view.
    fn buffer_elements(&self) -> u32;
    /// `sampleinfo` (22.4.21): the sample count.
    fn sample_count(&self) -> u32;
    /// `samplepos` (22.4.22): sample `index`'s position relative to the pixel centre; zeros when out of range.
    fn sample_position(&self, index: u32) -> [f32; 2];
    /// `lod` (22.5.6): (clamped LOD, unclamped LOD) for the address and its derivatives.
    fn lod(&self, sampler: &SamplerDesc, coords: [f32; 4], ddx: [f32; 3], ddy: [f32; 3]) -> [f32; 2];
    /// `ld_raw` (22.4.10): the 32-bit word at `byte_address` of a raw buffer view; 0 out of range.
    fn load_raw(&self, byte_address: u32) -> Result<u32>;
    /// `ld_structured` (22.4.12): the 32-bit word at `byte_offset` in structure `index` of a structured buffer view
    /// (the view's stride); 0 out of range.
    fn load_structured(&self, index: u32, byte_offset: u32) -> Result<u32>;
}

/// Where an `eval_*` instruction evaluates an attribute (16.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PullLocation {
    /// `eval_snapped`: an offset from the pixel centre on the 16 x 16 grid, in 1/16 pixel, each of x and y in -8..=7
    /// (16.5.3: the low 4 bits of U and V, sign-extended).
    Snapped([i32; 2]),
    /// `eval_sample_index`: the rasterizer's sample `n` (out of range: undefined, 16.5.2).
    Sample(u32),
    /// `eval_centroid`: the centroid of the pixel's covered samples (3.5.5).
    Centroid,
}

/// What evaluates a pixel program's attributes at other locations than the one the rasterizer chose (16.5): the draw
/// that ran the rasterizer knows each lane's primitive and its interpolation planes.
pub trait PullModel {
    /// Component `component` of input `v{register}` at batch lane `lane`, evaluated at `at` under the register's
    /// declared interpolation (`constant`, `linear` or `linear noperspective`; its `centroid` or `sample` modifier
    /// ignored), or `None` when the register is not an attribute the rasterizer interpolates (a system value such as
    /// the position, which cannot be pulled): the instruction then reads the register as it stands.
    fn evaluate(&self, lane: usize, register: u32, component: u8, at: PullLocation) -> Option<u32>;
}

/// What to do when a program reads a slot its declarations name but nothing is bound there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unbound {
    /// Fail the run with an error naming the slot (the default: a capture missing a binding is incomplete, and
    /// silently reading zeros would hide it).
    #[default]
    Error,
    /// Read what the spec says an empty slot reads: zeros for constant buffers (7.5: "Fetching from a ConstantBuffer
    /// slot with no Buffer present always returns 0 in all components for all indices") and for resources
    /// (7.18.17, 22.4.6, 22.4.14 ...: 0 in all components; `resinfo_rcpFloat` gives infinities); an empty sampler
    /// slot is D3D11's default sampler ([`SamplerDesc::default`]; `PSSetSamplers`: a NULL sampler "invokes the
    /// default state").
    Zero,
}

/// Everything a program reads besides its inputs, by slot, and the draw's rasterizer sample count.
#[derive(Clone)]
pub struct Bindings<'a> {
    /// `cb0`..`cb13` as 16-byte vectors. A binding may be shorter than the declared size: reads past its end give 0
    /// (7.5: "Out of bounds behavior is always with respect to the size of the buffer bound at that slot").
    pub constant_buffers: [Option<&'a [[u32; 4]]>; CONSTANT_BUFFER_SLOTS],
    /// `t0`..`t127`, normally [`TextureView`]s (a `&TextureView` coerces to `&dyn ShaderResource`); entries past
    /// the end are unbound.
    pub resources: Vec<Option<&'a dyn ShaderResource>>,
    /// `s0`..`s15`.
    pub samplers: [Option<&'a SamplerDesc>; SAMPLER_SLOTS],
    /// `u0`..`u63`: unordered access views; entries past the end are unbound.
    pub uavs: Vec<Option<&'a UnorderedAccessView>>,
    /// What an empty declared slot does.
    pub unbound: Unbound,
    /// The rasterizer's sample count for this draw (the render targets' and depth buffer's `SampleDesc.Count`, 1
    /// without multisampling; default 1), which `sampleinfo` and `samplepos` on the `rasterizer` register read
    /// (22.4.21-22).
    pub rasterizer_sample_count: u32,
    /// The rasterizer's sample quality level for this draw (`SampleDesc.Quality`; default 0), which picks the pattern
    /// `samplepos` on the `rasterizer` register reads ([`crate::api::multisample::pattern`]: 0 and
    /// `D3D11_STANDARD_MULTISAMPLE_PATTERN` the standard pattern, `D3D11_CENTER_MULTISAMPLE_PATTERN` the centre one).
    /// An unknown pattern (a vendor quality level, 32 samples) gives positions (0, 0).
    pub rasterizer_sample_quality: u32,
    /// What `eval_*` instructions evaluate attributes with; without one they read the input register as it stands
    /// (the value at the location the rasterizer chose).
    pub pull_model: Option<&'a dyn PullModel>,
    /// Arithmetic choices of a replay under variants (`crate::draw::variants`); the defaults are the spec's rules.
    pub alu: AluVariants,
}

/// How the interpreter's arithmetic departs from its rules when a draw is replayed under variants
/// (`crate::draw::variants`); every field false is the rule (the ALU module's documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AluVariants {
    /// `mad-fused`: `mad` rounds once (a fused multiply-add) instead of after the product and after the sum.
    pub fused_mad: bool,
    /// `f32tof16-nearest`: `f32tof16` rounds to nearest even (IEEE 754's conversion: overflow to infinity) instead of
    /// toward zero as 3.2.2 says.
    pub f16_nearest: bool,
}

impl Default for Bindings<'_> {
    /// Nothing bound, [`Unbound::Error`], one rasterizer sample (quality 0).
    fn default() -> Self {
        Self {
            constant_buffers: [None; CONSTANT_BUFFER_SLOTS],
            resources: Vec::new(),
            samplers: [None; SAMPLER_SLOTS],
            uavs: Vec::new(),
            unbound: Unbound::default(),
            rasterizer_sample_count: 1,
            rasterizer_sample_quality: 0,
            pull_model: None,
            alu: AluVariants::default(),
        }
    }
}

impl<'a> Bindings<'a> {
    /// The constant buffer bound at `slot`, if any.
    pub fn constant_buffer(&self, slot: usize) -> Option<&'a [[u32; 4]]> {
        self.constant_buffers.get(slot).copied().flatten()
    }

    /// The view bound at `slot`, if any.
    pub fn resource(&self, slot: usize) -> Option<&'a dyn ShaderResource> {
        self.resources.get(slot).copied().flatten()
    }

    /// The sampler bound at `slot`, if any.
    pub fn sampler(&self, slot: usize) -> Option<&'a SamplerDesc> {
        self.samplers.get(slot).copied().flatten()
    }

    /// The unordered access view at `u{slot}`, if bound.
    pub fn uav(&self, slot: usize) -> Option<&'a UnorderedAccessView> {
        self.uavs.get(slot).copied().flatten()
    }
}

impl std::fmt::Debug for Bindings<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bound = |present: &[bool]| {
            present
                .iter()
                .enumerate()
                .filter(|(_, p)| **p)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        f.debug_struct("Bindings")
            .field("constant_buffers", &bound(&self.constant_buffers.map(|c| c.is_some())))
            .field(
                "resources",
                &bound(&self.resources.iter().map(Option::is_some).collect::<Vec<_>>()),
            )
            .field("samplers", &bound(&self.samplers.map(|s| s.is_some())))
            .field(
                "uavs",
                &bound(&self.uavs.iter().map(Option::is_some).collect::<Vec<_>>()),
            )
            .field("unbound", &self.unbound)
            .field("rasterizer_sample_count", &self.rasterizer_sample_count)
            .field("rasterizer_sample_quality", &self.rasterizer_sample_quality)
            .field("pull_model", &self.pull_model.is_some())
            .finish()
    }
}

impl ShaderResource for TextureView {
    fn dimension(&self) -> SrvDimension {
        TextureView::dimension(self)
    }

    fn sample(
        &self,
        sampler: &SamplerDesc,
        coords: [f32; 4],
        offset: [i32; 3],
        lod: LevelOfDetail,
        reference: Option<f32>,
    ) -> Result<[u32; 4]> {
        texture::sample(self, sampler, coords, offset, lod, reference)
    }

    fn gather(
        &self,
        sampler: &SamplerDesc,
        coords: [f32; 4],
        offset: [i32; 2],
        channel: u8,
        reference: Option<f32>,
    ) -> Result<[u32; 4]> {
        texture::gather(self, sampler, coords, offset, channel, reference)
    }

    fn load(&self, address: [i32; 4], offset: [i32; 3], sample: u32) -> Result<[u32; 4]> {
        texture::load(self, address, offset, sample)
    }

    fn dimensions(&self, level: u32) -> [u32; 4] {
        texture::dimensions(self, level)
    }

    fn buffer_elements(&self) -> u32 {
        texture::buffer_elements(self)
    }

    fn sample_count(&self) -> u32 {
        texture::sample_count(self)
    }

    fn sample_position(&self, index: u32) -> [f32; 2] {
        texture::sample_position(self, index)
    }

    fn lod(&self, sampler: &SamplerDesc, coords: [f32; 4], ddx: [f32; 3], ddy: [f32; 3]) -> [f32; 2] {
        texture::lod(self, sampler, coords, ddx, ddy)
    }

    fn load_raw(&self, byte_address: u32) -> Result<u32> {
        texture::load_raw(self, byte_address)
    }

    fn load_structured(&self, index: u32, byte_offset: u32) -> Result<u32> {
        texture::load_structured(self, index, byte_offset)
    }
}
