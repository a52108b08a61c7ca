//! What one program stage of a draw reads besides its inputs, made ready once per draw: constant buffers as 16-byte
//! registers, shader resource views resolved for sampling, samplers. Every slot the program declares must be bound
//! (a capture that lost a binding is incomplete, and zeros would hide it) unless the draw's options say to read what
//! the specification says an empty slot reads ([`Unbound::Zero`]).

use crate::api::draw::StageBindings;
use crate::api::limits::{CONSTANT_BUFFER_SLOTS, SAMPLER_SLOTS};
use crate::api::resource::SamplerDesc;
use crate::shader::texture::TextureView;
use crate::shader::{Bindings, Executable, ShaderResource, Unbound};
use crate::{Error, Result};

/// A stage's bound resources, in the forms the interpreter reads.
#[derive(Debug, Default)]
pub struct StageResources {
    /// `cb0`..`cb13`: the visible window of each bound buffer as 16-byte registers (a partial last register is
    /// padded with zeros, which reads as the out-of-bounds zero of 7.5 would).
    constant_buffers: Vec<Option<Vec<[u32; 4]>>>,
    /// `t#` views the program declares, resolved.
    views: Vec<Option<TextureView>>,
    /// `s0`..`s15`.
    samplers: Vec<Option<SamplerDesc>>,
    /// What an empty declared slot does.
    unbound: Unbound,
    /// The rasterizer's sample count and quality level (the targets'), which `sampleinfo` and `samplepos` of
    /// `rasterizer` read (22.4.x); 1 and 0 (the centre) until [`StageResources::set_rasterizer`].
    rasterizer: (u32, u32),
    /// The arithmetic variants the stage's program runs under.
    alu: crate::shader::AluVariants,
}

/// 16-byte registers of `bytes`, little-endian words, the last one padded with zeros.
fn registers(bytes: &[u8]) -> Vec<[u32; 4]> {
    bytes
        .chunks(16)
        .map(|chunk| {
            let mut register = [0u32; 4];
            for (word, quad) in register.iter_mut().zip(chunk.chunks(4)) {
                let mut le = [0u8; 4];
                for (b, &v) in le.iter_mut().zip(quad) {
                    *b = v;
                }
                *word = u32::from_le_bytes(le);
            }
            register
        })
        .collect()
}

impl StageResources {
    /// The resources `exe` declares, from `bound`. `what` names the stage in errors (`"draws[3] ps"`). A declared
    /// slot with nothing bound is an error unless `unbound` is [`Unbound::Zero`]; a view that does not fit its
    /// resource is always one.
    pub fn new(exe: &Executable, bound: &StageBindings, unbound: Unbound, what: &str) -> Result<StageResources> {
        let missing = |slot: String| {
            Error::new(
                what,
                format!("{slot} is not bound, and the {} program declares it", exe.name()),
            )
            .at(slot)
        };
        let mut resources = StageResources {
            constant_buffers: vec![None; CONSTANT_BUFFER_SLOTS],
            views: Vec::new(),
            samplers: vec![None; SAMPLER_SLOTS],
            unbound,
            rasterizer: (1, 0),
            alu: crate::shader::AluVariants::default(),
        };
        for declaration in exe.constant_buffers() {
            let slot = declaration.slot;
            match bound.constant_buffer(slot) {
                Some(buffer) => {
                    if let Some(place) = usize::try_from(slot)
                        .ok()
                        .and_then(|s| resources.constant_buffers.get_mut(s))
                    {
                        *place = Some(registers(buffer.visible()));
                    }
                }
                None if unbound == Unbound::Error => return Err(missing(format!("cb{slot}"))),
                None => {}
            }
        }
        for declaration in exe.samplers() {
            let slot = declaration.slot;
            match bound.sampler(slot) {
                Some(sampler) => {
                    if let Some(place) = usize::try_from(slot).ok().and_then(|s| resources.samplers.get_mut(s)) {
                        *place = Some(*sampler);
                    }
                }
                None if unbound == Unbound::Error => return Err(missing(format!("s{slot}"))),
                None => {}
            }
        }
        for declaration in exe.resources() {
            let slot = declaration.slot;
            let Ok(index) = usize::try_from(slot) else {
                continue;
            };
            match bound.shader_resource(slot) {
                Some(srv) => {
                    let view = TextureView::new(srv).map_err(|e| e.within(format!("{what} t{slot}")))?;
                    if resources.views.len() <= index {
                        resources.views.resize_with(index.saturating_add(1), || None);
                    }
                    if let Some(place) = resources.views.get_mut(index) {
                        *place = Some(view);
                    }
                }
                None if unbound == Unbound::Error => return Err(missing(format!("t{slot}"))),
                None => {}
            }
        }
        Ok(resources)
    }

    /// Sets when the stage's texture views decode a subresource whole.
    pub fn set_texture_decoding(&mut self, decoding: crate::shader::texture::TextureDecoding) {
        for view in self.views.iter_mut().flatten() {
            view.set_decoding(decoding);
        }
    }

    /// Sets what the stage's program does under `variants`: its texture views' LODs and filtering, its arithmetic.
    pub fn set_variants(&mut self, variants: super::Variants) {
        for view in self.views.iter_mut().flatten() {
            view.set_variants(variants.filtering());
        }
        self.alu = variants.arithmetic();
    }

    /// Sets the rasterizer's sample count and quality level the stage's `sampleinfo`/`samplepos` of `rasterizer`
    /// see.
    pub fn set_rasterizer(&mut self, samples: u32, quality: u32) {
        self.rasterizer = (samples, quality);
    }

    /// The bindings a run of the stage's program reads.
    pub fn bindings(&self) -> Bindings<'_> {
        let mut bindings = Bindings {
            unbound: self.unbound,
            rasterizer_sample_count: self.rasterizer.0,
            rasterizer_sample_quality: self.rasterizer.1,
            alu: self.alu,
            ..Bindings::default()
        };
        for (place, buffer) in bindings.constant_buffers.iter_mut().zip(&self.constant_buffers) {
            *place = buffer.as_deref();
        }
        for (place, sampler) in bindings.samplers.iter_mut().zip(&self.samplers) {
            *place = sampler.as_ref();
        }
        bindings.resources = self
            .views
            .iter()
            .map(|v| v.as_ref().map(|v| v as &dyn ShaderResource))
            .collect();
        bindings
    }
}

#[cfg(test)]
mod tests {
    use super::registers;

    #[test]
    fn constant_buffer_bytes_become_little_endian_registers_padded_with_zeros() {
        // 20 bytes: one whole register (words 1, 2, 3, 0x04030201 read little-endian from its last four bytes) and
        // a partial one holding the word 0x0a and zeros.
        let mut bytes = Vec::new();
        for w in [1u32, 2, 3, 0x0403_0201, 0x0a] {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        assert_eq!(registers(&bytes), vec![[1, 2, 3, 0x0403_0201], [0x0a, 0, 0, 0]]);
    }
}
