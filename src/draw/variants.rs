//! Variants: implementation choices a draw can be replayed under instead of the spec's (or WARP's) rule, so that a
//! difference from what a GPU wrote can be explained by the choice that GPU made (`iridia explain`). Each variant is
//! a documented switch, off by default, applying only to the stage it changes; a [`Profile`] names the set a known
//! implementation makes.
//!
//! | variant | stage | the default (spec / WARP) | under the variant |
//! |---|---|---|---|
//! | `unsnapped-interpolation` | rasterizer | attributes and depth interpolated over the 16.8-snapped positions (3.2.4.1, 15.16.2) | over the float positions before snapping; coverage stays on the snapped ones |
//! | `blend-8bit` | output merger | blending in float32, rounded once at the format conversion (17.1, 17.5) | on 8-bit UNORM targets, inputs and factors as 8-bit codes, each product rounded to a code, the sum saturated |
//! | `lod-max-length` | texture sampling | isotropic LOD from the longer axis of the derivatives' ellipse (7.18.11's "ideal transformation") | from the longer derivative vector as it is |
//! | `filter-8bit` | texture sampling | filtering in float32 with 7.18.8's 8-bit weights | 8-bit UNORM textures lerped in 8-bit integer codes, per axis then per level (llvmpipe's AoS path) |
//! | `mad-fused` | shader ALU | `mad` rounded after the product and after the sum (3.1.3.2 allows either; WARP's is taken as unfused) | rounded once (a fused multiply-add) |
//! | `f32tof16-nearest` | shader ALU | `f32tof16` toward zero, overflow to 65504 (3.2.2) | to nearest even, overflow to infinity (IEEE 754) |
//! | `lod-log2-linear` | texture sampling | `log2` of the length; mip level and weight from the LOD in 8.8 fixed point (7.18.10) | `(E + M - 1) / 2` for the squared length `M 2^E` (a piecewise-linear `log2`, exact at powers of two); level and weight from the float LOD |
//!
//! # The `llvmpipe` profile, and how each of its variants was measured
//!
//! Mesa's llvmpipe (gallivm; Debian 12's Mesa 22.3, the rasterizer behind `../shared/tools/d3d11-ref`) makes five of
//! these choices. Each was read from Mesa's source and then checked against what that reference rendered: the sample
//! captures of `fixtures/captures/` (its bytes) and the texture renders of `fixtures/texture/`.
//! - `unsnapped-interpolation` (`lp_state_setup.c`: plane equations from the float vertices; only the edge functions
//!   use snapped ones): `d3d11-ref`'s README measured it on 300 triangles; `05-thin-triangles` (slivers off the
//!   1/256 grid) takes its colour's largest error from 4.6 million to 17,805 ULPs and its depth's from 58,838 to 142,
//!   and every capture's depth difference drops to a few ULPs (`tests/explain.rs`).
//! - `blend-8bit` (`lp_bld_blend*.c`: codes, products rounded, sums saturated): `02-alpha-blend`'s draw 1 and
//!   ImGui's draw 2 are reproduced bit for bit with it and the interpolation (2481 and 80,650 differing pixels to 0).
//! - `lod-max-length` and `lod-log2-linear` (`lp_bld_sample.c`: `rho^2` the larger squared length of the scaled
//!   derivatives, LOD half its `lp_build_fast_log2`, per quad): `fixtures/texture/README.md` fitted llvmpipe's LOD
//!   to 1.5576 for a 3-texel footprint, 1.6390 for 3.2 texels and 1.519 for the skewed gradients; the model gives
//!   `(3 + 1.125 - 1) / 2 = 1.5625`, `(3 + 1.28 - 1) / 2 = 1.64` and `(3 + 1.0397 - 1) / 2 = 1.5198`.
//! - `filter-8bit` (`lp_bld_sample_aos.c`: 8-bit lerps with `pmulhrsw`'s rounding, mip weight `trunc(256 f)`): with
//!   the LOD variants it takes `01-lit-mesh`'s colour from 2601 pixels over the tolerance to 0 (24 without it).
//!
//! Not in the profile: `mad-fused` and `f32tof16-nearest` change no pixel of the sample captures. Variants the spec
//! leaves open elsewhere (anisotropic footprints, denormals kept, guard-band clipping) are not modelled yet, nor
//! llvmpipe's float32 plane evaluation (`a0 + dadx x + dady y`), which is what leaves depth a few ULPs apart.

use crate::Error;

/// One implementation choice (see the module's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Attributes and depth interpolated over the unsnapped screen positions (llvmpipe's choice, measured in
    /// `../shared/tools/d3d11-ref`'s README: D3D11 and WARP use the snapped ones).
    UnsnappedInterpolation,
    /// 8-bit UNORM targets blended in 8-bit fixed point, each product rounded to a whole code (17.5 allows a blend
    /// at the format's precision; llvmpipe does this, `fixtures/captures/README.md`).
    FixedPointBlend8,
    /// An isotropic LOD from the longer derivative vector as it is, not from 7.18.11's transformed ellipse.
    LodMaxLength,
    /// An isotropic LOD from a piecewise-linear `log2`, mip levels and weight from the float LOD.
    LodLog2Linear,
    /// 8-bit UNORM textures filtered in 8-bit integers.
    Filter8,
    /// `mad` as a fused multiply-add.
    MadFused,
    /// `f32tof16` rounding to nearest even.
    F16Nearest,
}

impl Variant {
    /// Every variant, in the order reports list them.
    pub const ALL: [Variant; 7] = [
        Variant::UnsnappedInterpolation,
        Variant::FixedPointBlend8,
        Variant::LodMaxLength,
        Variant::LodLog2Linear,
        Variant::Filter8,
        Variant::MadFused,
        Variant::F16Nearest,
    ];

    /// The variant's name on the command line, in reports and in links.
    pub fn name(self) -> &'static str {
        match self {
            Variant::UnsnappedInterpolation => "unsnapped-interpolation",
            Variant::FixedPointBlend8 => "blend-8bit",
            Variant::LodMaxLength => "lod-max-length",
            Variant::LodLog2Linear => "lod-log2-linear",
            Variant::Filter8 => "filter-8bit",
            Variant::MadFused => "mad-fused",
            Variant::F16Nearest => "f32tof16-nearest",
        }
    }

    /// What the variant does, in a sentence.
    pub fn description(self) -> &'static str {
        match self {
            Variant::UnsnappedInterpolation => {
                "attributes and depth interpolated over the unsnapped vertex positions instead of the 16.8-snapped ones"
            }
            Variant::FixedPointBlend8 => {
                "8-bit UNORM targets blended in 8-bit fixed point (each product rounded to a code) instead of float32"
            }
            Variant::LodMaxLength => {
                "isotropic LOD from the longer derivative vector as it is instead of the axes of 7.18.11's ellipse"
            }
            Variant::LodLog2Linear => {
                "isotropic LOD from a piecewise-linear log2 (exact at powers of two), mip weight from the float LOD"
            }
            Variant::Filter8 => {
                "8-bit UNORM textures filtered in 8-bit integer lerps (levels by a truncated 8-bit weight) instead of float32"
            }
            Variant::MadFused => "mad rounded once (fused multiply-add) instead of after the product and the sum",
            Variant::F16Nearest => "f32tof16 rounding to nearest even (IEEE) instead of toward zero (3.2.2)",
        }
    }

    /// A short phrase for the variant, as a verdict names it ("reproduced by: ...").
    pub fn summary(self) -> &'static str {
        match self {
            Variant::UnsnappedInterpolation => "interpolation over unsnapped positions",
            Variant::FixedPointBlend8 => "8-bit fixed-point blending",
            Variant::LodMaxLength => "LOD from the untransformed derivatives",
            Variant::LodLog2Linear => "a piecewise-linear log2 for the LOD",
            Variant::Filter8 => "8-bit texture filtering",
            Variant::MadFused => "fused multiply-adds",
            Variant::F16Nearest => "half conversions to nearest",
        }
    }

    /// The pipeline stage the variant changes.
    pub fn stage(self) -> &'static str {
        match self {
            Variant::UnsnappedInterpolation => "rasterizer",
            Variant::FixedPointBlend8 => "output merger",
            Variant::LodMaxLength | Variant::LodLog2Linear | Variant::Filter8 => "texture sampling",
            Variant::MadFused | Variant::F16Nearest => "shader ALU",
        }
    }

    /// The variant named `name`.
    pub fn named(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The variant's bit in a [`Variants`] set.
    const fn bit(self) -> u32 {
        match self {
            Variant::UnsnappedInterpolation => 1,
            Variant::FixedPointBlend8 => 2,
            Variant::LodMaxLength => 4,
            Variant::LodLog2Linear => 8,
            Variant::MadFused => 16,
            Variant::F16Nearest => 32,
            Variant::Filter8 => 64,
        }
    }
}

/// A set of variants; empty (the spec's rules) by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Variants(u32);

impl Variants {
    /// No variant: every rule the spec's.
    pub const NONE: Variants = Variants(0);

    /// The set with `variant` added.
    pub fn with(self, variant: Variant) -> Variants {
        Variants(self.0 | variant.bit())
    }

    /// Whether `variant` is in the set.
    pub fn contains(self, variant: Variant) -> bool {
        self.0 & variant.bit() != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set's variants, in [`Variant::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Variant> {
        Variant::ALL.into_iter().filter(move |v| self.contains(*v))
    }

    /// The set of these variants.
    pub fn of(variants: impl IntoIterator<Item = Variant>) -> Variants {
        variants.into_iter().fold(Variants::NONE, Variants::with)
    }

    /// What the set asks of texture sampling.
    pub fn filtering(self) -> crate::shader::texture::FilterVariants {
        crate::shader::texture::FilterVariants {
            lod_max_length: self.contains(Variant::LodMaxLength),
            lod_log2_linear: self.contains(Variant::LodLog2Linear),
            filter_8bit: self.contains(Variant::Filter8),
        }
    }

    /// What the set asks of the programs' arithmetic.
    pub fn arithmetic(self) -> crate::shader::AluVariants {
        crate::shader::AluVariants {
            fused_mad: self.contains(Variant::MadFused),
            f16_nearest: self.contains(Variant::F16Nearest),
        }
    }

    /// The set as a verdict names it: its variants' [`Variant::summary`] phrases joined by "and".
    pub fn summary(self) -> String {
        self.iter().map(Variant::summary).collect::<Vec<_>>().join(" and ")
    }

    /// The names, comma-separated (empty for none): the form [`Variants::parse`] reads.
    pub fn names(self) -> String {
        self.iter().map(Variant::name).collect::<Vec<_>>().join(",")
    }

    /// A comma-separated list of variant names and profile names (a profile adds its variants); empty for none.
    pub fn parse(list: &str) -> crate::Result<Variants> {
        let mut set = Variants::NONE;
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if let Some(variant) = Variant::named(name) {
                set = set.with(variant);
            } else if let Some(profile) = Profile::named(name) {
                set = Variants(set.0 | profile.variants.0);
            } else {
                let known: Vec<&str> = Variant::ALL
                    .iter()
                    .map(|v| v.name())
                    .chain(PROFILES.iter().map(|p| p.name))
                    .collect();
                return Err(Error::new(
                    "variants",
                    format!("no variant or profile is named {name:?} (known: {})", known.join(", ")),
                ));
            }
        }
        Ok(set)
    }
}

/// The variants a known implementation makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The profile's name (`--profile NAME`).
    pub name: &'static str,
    /// Which implementation, and how the set was found.
    pub description: &'static str,
    /// Its variants.
    pub variants: Variants,
}

impl Profile {
    /// The profile named `name`.
    pub fn named(name: &str) -> Option<Profile> {
        PROFILES.iter().copied().find(|p| p.name == name)
    }
}

/// The known profiles.
pub const PROFILES: [Profile; 1] = [Profile {
    name: "llvmpipe",
    description: "Mesa's llvmpipe (through Wine's d3d11, as ../shared/tools/d3d11-ref runs it): interpolation over \
                  unsnapped positions, 8-bit fixed-point blending, its isotropic LOD (the longer derivative, a \
                  piecewise-linear log2) and 8-bit texture filtering, each measured on the sample captures",
    variants: Variants(
        Variant::UnsnappedInterpolation.bit()
            | Variant::FixedPointBlend8.bit()
            | Variant::LodMaxLength.bit()
            | Variant::LodLog2Linear.bit()
            | Variant::Filter8.bit(),
    ),
}];

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_to_their_variants_and_profiles_add_theirs() {
        for variant in Variant::ALL {
            assert_eq!(Variant::named(variant.name()), Some(variant));
            assert_eq!(Variants::parse(variant.name()).unwrap(), Variants::NONE.with(variant));
        }
        let both = Variants::parse(" blend-8bit , unsnapped-interpolation").unwrap();
        assert_eq!(both.names(), "unsnapped-interpolation,blend-8bit");
        assert_eq!(
            Variants::parse("llvmpipe").unwrap().names(),
            "unsnapped-interpolation,blend-8bit,lod-max-length,lod-log2-linear,filter-8bit"
        );
        assert_eq!(Variants::parse("").unwrap(), Variants::NONE);
        let error = Variants::parse("unsnapped-interpolation,warp9").unwrap_err();
        assert!(error.to_string().contains("\"warp9\""), "{error}");
    }

    #[test]
    fn every_variant_has_its_own_bit() {
        let all = Variants::of(Variant::ALL);
        assert_eq!(all.iter().count(), Variant::ALL.len());
        for variant in Variant::ALL {
            assert_eq!(Variants::NONE.with(variant).iter().collect::<Vec<_>>(), [variant]);
        }
    }
}
