//! Trace mode: what is recorded for a chosen lane.

use super::{exe, f};
use crate::dxbc::program::Opcode;
use crate::shader::{Bindings, Machine, Trace, TracedWrite};

const PROGRAM: &str = "
    ps_5_0
    dcl_input_ps linear v0.xy
    dcl_output o0.xyzw
    dcl_temps 1
    add r0.xy, v0.xyxx, l(1.0, 2.0, 0.0, 0.0)
    lt r0.z, r0.x, l(2.0)
    if_nz r0.z
        mov o0.x, -r0.y
    endif
    mov o0.yzw, r0.xxyx
    ret
";

/// Runs `PROGRAM` on one quad at pixel (0, 0) with `trace`.
fn run(trace: &mut Trace) -> Machine {
    let exe = exe(PROGRAM);
    let mut m = Machine::new();
    m.start_quads(&exe, &[0b1111]).unwrap();
    for (lane, (x, y)) in [(0.5f32, 0.5f32), (1.5, 0.5), (0.5, 1.5), (1.5, 1.5)]
        .into_iter()
        .enumerate()
    {
        m.set_input(lane, 0, [f(x), f(y), 0, 0]).unwrap();
    }
    m.run(&exe, &Bindings::default(), Some(trace)).unwrap();
    m
}

#[test]
fn a_trace_records_each_instruction_a_lane_runs_with_its_values() {
    let mut trace = Trace::lane(1);
    let m = run(&mut trace);
    // Lane 1 (x = 1.5): r0.x = 2.5, not < 2, so it skips the mov inside the if; the if and endif are recorded
    // because they change whether it runs.
    let opcodes: Vec<Opcode> = trace.steps.iter().map(|s| s.opcode).collect();
    assert_eq!(
        opcodes,
        [
            Opcode::Add,
            Opcode::Lt,
            Opcode::If,
            Opcode::Endif,
            Opcode::Mov,
            Opcode::Ret
        ]
    );
    let add = &trace.steps[0];
    // Program instruction 3 (after three declarations) at token 10: version and length 2, dcl_input_ps 3,
    // dcl_output 3, dcl_temps 2.
    assert_eq!((add.instruction, add.offset), (3, 10));
    assert_eq!(add.active, 0b1111);
    let lane = &add.lanes[0];
    assert_eq!(lane.lane, 1);
    assert!(lane.active);
    // Sources after swizzle (v0.xyxx: only the components the instruction uses are recorded; the rest are 0).
    assert_eq!(lane.sources, vec![[f(1.5), f(0.5), 0, 0], [f(1.0), f(2.0), 0, 0]]);
    assert_eq!(
        lane.destinations,
        vec![TracedWrite {
            mask: 0b0011,
            value: [f(2.5), f(2.5), 0, 0]
        }]
    );
    // lt wrote false for lane 1.
    assert_eq!(trace.steps[1].lanes[0].destinations[0].value[2], 0);
    // if: lanes 0 and 2 (x = 0.5) go in, lanes 1 and 3 do not.
    let if_step = &trace.steps[2];
    assert_eq!((if_step.active, if_step.active_after), (0b1111, 0b0101));
    assert_eq!(if_step.lanes[0].sources, vec![[0, 0, 0, 0]]);
    let endif = &trace.steps[3];
    assert_eq!((endif.active, endif.active_after), (0b0101, 0b1111));
    assert!(!endif.lanes[0].active);
    // The final mov: o0.yzw = r0.xxyx's y, z, w = 2.5, 2.5, 2.5 for lane 1, whose o0.x was never written.
    let mov = &trace.steps[4];
    assert_eq!(
        mov.lanes[0].destinations[0],
        TracedWrite {
            mask: 0b1110,
            value: [0, f(2.5), f(2.5), f(2.5)]
        }
    );
    assert_eq!(m.output(1, 0), [0, f(2.5), f(2.5), f(2.5)]);
    // Lane 0 ran the negating mov: o0.x = -2.5.
    assert_eq!(m.output(0, 0)[0], f(-2.5));
}

#[test]
fn a_trace_keeps_at_most_its_limit_and_counts_the_rest() {
    let mut trace = Trace::lane(0);
    trace.limit = 2;
    run(&mut trace);
    // Lane 0 runs all 7 instructions (add, lt, if, mov, endif, mov, ret): the first and the last are kept
    assert_eq!(trace.steps.len(), 2);
    assert_eq!(trace.dropped, 5);
    assert_eq!(trace.gap, Some(1));
    assert_eq!(trace.steps[0].opcode, Opcode::Add);
    assert_eq!(trace.steps[1].opcode, Opcode::Ret);
}

#[test]
fn a_long_loop_keeps_its_first_and_last_iterations_with_the_count_between() {
    // 1,000 iterations of four instructions, traced whole and with a limit of 14: the limited trace is the whole
    // one's first 7 steps and last 7, the gap between them counted
    let program = "
        ps_5_0
        dcl_output o0.xyzw
        dcl_temps 1
        mov r0.x, l(0)
        loop
            uge r0.y, r0.x, l(1000)
            breakc_nz r0.y
            iadd r0.x, r0.x, l(1)
        endloop
        mov o0.x, r0.x
        ret
    ";
    let exe = exe(program);
    let traced = |limit: usize| {
        let mut m = Machine::new();
        m.start_quads(&exe, &[0b1111]).unwrap();
        let mut trace = Trace::lane(0);
        trace.limit = limit;
        m.run(&exe, &Bindings::default(), Some(&mut trace)).unwrap();
        assert_eq!(m.output(0, 0)[0], 1000);
        trace
    };
    let whole = traced(usize::MAX);
    assert_eq!(whole.dropped, 0);
    assert_eq!(whole.gap, None);
    let total = whole.steps.len();
    assert!(total > 4000, "{total} steps");
    let limited = traced(14);
    assert_eq!(limited.steps.len(), 14);
    assert_eq!(limited.gap, Some(7));
    assert_eq!(limited.dropped, (total - 14) as u64);
    assert_eq!(limited.steps[..7], whole.steps[..7]);
    assert_eq!(limited.steps[7..], whole.steps[total - 7..]);
    // the last kept steps hold the loop's last iteration: the counter's final increment to 1,000
    let increments: Vec<&crate::shader::TraceStep> =
        limited.steps[7..].iter().filter(|s| s.opcode == Opcode::Iadd).collect();
    assert_eq!(increments.last().unwrap().lanes[0].destinations[0].value[0], 1000);
    // a trace within its limit has no gap
    let roomy = traced(total);
    assert_eq!((roomy.steps.len(), roomy.dropped, roomy.gap), (total, 0, None));
}

#[test]
fn a_trace_of_no_lane_records_nothing() {
    let mut trace = Trace::new(0);
    let untraced = run(&mut trace);
    assert!(trace.steps.is_empty());
    // Tracing changes no result.
    let mut traced = Trace::new(0b1111);
    let m = run(&mut traced);
    for lane in 0..4 {
        assert_eq!(m.output(lane, 0), untraced.output(lane, 0));
    }
    assert_eq!(traced.steps.len(), 7);
}
