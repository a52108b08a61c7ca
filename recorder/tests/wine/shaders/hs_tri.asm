// Hand-written (the reference compiler builds no hull programs; `iridia asm hs_tri.asm -o hs_tri.hs.dxbc`): the
// test program's hull program. A tri-domain patch of color.hlsl's vertex program's 3 outputs, passed through as the
// control points; constant factors: every edge 3, inside 3, integer partitioning, clockwise output triangles.
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// CPPOS                    0   xyzw        0     NONE   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
// Patch Constant signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TessFactor            0      x        0  TRIEDGE   float      x
// SV_TessFactor            1      x        1  TRIEDGE   float      x
// SV_TessFactor            2      x        2  TRIEDGE   float      x
// SV_InsideTessFactor      0      x        3   TRIINT   float      x
//
hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
dcl_hs_max_tessfactor l(64.000000)
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input v[3][0].xyzw
dcl_input v[3][1].xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
mov r0.x, vOutputControlPointID
mov o0.xyzw, v[r0.x + 0][0].xyzw
mov o1.xyzw, v[r0.x + 0][1].xyzw
ret
hs_fork_phase
dcl_output_siv o0.x, finalTriUeq0EdgeTessFactor
dcl_output_siv o1.x, finalTriVeq0EdgeTessFactor
dcl_output_siv o2.x, finalTriWeq0EdgeTessFactor
dcl_output_siv o3.x, finalTriInsideTessFactor
mov o0.x, l(3.000000)
mov o1.x, l(3.000000)
mov o2.x, l(3.000000)
mov o3.x, l(3.000000)
ret
