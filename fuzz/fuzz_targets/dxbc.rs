//! A shader blob from anywhere: the container, its chunks and its program decoded; what decodes is disassembled,
//! assembled from that listing, and the result decoded again, which must give the same program listing and
//! signatures (the listing says everything they hold). Anything may fail with an error; nothing may panic.
#![no_main]

use iridia::dxbc::{Container, Shader, Verify, asm, disasm};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = Container::parse(data, Verify::Checksum);
    let Ok(shader) = Shader::parse(data, Verify::Skip) else {
        return;
    };
    let listing = disasm::disassemble(&shader);
    let Ok(rebuilt) = asm::assemble(&listing) else {
        return;
    };
    let again = Shader::parse(&rebuilt, Verify::Checksum).expect("an assembled blob decodes");
    // the program and the signatures survive (the statistics chunk's comment does not: an assembled blob has none)
    assert_eq!(
        disasm::disassemble_program(&again.program),
        disasm::disassemble_program(&shader.program),
        "the program's listing survives assembly"
    );
    assert_eq!(again.input_signature, shader.input_signature);
    assert_eq!(again.output_signature, shader.output_signature);
    assert_eq!(again.patch_constant_signature, shader.patch_constant_signature);
});
