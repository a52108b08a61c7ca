// Hand-written (`iridia asm cs_fill.asm -o cs_fill.cs.dxbc`): the test program's compute program, in groups of 8
// threads; i = vThreadID.x. u0 (raw) word i = t0[i] * cb0[0].x + i, where t0 is a Buffer<uint> (R32_UINT);
// u1 (structured, stride 4, a counter view): its hidden counter += 1 per thread (imm_atomic_alloc), nothing stored
// (which element a thread gets depends on the order the threads run in).
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_resource_buffer (uint,uint,uint,uint) t0
dcl_uav_raw u0
dcl_uav_structured_opc u1, 4
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 8, 1, 1
ld_indexable(buffer)(uint,uint,uint,uint) r0.x, vThreadID.xxxx, t0.xyzw
imad r0.x, r0.x, cb0[0].x, vThreadID.x
ishl r0.y, vThreadID.x, l(2)
store_raw u0.x, r0.y, r0.x
imm_atomic_alloc r1.x, u1
ret
