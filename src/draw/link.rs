//! Linking a vertex program's outputs to a pixel program's inputs (4.4.3, 16.3): what each input component of the
//! pixel program reads, and which output components of the vertex program a draw must keep per vertex.
//!
//! - A pixel input element reads the vertex output element of the same semantic name (compared without case) and
//!   index, component by component: the k-th component of the input's mask takes the k-th of the output's. An input
//!   the program declares (`dcl_input_ps`) that no output carries is an error naming it; an input element the program
//!   does not declare is never read and is not linked.
//! - System values: `SV_Position` is the pixel's position (16.3: centre x, y, the interpolated z, w), `SV_IsFrontFace`
//!   the triangle's facing (`0xFFFFFFFF` or 0), `SV_PrimitiveID` the primitive's ID (8.17), `SV_SampleIndex` the
//!   index of the sample a sample-frequency invocation runs for (0 at pixel frequency; 16.3, 3.5.4). `SV_RenderTargetArrayIndex` and `SV_ViewportArrayIndex` are linked like other values when the
//!   vertex program writes them and read 0 otherwise (a draw without a geometry program uses index 0, 15.8.1).
//! - Interpolation is the pixel program's declaration of the register (22.3.10): `constant` takes the provoking
//!   vertex's word unchanged; `linear` (and its `centroid` and `sample` forms) is perspective-correct; `linear
//!   noperspective` (and its forms) is linear in screen space. Where it is evaluated is the mode's [`Location`]: the
//!   pixel centre, the centroid (3.5.5) or the sample (16.4); a `sample` mode or `SV_SampleIndex` makes the program
//!   run at sample frequency ([`Linkage::sample_frequency`]). An integer element
//!   (signature type `uint`/`sint`) is always flat; an undeclared mode is perspective-correct for floats.
//! - The vertex program's `SV_Position` output is the clip-space position; `SV_ClipDistance` and `SV_CullDistance`
//!   components are kept for 15.4.1 and 15.4.2.

use crate::dxbc::program::InterpolationMode;
use crate::dxbc::signature::{ComponentType, SignatureElement, SystemValue};
use crate::shader::{Executable, InputRegister};
use crate::{Error, Result};

use super::program::Program;

/// How a pixel input component is blended from the triangle's vertices (16.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Interpolation {
    /// Perspective-correct (`linear`, `linear centroid`, `linear sample`).
    Perspective,
    /// Linear in screen space (`linear noperspective` and its forms).
    ScreenLinear,
    /// The provoking vertex's word (`constant`, integers).
    Flat,
}

/// Where in the pixel an input is evaluated (16.4, 3.5.5): what its interpolation mode's `centroid` or `sample`
/// says. The same for every mode with one sample a pixel (all three are the centre then).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum Location {
    /// The pixel centre (`linear`, `linear noperspective`, `constant`).
    #[default]
    Centre,
    /// The centroid of the covered samples (`linear centroid`, `linear noperspective centroid`; 3.5.5).
    Centroid,
    /// The invocation's sample (`linear sample`, `linear noperspective sample`; sample frequency).
    Sample,
}

/// What one pixel input component reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelSource {
    /// Kept vertex output `varying` (an index into [`Linkage::varyings`]), blended by `mode`.
    Varying {
        /// Index into [`Linkage::varyings`].
        varying: usize,
        /// How it is blended.
        mode: Interpolation,
    },
    /// `SV_Position` component `component` (0 = x .. 3 = w).
    Position(usize),
    /// `SV_IsFrontFace`.
    FrontFace,
    /// `SV_PrimitiveID`.
    PrimitiveId,
    /// `SV_SampleIndex`: the sample a sample-frequency invocation is for (0 at pixel frequency).
    SampleIndex,
    /// A value that is 0 in a draw without a geometry program (the array indices).
    Zero,
}

/// One pixel input component and what it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PixelInput {
    /// The `v#` register.
    pub register: u32,
    /// The component (0 = x .. 3 = w).
    pub component: u8,
    /// The element's semantic, as `NAME` + index (`TEXCOORD1`).
    pub semantic: String,
    /// What it reads.
    pub source: PixelSource,
    /// Where it is evaluated.
    pub location: Location,
}

/// The vertex program's outputs a draw keeps and the pixel program's inputs it fills.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Linkage {
    /// The `o#` register and components (x, y, z, w in order; `None` for a component the element lacks) of
    /// `SV_Position`.
    pub position: (u32, [Option<u8>; 4]),
    /// Vertex output components (register, component) the pixel program reads, kept per vertex.
    pub varyings: Vec<(u32, u8)>,
    /// `SV_ClipDistance` components (register, component).
    pub clip_distances: Vec<(u32, u8)>,
    /// `SV_CullDistance` components (register, component).
    pub cull_distances: Vec<(u32, u8)>,
    /// Every pixel input component the program declares, with its source.
    pub inputs: Vec<PixelInput>,
    /// Whether the pixel program reads `vCoverage`.
    pub coverage_input: bool,
    /// Whether the pixel program reads `vPrim`.
    pub primitive_id_input: bool,
    /// Whether the pixel program runs once per covered sample (3.5.4, 16.4): it reads `SV_SampleIndex` or declares
    /// an input with a `sample` interpolation mode.
    pub sample_frequency: bool,
}

/// The components set in `mask`, lowest first.
fn components(mask: u8) -> impl Iterator<Item = u8> {
    (0u8..4).filter(move |c| mask >> c & 1 == 1)
}

/// The first component set in `mask` (x when none is).
pub(super) fn first_component(mask: u8) -> u8 {
    components(mask).next().unwrap_or(0)
}

/// The components of `exe`'s input declarations that `register` maps to a register number, as a mask of that
/// register: `v#` for a vertex's inputs, `vicp`/`vpc` for a hull or domain program's.
pub(super) fn declared_mask(exe: &Executable, register: fn(InputRegister) -> Option<u32>) -> impl Fn(u32) -> u8 + '_ {
    move |wanted| {
        exe.inputs()
            .iter()
            .filter(|i| register(i.register) == Some(wanted))
            .fold(0u8, |m, i| m | i.mask)
    }
}

/// `NAME` + index, as HLSL writes a semantic.
fn semantic(element: &SignatureElement) -> String {
    format!("{}{}", element.semantic_name, element.semantic_index)
}

/// The interpolation of a pixel input element declared with `declared`.
fn interpolation(element: &SignatureElement, declared: Option<InterpolationMode>) -> Interpolation {
    if matches!(element.component_type, ComponentType::UINT32 | ComponentType::SINT32) {
        return Interpolation::Flat;
    }
    match declared {
        Some(InterpolationMode::Constant) => Interpolation::Flat,
        Some(
            InterpolationMode::LinearNoPerspective
            | InterpolationMode::LinearNoPerspectiveCentroid
            | InterpolationMode::LinearNoPerspectiveSample,
        ) => Interpolation::ScreenLinear,
        _ => Interpolation::Perspective,
    }
}

/// Where an input declared with `declared` is evaluated.
fn location(declared: Option<InterpolationMode>) -> Location {
    match declared {
        Some(InterpolationMode::LinearCentroid | InterpolationMode::LinearNoPerspectiveCentroid) => Location::Centroid,
        Some(InterpolationMode::LinearSample | InterpolationMode::LinearNoPerspectiveSample) => Location::Sample,
        _ => Location::Centre,
    }
}

/// The components of `v{register}` the pixel program declares, and the mode it declares them with.
fn declared(exe: &Executable, register: u32) -> (u8, Option<InterpolationMode>) {
    let mut mask = 0;
    let mut mode = None;
    for input in exe.inputs() {
        if input.register == InputRegister::V(register) {
            mask |= input.mask;
            mode = mode.or(input.interpolation);
        }
    }
    (mask, mode)
}

impl Linkage {
    /// Links `vertex`'s outputs to `pixel`'s inputs (no pixel program: only the position and distances). `what`
    /// names the draw in errors (`"draws[3]"`).
    pub fn new(vertex: &Program, pixel: Option<&Program>, what: &str) -> Result<Linkage> {
        let error = |stage: &str, detail: String| Error::new(format!("{what} {stage}").trim().to_owned(), detail);
        let outputs = vertex
            .shader
            .output_signature
            .as_ref()
            .map(|s| s.elements.as_slice())
            .unwrap_or(&[]);
        let position = outputs
            .iter()
            .find(|e| e.d3d_name() == SystemValue::POSITION)
            .ok_or_else(|| {
                error(
                    "vs",
                    "the vertex program writes no SV_Position, which the rasterizer needs".to_owned(),
                )
            })?;
        let mut position_components = [None; 4];
        for (slot, c) in position_components.iter_mut().zip(components(position.mask)) {
            *slot = Some(c);
        }
        let mut linkage = Linkage {
            position: (position.register, position_components),
            ..Linkage::default()
        };
        for element in outputs {
            let list = match element.d3d_name() {
                SystemValue::CLIP_DISTANCE => &mut linkage.clip_distances,
                SystemValue::CULL_DISTANCE => &mut linkage.cull_distances,
                _ => continue,
            };
            list.extend(components(element.mask).map(|c| (element.register, c)));
        }
        let Some(pixel) = pixel else {
            return Ok(linkage);
        };
        let exe = &pixel.executable;
        linkage.coverage_input = exe.inputs().iter().any(|i| i.register == InputRegister::Coverage);
        linkage.primitive_id_input = exe.inputs().iter().any(|i| i.register == InputRegister::PrimitiveId);
        let inputs = pixel
            .shader
            .input_signature
            .as_ref()
            .map(|s| s.elements.as_slice())
            .unwrap_or(&[]);
        for element in inputs {
            let (declared_mask, mode) = declared(exe, element.register);
            let mask = element.mask & declared_mask;
            if mask == 0 {
                continue;
            }
            let name = semantic(element);
            let fixed =
                |source: PixelSource| -> Vec<(u8, PixelSource)> { components(mask).map(|c| (c, source)).collect() };
            let sources: Vec<(u8, PixelSource)> = match element.d3d_name() {
                SystemValue::POSITION => components(element.mask)
                    .enumerate()
                    .filter(|(_, c)| mask >> c & 1 == 1)
                    .map(|(k, c)| (c, PixelSource::Position(k)))
                    .collect(),
                SystemValue::IS_FRONT_FACE => fixed(PixelSource::FrontFace),
                SystemValue::PRIMITIVE_ID => fixed(PixelSource::PrimitiveId),
                SystemValue::SAMPLE_INDEX => {
                    linkage.sample_frequency = true;
                    fixed(PixelSource::SampleIndex)
                }
                system => {
                    let output = outputs.iter().find(|o| {
                        o.semantic_index == element.semantic_index
                            && o.semantic_name.eq_ignore_ascii_case(&element.semantic_name)
                    });
                    let Some(output) = output else {
                        if matches!(
                            system,
                            SystemValue::RENDER_TARGET_ARRAY_INDEX | SystemValue::VIEWPORT_ARRAY_INDEX
                        ) {
                            linkage
                                .inputs
                                .extend(fixed(PixelSource::Zero).into_iter().map(|(c, source)| PixelInput {
                                    register: element.register,
                                    component: c,
                                    semantic: name.clone(),
                                    source,
                                    location: Location::Centre,
                                }));
                            continue;
                        }
                        return Err(error(
                            "ps",
                            format!(
                                "the pixel program reads {name} (v{}), which no vertex program output carries",
                                element.register
                            ),
                        )
                        .at(format!("v{}", element.register)));
                    };
                    let mode = interpolation(element, mode);
                    let mut linked = Vec::new();
                    let mut from = components(output.mask);
                    for c in components(element.mask) {
                        let Some(source_component) = from.next() else {
                            return Err(error(
                                "ps",
                                format!(
                                    "the pixel program reads {} components of {name} and the vertex program writes {}",
                                    components(element.mask).count(),
                                    components(output.mask).count()
                                ),
                            )
                            .at(format!("v{}", element.register)));
                        };
                        if mask >> c & 1 == 0 {
                            continue;
                        }
                        let key = (output.register, source_component);
                        let varying = match linkage.varyings.iter().position(|v| *v == key) {
                            Some(index) => index,
                            None => {
                                linkage.varyings.push(key);
                                linkage.varyings.len().saturating_sub(1)
                            }
                        };
                        linked.push((c, PixelSource::Varying { varying, mode }));
                    }
                    linked
                }
            };
            let location = location(mode);
            if location == Location::Sample {
                linkage.sample_frequency = true;
            }
            linkage
                .inputs
                .extend(sources.into_iter().map(|(component, source)| PixelInput {
                    register: element.register,
                    component,
                    semantic: name.clone(),
                    source,
                    location,
                }));
        }
        Ok(linkage)
    }
}

/// A register and one of its components (0 = x .. 3 = w).
pub(super) type RegisterComponent = (u32, u8);

/// An input component (register, component) and the output component that feeds it, if one does.
pub(super) type Feed = (u32, u8, Option<RegisterComponent>);

/// Each component of `inputs` a program reads (bit `c` of `declared(register)`), with the component of `outputs` (the
/// stage before's output signature) that feeds it: the element of the same semantic name (compared without case)
/// and index, the same component (4.4.3); `None` when no output carries it (it reads 0).
pub(super) fn match_semantics(
    outputs: &[SignatureElement],
    inputs: &[SignatureElement],
    declared: impl Fn(u32) -> u8,
) -> Vec<Feed> {
    let mut matched = Vec::new();
    for element in inputs {
        let mask = element.mask & declared(element.register);
        let source = outputs.iter().find(|o| {
            o.semantic_index == element.semantic_index && o.semantic_name.eq_ignore_ascii_case(&element.semantic_name)
        });
        for c in components(mask) {
            let feeds = source.filter(|o| o.mask >> c & 1 == 1).map(|o| (o.register, c));
            matched.push((element.register, c, feeds));
        }
    }
    matched
}

/// What the vertex program's vertices keep for a stage that reads them as control points or primitive vertices
/// (a hull or geometry program with input signature `inputs`, reading the components `declared` gives): the
/// linkage (the vertex program's position and distances, then the components read) and, per input component, its
/// place among the kept words.
pub(super) fn vertex_linkage_for(
    vertex: &Program,
    inputs: &[SignatureElement],
    declared: impl Fn(u32) -> u8,
    what: &str,
) -> (Linkage, Vec<(u32, u8, Option<usize>)>) {
    let outputs = vertex
        .shader
        .output_signature
        .as_ref()
        .map(|s| s.elements.as_slice())
        .unwrap_or(&[]);
    let mut linkage = Linkage::new(vertex, None, what).unwrap_or_default();
    let mut places = Vec::new();
    for (register, component, source) in match_semantics(outputs, inputs, declared) {
        let place = source.map(|source| {
            linkage.varyings.push(source);
            linkage.varyings.len().saturating_sub(1)
        });
        places.push((register, component, place));
    }
    (linkage, places)
}
