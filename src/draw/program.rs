//! The programs of a draw: each DXBC blob parsed, checked and pre-decoded once ([`Program`]), and kept across draws
//! by the SHA-256 of its bytes ([`ShaderCache`]), so a capture of a thousand draws with ten shaders builds ten
//! [`Executable`]s.

use crate::dxbc::program::{Declaration, GlobalFlags};
use crate::dxbc::signature::Signature;
use crate::dxbc::{Shader, Verify};
use crate::shader::Executable;
use crate::{Error, Result};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Arc;

/// A shader blob ready to run: its signatures, its executable and the global flags a draw reads.
#[derive(Debug)]
pub struct Program {
    /// The SHA-256 of the blob's bytes.
    pub hash: [u8; 32],
    /// The parsed blob (signatures, reflection, the decoded program).
    pub shader: Shader,
    /// The program checked and pre-decoded for the interpreter.
    pub executable: Executable,
    /// Whether the program declares `forceEarlyDepthStencil` (`dcl_globalFlags`, 16.12.1).
    pub force_early_depth_stencil: bool,
}

impl Program {
    /// Parses `bytes` (checksum checked) and builds its executable.
    pub fn new(bytes: &[u8]) -> Result<Program> {
        let shader = Shader::parse(bytes, Verify::Checksum)?;
        let executable = Executable::new(&shader.program)?;
        let force_early_depth_stencil = shader.program.instructions.iter().any(|i| {
            matches!(i.declaration, Some(Declaration::GlobalFlags(GlobalFlags(flags)))
                if flags & GlobalFlags::FORCE_EARLY_DEPTH_STENCIL != 0)
        });
        Ok(Program {
            hash: Sha256::digest(bytes).into(),
            shader,
            executable,
            force_early_depth_stencil,
        })
    }

    /// The input signature, or an empty one when the blob has none.
    pub fn inputs(&self) -> Signature {
        self.shader.input_signature.clone().unwrap_or_else(|| Signature {
            kind: crate::dxbc::signature::SignatureKind::Isgn,
            elements: Vec::new(),
        })
    }
}

/// Programs by the SHA-256 of their bytes, built once and shared by every draw that uses them.
#[derive(Debug, Default)]
pub struct ShaderCache {
    programs: HashMap<[u8; 32], Arc<Program>>,
}

impl ShaderCache {
    /// An empty cache.
    pub fn new() -> ShaderCache {
        ShaderCache::default()
    }

    /// The program of `bytes`, built on first use. `what` names the shader in an error (`"draws[3] ps"`).
    pub fn program(&mut self, bytes: &[u8], what: &str) -> Result<Arc<Program>> {
        let hash: [u8; 32] = Sha256::digest(bytes).into();
        if let Some(program) = self.programs.get(&hash) {
            return Ok(program.clone());
        }
        let program = Arc::new(Program::new(bytes).map_err(|e: Error| e.within(what))?);
        self.programs.insert(hash, program.clone());
        Ok(program)
    }

    /// How many distinct programs the cache holds.
    pub fn len(&self) -> usize {
        self.programs.len()
    }

    /// Whether the cache holds no program.
    pub fn is_empty(&self) -> bool {
        self.programs.is_empty()
    }
}
