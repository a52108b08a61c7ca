//! How far a replayed channel may be from the recorded one and still match, per channel slot, plus the position
//! deviation a pixel may be found at; defaults per format, and the `--tolerance SPEC` syntax.
//!
//! # Matching one channel
//! - Exact: the raw bits are equal. NaN payloads, the sign of zero and SNORM's two -1.0 codes all count.
//! - Thresholds: the values match when either is within `abs` of the other, or within `rel` times the larger
//!   magnitude, or at most `ulp` ULPs away (see [`super`] for ULP per format); any one suffices. On top of that:
//!   a NaN matches any NaN, whatever its sign and payload (3.1.3.2: "the exact bit pattern of the NaN is not
//!   required to stay the same"), and nothing else; an infinity matches only the same infinity (it is not "1 ULP"
//!   from the largest finite value); +0 and -0 match (3.1.3.1: "Comparisons ignore the sign of 0"), being 0 apart.
//!
//! # Defaults ([`Tolerance::for_format`])
//! - UINT, SINT and stencil: exact.
//! - UNORM, SNORM, SRGB (colour, and D16/D24 depth): 1 ULP (one code). Writes to these formats may round any value
//!   within 0.6 ULP of a code to it (3.2.3.4, 3.2.3.6, 3.2.3.8), so a value near a half-code may land on either
//!   neighbour; UNORM depth is converted "round to nearest" (17.11) from a float32 interpolated z whose last bits
//!   are implementation-dependent, with the same effect.
//! - float16, float11, float10: 1 ULP. Conversion from float32 truncates (3.2.2), so float32 results a few float32
//!   ULPs apart may straddle one float16/11/10 boundary, never two.
//! - float32 (colour and D32 depth): 4 ULP. A heuristic: 3.1 allows 1 ULP for rcp/sqrt and any serial ordering of
//!   fused operations, so shader results may differ in their last bits; how far depends on the shader.
//! - No position deviation; every stored channel compared.
//!
//! # Spec syntax ([`ToleranceSpec::parse`])
//! Comma-separated items, applied left to right on top of each target's defaults:
//! - `abs=X`, `rel=X` (non-negative finite decimals, e.g. `1e-3`), `ulp=N` (non-negative integer): set that
//!   threshold on every channel, and make those channels threshold-compared rather than exact. Thresholds not
//!   named keep their default (write `ulp=0` to drop a default ULP allowance).
//! - `C.abs=X`, `C.rel=X`, `C.ulp=N`, `C.exact`: the same for one channel `C`, one of `r g b a d s` (`d` is the
//!   depth slot, the same as `r`; `s` the stencil slot, the same as `g`). Naming a channel a format lacks does
//!   nothing, so one spec serves every target.
//! - `exact`: every channel exact (thresholds cleared).
//! - `position=N` (0..=8): a pixel also matches if a pixel within N pixels (horizontally and vertically) matches
//!   (see [`super::compare`]).
//! - `channels=LETTERS`: compare only these channels (letters from `rgbads`, or `all`).
//!
//! Examples: `abs=1e-3,rel=1e-2,ulp=2,position=1,channels=rgb`; `exact,position=1`; `d.ulp=2,s.exact`.

use serde::{Deserialize, Serialize};

use super::channel::ChannelKind;
use crate::format::Format;
use crate::{Error, Result};

/// The largest position deviation accepted, in pixels: the search costs (2N+1)^2 lookups per differing pixel.
pub const MAX_POSITION_DEVIATION: u32 = 8;

/// How one channel slot is compared.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelTolerance {
    /// Whether the channel is compared at all (a format lacking the channel ignores it either way).
    pub compare: bool,
    /// Compare raw bits; the thresholds are then unused.
    pub exact: bool,
    /// Absolute threshold, in the channel's value units (0..1 for UNORM, linear value for SRGB, integers for
    /// UINT/SINT, the float value for floats).
    pub abs: f64,
    /// Relative threshold: a fraction of the larger of the two magnitudes.
    pub rel: f64,
    /// Threshold in ULPs of the channel's format.
    pub ulp: u64,
}

impl ChannelTolerance {
    /// Bitwise equality.
    pub const EXACT: ChannelTolerance = ChannelTolerance {
        compare: true,
        exact: true,
        abs: 0.0,
        rel: 0.0,
        ulp: 0,
    };

    /// Within `ulp` ULPs (and no other threshold).
    pub const fn ulps(ulp: u64) -> ChannelTolerance {
        ChannelTolerance {
            compare: true,
            exact: false,
            abs: 0.0,
            rel: 0.0,
            ulp,
        }
    }

    /// The default for a channel of `kind` (see the module doc).
    pub(crate) fn default_for(kind: ChannelKind) -> ChannelTolerance {
        match kind {
            ChannelKind::Uint(_) | ChannelKind::Sint(_) => ChannelTolerance::EXACT,
            ChannelKind::Unorm(_) | ChannelKind::Snorm(_) | ChannelKind::Srgb => ChannelTolerance::ulps(1),
            ChannelKind::Float(32) => ChannelTolerance::ulps(4),
            ChannelKind::Float(_) => ChannelTolerance::ulps(1),
        }
    }
}

/// How a target is compared: per channel slot (0 = R or depth, 1 = G or stencil, 2 = B, 3 = A) and how far a
/// matching pixel may be displaced.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    /// Per slot.
    pub channels: [ChannelTolerance; 4],
    /// Position deviation in pixels (0..=[`MAX_POSITION_DEVIATION`]), horizontally and vertically.
    pub position: u32,
}

impl Tolerance {
    /// Bitwise equality of every channel, no position deviation (`--exact`).
    pub const fn exact() -> Tolerance {
        Tolerance {
            channels: [ChannelTolerance::EXACT; 4],
            position: 0,
        }
    }

    /// The defaults for `format` (see the module doc); slots the format lacks are exact.
    pub fn for_format(format: Format) -> Tolerance {
        let mut tolerance = Tolerance::exact();
        for field in format.info().fields() {
            let (Some(slot), Some(kind)) = (field.channel.slot(), ChannelKind::of(field.kind, field.bits)) else {
                continue;
            };
            if let Some(channel) = tolerance.channels.get_mut(slot) {
                *channel = ChannelTolerance::default_for(kind);
            }
        }
        tolerance
    }

    /// `spec` (see the module doc) applied to the defaults of `format`.
    pub fn parse(spec: &str, format: Format) -> Result<Tolerance> {
        Ok(ToleranceSpec::parse(spec)?.resolve(format))
    }
}

/// One setting of a spec.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Setting {
    /// `exact` or `C.exact`.
    Exact,
    /// `abs=`.
    Abs(f64),
    /// `rel=`.
    Rel(f64),
    /// `ulp=`.
    Ulp(u64),
}

/// One item of a spec.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Item {
    /// A setting for the slots in the mask (bit i = slot i).
    Channels { slots: u8, setting: Setting },
    /// `position=`.
    Position(u32),
    /// `channels=`: the slots compared.
    Compare(u8),
}

/// A parsed `--tolerance` spec, resolved per target format with [`ToleranceSpec::resolve`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToleranceSpec {
    items: Vec<Item>,
}

/// Every slot.
const ALL_SLOTS: u8 = 0b1111;

/// The slot a channel letter names.
fn slot_of_letter(letter: char) -> Option<u8> {
    match letter {
        'r' | 'd' => Some(0),
        'g' | 's' => Some(1),
        'b' => Some(2),
        'a' => Some(3),
        _ => None,
    }
}

impl ToleranceSpec {
    /// The spec of `--exact`: every channel exact.
    pub fn exact() -> ToleranceSpec {
        ToleranceSpec {
            items: vec![Item::Channels {
                slots: ALL_SLOTS,
                setting: Setting::Exact,
            }],
        }
    }

    /// Parses a spec (see the module doc for the syntax).
    pub fn parse(spec: &str) -> Result<ToleranceSpec> {
        let error = |at: &str, detail: String| Err(Error::new("tolerance spec", detail).at(format!("item '{at}'")));
        if spec.trim().is_empty() {
            return Err(Error::new("tolerance spec", "is empty"));
        }
        let mut items = Vec::new();
        for raw_item in spec.split(',') {
            let item = raw_item.trim();
            if item.is_empty() {
                return Err(Error::new("tolerance spec", "has an empty item (two commas in a row?)"));
            }
            let (key, value) = match item.split_once('=') {
                Some((key, value)) => (key.trim(), Some(value.trim())),
                None => (item, None),
            };
            let key = key.to_ascii_lowercase();
            let (slots, name) = match key.split_once('.') {
                Some((channel, name)) => {
                    let mut letters = channel.chars();
                    let slot = match (letters.next().and_then(slot_of_letter), letters.next()) {
                        (Some(slot), None) => slot,
                        _ => return error(item, format!("'{channel}' is not a channel (r, g, b, a, d or s)")),
                    };
                    (1u8 << slot, name)
                }
                None => (ALL_SLOTS, key.as_str()),
            };
            let per_channel = slots != ALL_SLOTS;
            let parsed = match (name, value) {
                ("exact", None) => Item::Channels {
                    slots,
                    setting: Setting::Exact,
                },
                ("abs" | "rel", Some(text)) => {
                    let number = match text.parse::<f64>() {
                        Ok(number) if number.is_finite() && number >= 0.0 => number,
                        _ => return error(item, format!("'{text}' is not a non-negative finite number")),
                    };
                    let setting = if name == "abs" {
                        Setting::Abs(number)
                    } else {
                        Setting::Rel(number)
                    };
                    Item::Channels { slots, setting }
                }
                ("ulp", Some(text)) => match text.parse::<u64>() {
                    Ok(ulp) => Item::Channels {
                        slots,
                        setting: Setting::Ulp(ulp),
                    },
                    Err(_) => return error(item, format!("'{text}' is not a non-negative integer")),
                },
                ("position" | "channels", _) if per_channel => {
                    return error(item, format!("'{name}' applies to the whole pixel, not one channel"));
                }
                ("position", Some(text)) => match text.parse::<u32>() {
                    Ok(position) if position <= MAX_POSITION_DEVIATION => Item::Position(position),
                    _ => {
                        return error(
                            item,
                            format!("'{text}' is not a position deviation in 0..={MAX_POSITION_DEVIATION}"),
                        );
                    }
                },
                ("channels", Some(text)) => Item::Compare(
                    parse_channels(text)
                        .map_err(|detail| Error::new("tolerance spec", detail).at(format!("item '{item}'")))?,
                ),
                ("exact", Some(_)) => return error(item, "'exact' takes no value".to_owned()),
                ("abs" | "rel" | "ulp" | "position" | "channels", None) => {
                    return error(item, format!("'{name}' needs a value ({name}=...)"));
                }
                _ => {
                    return error(
                        item,
                        format!("unknown setting '{name}' (abs, rel, ulp, exact, position, channels)"),
                    );
                }
            };
            items.push(parsed);
        }
        Ok(ToleranceSpec { items })
    }

    /// The tolerance for a target of `format`: its defaults with the spec's items applied in order.
    pub fn resolve(&self, format: Format) -> Tolerance {
        let mut tolerance = Tolerance::for_format(format);
        for item in &self.items {
            match *item {
                Item::Position(position) => tolerance.position = position,
                Item::Compare(slots) => {
                    for (slot, channel) in tolerance.channels.iter_mut().enumerate() {
                        channel.compare = slots >> slot & 1 == 1;
                    }
                }
                Item::Channels { slots, setting } => {
                    for (slot, channel) in tolerance.channels.iter_mut().enumerate() {
                        if slots >> slot & 1 == 0 {
                            continue;
                        }
                        match setting {
                            Setting::Exact => {
                                *channel = ChannelTolerance {
                                    compare: channel.compare,
                                    ..ChannelTolerance::EXACT
                                }
                            }
                            Setting::Abs(abs) => {
                                channel.exact = false;
                                channel.abs = abs;
                            }
                            Setting::Rel(rel) => {
                                channel.exact = false;
                                channel.rel = rel;
                            }
                            Setting::Ulp(ulp) => {
                                channel.exact = false;
                                channel.ulp = ulp;
                            }
                        }
                    }
                }
            }
        }
        tolerance
    }
}

/// The slot mask of a `channels=` value.
fn parse_channels(text: &str) -> std::result::Result<u8, String> {
    if text.eq_ignore_ascii_case("all") {
        return Ok(ALL_SLOTS);
    }
    if text.is_empty() {
        return Err("'channels' needs at least one of r, g, b, a, d, s (or 'all')".to_owned());
    }
    let mut slots = 0u8;
    for letter in text.chars() {
        match slot_of_letter(letter.to_ascii_lowercase()) {
            Some(slot) => slots |= 1 << slot,
            None => return Err(format!("'{letter}' is not a channel (r, g, b, a, d or s)")),
        }
    }
    Ok(slots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_exact_for_integers_one_code_for_normalized_and_a_few_ulp_for_floats() {
        let rgba8 = Tolerance::for_format(Format::R8G8B8A8Unorm);
        assert_eq!(rgba8.channels, [ChannelTolerance::ulps(1); 4]);
        assert_eq!(rgba8.position, 0);
        assert_eq!(
            Tolerance::for_format(Format::R32Uint).channels[0],
            ChannelTolerance::EXACT
        );
        assert_eq!(
            Tolerance::for_format(Format::R32G32B32A32Float).channels[3],
            ChannelTolerance::ulps(4)
        );
        assert_eq!(
            Tolerance::for_format(Format::R16G16B16A16Float).channels[0],
            ChannelTolerance::ulps(1)
        );
        assert_eq!(
            Tolerance::for_format(Format::R11G11B10Float).channels[2],
            ChannelTolerance::ulps(1)
        );
        // D24_UNORM_S8_UINT: depth (slot 0) one code, stencil (slot 1) exact.
        let ds = Tolerance::for_format(Format::D24UnormS8Uint);
        assert_eq!(ds.channels[0], ChannelTolerance::ulps(1));
        assert_eq!(ds.channels[1], ChannelTolerance::EXACT);
        assert_eq!(
            Tolerance::for_format(Format::D32Float).channels[0],
            ChannelTolerance::ulps(4)
        );
    }

    #[test]
    fn a_full_spec_sets_every_channel_and_the_pixel_settings() {
        let t = Tolerance::parse(
            "abs=1e-3, rel=1e-2,ulp=2,position=1,channels=rgb",
            Format::R8G8B8A8Unorm,
        )
        .unwrap();
        for slot in 0..3 {
            let c = t.channels[slot];
            assert!(c.compare && !c.exact);
            assert_eq!((c.abs, c.rel, c.ulp), (1e-3, 1e-2, 2));
        }
        assert!(!t.channels[3].compare);
        assert_eq!(t.position, 1);
    }

    #[test]
    fn unnamed_thresholds_keep_their_defaults_and_integers_become_threshold_compared() {
        // R32_UINT's default is exact; `abs=2` makes it "within 2", ulp stays 0.
        let t = Tolerance::parse("abs=2", Format::R32Uint).unwrap();
        assert_eq!(
            t.channels[0],
            ChannelTolerance {
                compare: true,
                exact: false,
                abs: 2.0,
                rel: 0.0,
                ulp: 0
            }
        );
        // RGBA8's default 1 ULP stays under `abs=0.5`; `ulp=0` removes it.
        assert_eq!(
            Tolerance::parse("abs=0.5", Format::R8G8B8A8Unorm).unwrap().channels[0].ulp,
            1
        );
        assert_eq!(
            Tolerance::parse("abs=0.5,ulp=0", Format::R8G8B8A8Unorm)
                .unwrap()
                .channels[0]
                .ulp,
            0
        );
    }

    #[test]
    fn channel_prefixes_set_one_slot_and_exact_clears_thresholds() {
        let t = Tolerance::parse("d.ulp=3,s.exact", Format::D24UnormS8Uint).unwrap();
        assert_eq!(t.channels[0], ChannelTolerance::ulps(3));
        assert_eq!(t.channels[1], ChannelTolerance::EXACT);
        let t = Tolerance::parse("ulp=7,exact,position=2", Format::R16G16B16A16Float).unwrap();
        assert_eq!(t.channels, [ChannelTolerance::EXACT; 4]);
        assert_eq!(t.position, 2);
        assert_eq!(
            ToleranceSpec::exact().resolve(Format::R32G32B32A32Float),
            Tolerance::exact()
        );
        // `exact` keeps a channel excluded by an earlier `channels=`.
        let t = Tolerance::parse("channels=r,exact", Format::R8G8B8A8Unorm).unwrap();
        assert!(t.channels[0].compare && !t.channels[1].compare);
    }

    #[test]
    fn bad_specs_say_which_item_is_wrong() {
        let cases = [
            ("", "is empty"),
            ("abs=1,,ulp=2", "empty item"),
            ("abs=-1", "'-1' is not a non-negative finite number"),
            ("rel=nan", "'nan' is not a non-negative finite number"),
            ("abs=inf", "'inf' is not a non-negative finite number"),
            ("ulp=1.5", "'1.5' is not a non-negative integer"),
            ("ulp", "'ulp' needs a value"),
            ("position=9", "0..=8"),
            ("position=-1", "0..=8"),
            ("channels=rgbx", "'x' is not a channel"),
            ("channels=", "needs at least one"),
            ("q.ulp=1", "'q' is not a channel"),
            ("rg.ulp=1", "'rg' is not a channel"),
            ("r.position=1", "applies to the whole pixel"),
            ("exact=1", "takes no value"),
            ("fuzz=0.1", "unknown setting 'fuzz'"),
        ];
        for (spec, expected) in cases {
            let error = ToleranceSpec::parse(spec).unwrap_err();
            assert!(error.to_string().contains(expected), "{spec:?}: {error}");
        }
        let error = ToleranceSpec::parse("ulp=2, abs=x").unwrap_err();
        assert_eq!(error.at, "item 'abs=x'");
    }
}
