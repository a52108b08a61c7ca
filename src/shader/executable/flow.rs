//! Flow-control matching (22.7): each `if`, `loop` and `switch` paired with its `else`/`endif`, `endloop`,
//! `case`/`default`/`endswitch`, `call` targets resolved to their labels, and the subroutine layout of 22.7.15-16
//! checked.

use super::ir::{Flow, Op, place};
use crate::dxbc::program::Opcode;
use crate::{Error, Result};

/// Matches, in the ops of the program `name`, `if`/`else`/`endif`, `loop`/`endloop`,
/// `switch`/`case`/`default`/`endswitch`, resolves `call` targets, marks function-ending `ret`s, and checks the
/// subroutine layout of 22.7.15-16. Returns each switch's case values.
pub(super) fn match_flow(name: &str, ops: &mut [Op]) -> Result<Vec<Vec<u32>>> {
    #[derive(Clone, Copy)]
    enum Open {
        If { at: usize, else_at: Option<usize> },
        Loop { at: usize },
        Switch { at: usize, cases: usize, default: bool },
    }
    let op_err =
        |op: &Op, detail: String| Error::new(name.to_owned(), detail).at(place(op.instruction, op.offset, op.opcode));
    let mut stack: Vec<Open> = Vec::new();
    let mut switches: Vec<Vec<u32>> = Vec::new();
    let mut labels: Vec<(u32, usize)> = Vec::new();
    let count = ops.len();
    for at in 0..count {
        let Some(op) = ops.get(at) else { break };
        let opcode = op.opcode;
        let flow = op.flow;
        let to_u32 = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        match opcode {
            Opcode::If => stack.push(Open::If { at, else_at: None }),
            Opcode::Else => match stack.last_mut() {
                Some(Open::If {
                    else_at: else_at @ None,
                    ..
                }) => *else_at = Some(at),
                _ => return Err(op_err(op, "else without an open if".into())),
            },
            Opcode::Endif => match stack.pop() {
                Some(Open::If { at: if_at, else_at }) => {
                    let endif_op = to_u32(at);
                    if let Some(o) = ops.get_mut(if_at) {
                        o.flow = Flow::If {
                            else_op: to_u32(else_at.unwrap_or(at)),
                            endif_op,
                        };
                    }
                    if let Some(o) = else_at.and_then(|e| ops.get_mut(e)) {
                        o.flow = Flow::Else { endif_op };
                    }
                }
                _ => return Err(op_err(op, "endif without an open if".into())),
            },
            Opcode::Loop => stack.push(Open::Loop { at }),
            Opcode::Endloop => match stack.pop() {
                Some(Open::Loop { at: loop_at }) => {
                    if let Some(o) = ops.get_mut(loop_at) {
                        o.flow = Flow::Loop { endloop_op: to_u32(at) };
                    }
                    if let Some(o) = ops.get_mut(at) {
                        o.flow = Flow::EndLoop {
                            loop_op: to_u32(loop_at),
                        };
                    }
                }
                _ => return Err(op_err(op, "endloop without an open loop".into())),
            },
            Opcode::Switch => {
                stack.push(Open::Switch {
                    at,
                    cases: switches.len(),
                    default: false,
                });
                switches.push(Vec::new());
            }
            Opcode::Case | Opcode::Default => match stack.last_mut() {
                Some(Open::Switch { cases, default, .. }) => {
                    if opcode == Opcode::Default {
                        if *default {
                            return Err(op_err(op, "a second default in one switch (22.7.13)".into()));
                        }
                        *default = true;
                    } else if let Flow::Case(value) = flow {
                        let list = switches.get_mut(*cases).ok_or_else(|| op_err(op, "switch".into()))?;
                        if list.contains(&value) {
                            return Err(op_err(op, format!("case {value} appears twice in one switch")));
                        }
                        list.push(value);
                    }
                }
                _ => {
                    return Err(op_err(
                        op,
                        format!(
                            "{} outside a switch, or nested in flow control inside one (not supported)",
                            opcode.name()
                        ),
                    ));
                }
            },
            Opcode::Endswitch => match stack.pop() {
                Some(Open::Switch {
                    at: switch_at, cases, ..
                }) => {
                    if let Some(o) = ops.get_mut(switch_at) {
                        o.flow = Flow::Switch {
                            endswitch_op: to_u32(at),
                            cases: to_u32(cases),
                        };
                    }
                }
                _ => return Err(op_err(op, "endswitch without an open switch".into())),
            },
            Opcode::Break | Opcode::Breakc
                if !stack
                    .iter()
                    .any(|o| matches!(o, Open::Loop { .. } | Open::Switch { .. })) =>
            {
                return Err(op_err(
                    op,
                    format!("{} outside a loop or switch (22.7.8)", opcode.name()),
                ));
            }
            Opcode::Continue | Opcode::Continuec if !stack.iter().any(|o| matches!(o, Open::Loop { .. })) => {
                return Err(op_err(op, format!("{} outside a loop (22.7.6)", opcode.name())));
            }
            Opcode::Ret => {
                let function_end = stack.is_empty();
                if let Some(o) = ops.get_mut(at) {
                    o.flow = Flow::Ret { function_end };
                }
            }
            Opcode::Retc => {
                if let Some(o) = ops.get_mut(at) {
                    o.flow = Flow::Ret { function_end: false };
                }
            }
            Opcode::Label => {
                if let Some(open) = stack.last() {
                    let opened = match open {
                        Open::If { at, .. } | Open::Loop { at } | Open::Switch { at, .. } => *at,
                    };
                    let opened = ops
                        .get(opened)
                        .map(|o| place(o.instruction, o.offset, o.opcode))
                        .unwrap_or_default();
                    return Err(op_err(op, format!("a label while {opened} is still open")));
                }
                let preceded_by_ret = at
                    .checked_sub(1)
                    .and_then(|p| ops.get(p))
                    .is_some_and(|p| p.flow == Flow::Ret { function_end: true });
                if !preceded_by_ret {
                    return Err(op_err(
                        op,
                        "a label must follow a ret outside flow control (22.7.15)".into(),
                    ));
                }
                if let Flow::Label(number) = flow {
                    if labels.iter().any(|(n, _)| *n == number) {
                        return Err(op_err(op, format!("l{number} is defined twice")));
                    }
                    labels.push((number, at));
                }
            }
            _ => {}
        }
    }
    if let Some(open) = stack.last() {
        let (at, what) = match open {
            Open::If { at, .. } => (*at, "endif"),
            Open::Loop { at } => (*at, "endloop"),
            Open::Switch { at, .. } => (*at, "endswitch"),
        };
        let op = ops.get(at).ok_or_else(|| Error::new(name.to_owned(), "flow"))?;
        return Err(op_err(op, format!("{} has no matching {what}", op.opcode.name())));
    }
    if !labels.is_empty() {
        let last_is_ret = ops.last().is_some_and(|o| o.flow == Flow::Ret { function_end: true });
        if !last_is_ret {
            let last = ops.last().ok_or_else(|| Error::new(name.to_owned(), "flow"))?;
            return Err(op_err(
                last,
                "a program with subroutines must end with a ret (22.7.16)".into(),
            ));
        }
    }
    for op in ops.iter_mut() {
        match op.opcode {
            Opcode::Call | Opcode::Callc => {
                let Flow::Label(number) = op.flow else { continue };
                let target = labels
                    .iter()
                    .find(|(n, _)| *n == number)
                    .map(|(_, at)| at.saturating_add(1))
                    .ok_or_else(|| op_err(op, format!("l{number} is not defined")))?;
                op.flow = Flow::Call {
                    target: u32::try_from(target).unwrap_or(u32::MAX),
                };
            }
            Opcode::Label => op.flow = Flow::None,
            _ => {}
        }
    }
    Ok(switches)
}
