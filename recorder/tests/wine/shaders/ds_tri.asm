// Hand-written (the reference compiler builds no domain programs; `iridia asm ds_tri.asm -o ds_tri.ds.dxbc`): the
// test program's domain program, after hs_tri.asm. SV_Position = u cp0 + v cp1 + w cp2, and the colour likewise,
// with its red and blue swapped (so the tessellated triangle is told apart from the plain one).
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// CPPOS                    0   xyzw        0     NONE   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
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
ds_5_0
dcl_input_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_input vDomain.xyz
dcl_input vicp[3][0].xyzw
dcl_input vicp[3][1].xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_temps 2
mul r0.xyzw, vicp[0][0].xyzw, vDomain.xxxx
mad r0.xyzw, vicp[1][0].xyzw, vDomain.yyyy, r0.xyzw
mad o0.xyzw, vicp[2][0].xyzw, vDomain.zzzz, r0.xyzw
mul r1.xyzw, vicp[0][1].zyxw, vDomain.xxxx
mad r1.xyzw, vicp[1][1].zyxw, vDomain.yyyy, r1.xyzw
mad o1.xyzw, vicp[2][1].zyxw, vDomain.zzzz, r1.xyzw
ret
