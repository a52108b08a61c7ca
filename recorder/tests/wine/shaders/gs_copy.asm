// Hand-written (the reference compiler builds no geometry programs; `iridia asm gs_copy.asm -o gs_copy.gs.dxbc`):
// the test program's geometry program. Each triangle of color.hlsl's vertex program is emitted as it is, then again
// moved right by half the clip space's width (x + 0.5, w being 1) with its colour's red and blue swapped.
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
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
gs_4_0
dcl_input_siv v[3][0].xyzw, position
dcl_input v[3][1].xyzw
dcl_temps 1
dcl_inputprimitive triangle
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_maxout 6
mov r0.x, l(0)
loop
  ige r0.y, r0.x, l(3)
  breakc_nz r0.y
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  mov o1.xyzw, v[r0.x + 0][1].xyzw
  emit
  iadd r0.x, r0.x, l(1)
endloop
cut
mov r0.x, l(0)
loop
  ige r0.y, r0.x, l(3)
  breakc_nz r0.y
  add o0.x, v[r0.x + 0][0].x, l(0.500000)
  mov o0.yzw, v[r0.x + 0][0].yyzw
  mov o1.xyzw, v[r0.x + 0][1].zyxw
  emit
  iadd r0.x, r0.x, l(1)
endloop
ret
