//! Tests of the interpreter on hand-written programs. Expected values come from the spec's definitions and hand
//! calculation, explained next to each.

// Tests compute expected values and test inputs from small constants; the assembler parses text.
#![allow(clippy::arithmetic_side_effects)]

mod alu_dispatch;
mod asm;
mod checks;
mod flow;
mod geometry;
mod multisample;
mod quads;
mod registers;
mod tessellation;
mod textures;
mod tracing;

use super::{Bindings, Executable, Machine};
use crate::Error;

/// Builds an executable from a listing; panics with the error if it is refused.
pub fn exe(text: &str) -> Executable {
    Executable::new(&asm::assemble(text)).unwrap_or_else(|e| panic!("{e}"))
}

/// The error `Executable::new` gives for a listing (built without the token round trip, so that programs the
/// encoder would refuse can be checked too).
pub fn exe_error(text: &str) -> Error {
    match Executable::new(&asm::build(text)) {
        Ok(_) => panic!("the program was accepted"),
        Err(e) => e,
    }
}

/// Float bits.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Four floats as bits.
pub fn fv(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// Runs a vertex program on one lane per entry of `lanes`, each a list of `(v#, value)` inputs.
pub fn run_vertices(exe: &Executable, lanes: &[&[(u32, [u32; 4])]], bindings: &Bindings) -> Machine {
    let mut machine = Machine::new();
    machine.start_vertices(exe, lanes.len()).unwrap();
    for (lane, inputs) in lanes.iter().enumerate() {
        for (register, value) in inputs.iter() {
            machine.set_input(lane, *register, *value).unwrap();
        }
    }
    machine.run(exe, bindings, None).unwrap_or_else(|e| panic!("{e}"));
    machine
}

/// Runs a pixel program on quads: `covered[q]` is quad `q`'s coverage, `inputs[lane]` the lane's `(v#, value)`s.
pub fn run_quads(exe: &Executable, covered: &[u8], inputs: &[Vec<(u32, [u32; 4])>], bindings: &Bindings) -> Machine {
    let mut machine = Machine::new();
    machine.start_quads(exe, covered).unwrap();
    for (lane, inputs) in inputs.iter().enumerate() {
        for (register, value) in inputs {
            machine.set_input(lane, *register, *value).unwrap();
        }
    }
    machine.run(exe, bindings, None).unwrap_or_else(|e| panic!("{e}"));
    machine
}

#[test]
fn a_vertex_program_moves_its_input_to_its_output() {
    let exe = exe("
        vs_4_0
        dcl_input v0.xyzw
        dcl_output o0.xyzw
        mov o0.xyzw, v0.wzyx
        ret
    ");
    let machine = run_vertices(
        &exe,
        &[&[(0, [1, 2, 3, 4])], &[(0, [5, 6, 7, 8])]],
        &Bindings::default(),
    );
    assert_eq!(machine.output(0, 0), [4, 3, 2, 1]);
    assert_eq!(machine.output(1, 0), [8, 7, 6, 5]);
    assert_eq!(machine.written(0, 0), 0b1111);
}
