// Hand-written (the reference compiler builds no pixel programs that use atomics or counters; `iridia asm ps_uav.asm
// -o ps_uav.ps.dxbc`): the test program's pixel program with unordered access views, drawn after color.hlsl's
// vertex program with one render target bound, so its views are in slots 1 to 3. Every result is independent of
// the order the pixels run in. For the pixel at (x, y):
// u1 (raw): word 0 += 1 (atomic_iadd: the pixels drawn);
// u2 (RWTexture2D<uint>, R32_UINT) at (x, y) = 1000 + 64 y + x;
// u3 (structured, stride 4, a counter view): its hidden counter += 1 (imm_atomic_alloc), nothing stored;
// o0 = the interpolated colour.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xy
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u1
dcl_uav_typed_texture2d (uint,uint,uint,uint) u2
dcl_uav_structured_opc u3, 4
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
ftou r0.xy, v0.xyxx
atomic_iadd u1, l(0), l(1)
imad r0.z, r0.y, l(64), r0.x
iadd r0.z, r0.z, l(1000)
store_uav_typed u2.xyzw, r0.xyyy, r0.zzzz
imm_atomic_alloc r1.x, u3
mov o0.xyzw, v1.xyzw
ret
