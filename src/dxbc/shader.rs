//! A whole shader: one DXBC blob parsed into its parts — the signatures, the reflection chunks and the decoded
//! program. This is what the interpreter, the disassembler and the command line start from.
//!
//! A blob must have a program chunk (`SHEX` or `SHDR`; the first one when it has both, as the runtime takes it).
//! Every other part is optional: stripped shaders have no `RDEF`, `STAT` or `SFI0`, and compute shaders may carry
//! no signatures at all. Errors name the chunk and the byte (from the blob's start) or token where it went wrong.

use super::container::{Container, FourCc, Verify, write_container};
use super::program::{self, Program};
use super::reflection::{FeatureFlags, Reflection, Statistics};
use super::signature::{NameTable, Signature, SignatureKind};
use crate::{Error, Result};

/// A parsed shader blob.
#[derive(Clone, Debug, PartialEq)]
pub struct Shader {
    /// The chunk the program came from: [`FourCc::SHEX`] or [`FourCc::SHDR`].
    pub program_chunk: FourCc,
    /// The decoded program.
    pub program: Program,
    /// The input signature (`ISGN`/`ISG1`), if the blob has one.
    pub input_signature: Option<Signature>,
    /// The output signature (`OSGN`/`OSG5`/`OSG1`), if the blob has one.
    pub output_signature: Option<Signature>,
    /// The patch-constant signature (`PCSG`/`PSG1`) of a hull or domain shader, if the blob has one.
    pub patch_constant_signature: Option<Signature>,
    /// The resource definitions (`RDEF`), absent from stripped shaders.
    pub reflection: Option<Reflection>,
    /// The compiler's statistics (`STAT`), if present.
    pub statistics: Option<Statistics>,
    /// The feature flags (`SFI0`), if present.
    pub feature_flags: Option<FeatureFlags>,
}

impl Shader {
    /// Parses a blob: the container (checksum checked unless `verify` is [`Verify::Skip`]), every chunk this crate
    /// reads, and the program.
    pub fn parse(bytes: &[u8], verify: Verify) -> Result<Self> {
        let container = Container::parse(bytes, verify)?;
        let chunk = container
            .chunks
            .iter()
            .find(|c| c.fourcc == FourCc::SHEX || c.fourcc == FourCc::SHDR)
            .ok_or_else(|| {
                let codes: Vec<String> = container.chunks.iter().map(|c| c.fourcc.to_string()).collect();
                Error::new(
                    "DXBC",
                    format!(
                        "there is no program chunk (SHEX or SHDR) among the chunks [{}]",
                        codes.join(", ")
                    ),
                )
            })?;
        let program = program::decode_bytes(chunk.data).map_err(|e| {
            e.within(format!(
                "DXBC {} chunk (data at byte {:#x})",
                chunk.fourcc,
                chunk.data_offset()
            ))
        })?;
        Ok(Self {
            program_chunk: chunk.fourcc,
            program,
            input_signature: container.input_signature()?,
            output_signature: container.output_signature()?,
            patch_constant_signature: container.patch_constant_signature()?,
            reflection: container.reflection()?,
            statistics: container.statistics()?,
            feature_flags: container.feature_flags()?,
        })
    }

    /// Writes a blob holding the signatures (input, patch constant, output, in that order, each present one as its
    /// own kind of chunk with one name string per element) and the encoded program, with its checksum. Reflection,
    /// statistics and feature flags are not written.
    pub fn write(&self) -> Result<Vec<u8>> {
        let mut owned: Vec<(FourCc, Vec<u8>)> = Vec::new();
        for signature in [
            &self.input_signature,
            &self.patch_constant_signature,
            &self.output_signature,
        ]
        .into_iter()
        .flatten()
        {
            owned.push((signature.kind.fourcc(), signature.write(NameTable::PerElement)?));
        }
        let tokens = program::encode(&self.program)?;
        let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
        owned.push((self.program_chunk, bytes));
        let chunks: Vec<(FourCc, &[u8])> = owned.iter().map(|(f, d)| (*f, d.as_slice())).collect();
        write_container(&chunks)
    }
}

/// The chunks a [`Shader`] is made of, read from a container: the container knows only chunks, so the accessors that
/// read signatures and reflection sit here, beside the type that gathers them.
impl Container<'_> {
    /// The first chunk of `codes` read as a signature of its kind.
    fn signature(&self, codes: &[FourCc]) -> Result<Option<Signature>> {
        let Some(chunk) = self.first_of(codes) else {
            return Ok(None);
        };
        let Some(kind) = SignatureKind::from_fourcc(chunk.fourcc) else {
            return Ok(None);
        };
        Signature::parse_in_container(kind, chunk.data, chunk.data_offset()).map(Some)
    }

    /// The input signature (`ISGN` or `ISG1`, whichever comes first), if the container has one. Error offsets count
    /// from the container's start.
    pub fn input_signature(&self) -> Result<Option<Signature>> {
        self.signature(&[FourCc::ISGN, FourCc::ISG1])
    }

    /// The output signature (`OSGN`, `OSG5` or `OSG1`, whichever comes first), if the container has one.
    pub fn output_signature(&self) -> Result<Option<Signature>> {
        self.signature(&[FourCc::OSGN, FourCc::OSG5, FourCc::OSG1])
    }

    /// The patch-constant signature (`PCSG` or `PSG1`, whichever comes first) of a hull or domain shader, if the
    /// container has one.
    pub fn patch_constant_signature(&self) -> Result<Option<Signature>> {
        self.signature(&[FourCc::PCSG, FourCc::PSG1])
    }

    /// The resource definitions (`RDEF`), if present; stripped shaders have none.
    pub fn reflection(&self) -> Result<Option<Reflection>> {
        self.chunk(FourCc::RDEF)
            .map(|c| Reflection::parse_in_container(c.data, c.data_offset()))
            .transpose()
    }

    /// The statistics (`STAT`), if present.
    pub fn statistics(&self) -> Result<Option<Statistics>> {
        self.chunk(FourCc::STAT)
            .map(|c| Statistics::parse_in_container(c.data, c.data_offset()))
            .transpose()
    }

    /// The feature flags (`SFI0`), if present.
    pub fn feature_flags(&self) -> Result<Option<FeatureFlags>> {
        self.chunk(FourCc::SFI0)
            .map(|c| FeatureFlags::parse_in_container(c.data, c.data_offset()))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blob_without_a_program_chunk_is_an_error_naming_its_chunks() {
        let blob = write_container(&[(FourCc::ISGN, &[0, 0, 0, 0, 8, 0, 0, 0][..])]).unwrap();
        let error = Shader::parse(&blob, Verify::Checksum).unwrap_err();
        assert!(error.detail.contains("no program chunk"), "{error}");
        assert!(error.detail.contains("ISGN"), "{error}");
    }

    #[test]
    fn a_bad_program_names_its_chunk_and_token() {
        // A version token for ps_5_0 and a length token claiming 9 DWORDs where there are 2.
        let tokens: Vec<u8> = [0x0000_0050u32, 9].iter().flat_map(|t| t.to_le_bytes()).collect();
        let blob = write_container(&[(FourCc::SHEX, &tokens[..])]).unwrap();
        let error = Shader::parse(&blob, Verify::Checksum).unwrap_err();
        // One chunk: header 32 bytes + 4 for the offset, then the chunk's 8-byte header.
        assert!(error.what.contains("SHEX chunk (data at byte 0x2c)"), "{error}");
        assert_eq!(error.at, "token 1");
    }
}
